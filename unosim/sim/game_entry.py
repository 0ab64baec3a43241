"""The stepwise game's step as one call from Python, for the environments: apply an
action, advance, and write the stepped seat's flat observation.

A call of a kernel from Python unboxes each of its arrays; the step takes about 80 (the
round, its checkpoint, the search scratch...), and with numba's reference counting on
each one costs an allocation. ``step_flat`` is compiled without it (``_nrt=False``: the
kernels never allocate), which took the unboxing from 4.2 to 1.7 us a step, and writes
the observation in the same call. It is cached by the kernels' code and this file's
(``_Stamp``), since the kernels it calls are compiled into it.
"""

from __future__ import annotations

import threading
from pathlib import Path

import numba
from numba.core import caching
from numba.core.registry import CPUDispatcher

from ..kernel import code_digest, kernel_code
from ..kernel import jit as J
from ..kernel.outside import N_ACTIONS, O_MASK, O_SEAT, O_STATUS, ST_ASKING
from ..kernel.step import start_game, step_game
from ..kernel.step_tensors import observation_tensor


class _Stamp(J._KernelCodeStamp):
    def get_source_stamp(self):
        return f"{kernel_code()} {code_digest([Path(__file__)])}"


class _UserProvided(_Stamp, J._numba_locator("UserProvidedCacheLocator")):  # type: ignore[misc]
    pass


class _InTree(_Stamp, J._numba_locator("InTreeCacheLocator")):  # type: ignore[misc]
    pass


class _UserWide(_Stamp, J._numba_locator("UserWideCacheLocator")):  # type: ignore[misc]
    pass


class _CacheImpl(caching.CompileResultCacheImpl):
    _locator_classes = [_UserProvided, _InTree, _UserWide]


class _Cache(caching.FunctionCache):
    _impl_class = _CacheImpl


_lock = threading.Lock()


class _Dispatcher(CPUDispatcher):
    _cache_wanted = True

    def compile(self, sig):
        if self._cache_wanted:
            with _lock:
                if self._cache_wanted:
                    try:
                        self._cache = _Cache(self.py_func)
                    except RuntimeError:
                        pass  # nowhere writable: uncached (``kernel.jit`` says so once)
                    self._cache_wanted = False
        return super().compile(sig)


def _write_flat(ob, deck, seat, flat):
    mine = ob[O_STATUS] == ST_ASKING and ob[O_SEAT] == seat
    for a in range(N_ACTIONS):
        flat[a] = ob[O_MASK + a] if mine else 0.0
    observation_tensor(ob, deck, seat, flat[N_ACTIONS:])


def _step_flat(tb, rd, ck, order, xp, sa, out, cfg, action, deck, seat, flat):
    st = step_game(tb, rd, ck, order, xp, sa, out, cfg, action)
    if st >= 0:
        _write_flat(rd.ob, deck, seat, flat)
    return st


def _start_flat(tb, rd, ck, order, xp, sa, out, cfg, deck, seat, flat):
    st = start_game(tb, rd, ck, order, xp, sa, out, cfg)
    _write_flat(rd.ob, deck, seat, flat)
    return st


def _compiled(func):
    if numba.config.DISABLE_JIT:
        return func
    return _Dispatcher(py_func=func, locals={}, targetoptions={"nopython": True, "_nrt": False})


if not numba.config.DISABLE_JIT:
    _write_flat = numba.njit(_nrt=False, inline="always")(_write_flat)
step_flat = _compiled(_step_flat)
step_flat.__doc__ = """``kernel.step.step_game``, then, when the action was legal, the
flat observation of ``seat`` into ``flat`` float32[98 + N_T] (``State.write_flat``).

Returns
-------
int64
    ``step_game``'s status (``ERR_*`` < 0: nothing written, the state unchanged).
"""
start_flat = _compiled(_start_flat)
start_flat.__doc__ = """``kernel.step.start_game`` (the round set up in ``rd.ob``), then
the flat observation of ``seat`` into ``flat`` float32[98 + N_T]; returns the status."""
