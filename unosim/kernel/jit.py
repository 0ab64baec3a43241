"""The two decorators every kernel function uses, and what keeps the cold compile short.

Kernel functions never allocate, so ``kernel`` compiles them without numba's runtime
(``_nrt=False``: no reference counting of the arrays passed around, which took two thirds
of a turn's time); ``hot`` functions are also inlined into their callers at numba's IR
level. The version-guarded fixes of numba's inliner (``fix_inliner``) and analyses
(``fix_passes``), installed here only around unosim's compiles (``numba_fixes``), make
numba build the same code faster; ``tests/test_compile.py`` compares each with numba's
own. This module also holds the dispatcher that caches by the package's code. Why each
rule and fix exists, with the compile times measured: ``notes/compile-time.md``.
"""

import contextlib
import os
from pathlib import Path

import numba
from numba.core.caching import CompileResultCacheImpl, FunctionCache, _CacheLocator
from numba.core.registry import CPUDispatcher

from .fix_inliner import (
    _copy_callee_once,
    _forward_arguments,
    _reuse_untyped_ir,
    _share_scope_copies,
)
from .fix_passes import _bit_live_map, _quick_flag_values, _ssa_skip_blocks


def _owners():
    """The numba modules and classes the fixes above replace attributes of."""
    from numba.core import analysis, inline_closurecall, ir, ir_utils, ssa, targetconfig

    return (
        inline_closurecall,
        inline_closurecall.InlineWorker,
        ir.Scope,
        analysis,
        ir_utils,
        ssa,
        targetconfig.TargetConfig,
    )


_MISSING = object()


def _install_numba_fixes():
    """Make the fixes of numba above where numba's internals look as they do in the
    versions they were measured with (else none: compiling is only slower), then put
    numba back as it was. Returns the names of the fixes made and, for ``numba_fixes``,
    the attributes they replace: {(owner, name): (numba's value, the fix)}."""
    try:
        from numba.core import inline_closurecall  # noqa: F401

        version = tuple(int(x) for x in numba.__version__.split(".")[:2])
    except (ImportError, ValueError):
        return (), {}
    if not (0, 59) <= version < (0, 69):
        return (), {}
    owners = _owners()
    before = [dict(vars(o)) for o in owners]
    fixes = (
        _share_scope_copies,
        _reuse_untyped_ir,
        _forward_arguments,
        _copy_callee_once,
        _bit_live_map,
        _ssa_skip_blocks,
        _quick_flag_values,
    )
    names = tuple(f.__name__ for f in fixes if f())
    swaps = {}
    for owner, old in zip(owners, before):
        for name, value in list(vars(owner).items()):
            if old.get(name, _MISSING) is not value:
                swaps[(owner, name)] = (old.get(name, _MISSING), value)
    _put(swaps, 0)
    return names, swaps


def _put(swaps, which):
    for (owner, name), values in swaps.items():
        if values[which] is _MISSING:
            delattr(owner, name)
        else:
            setattr(owner, name, values[which])


NUMBA_FIXES, _SWAPS = _install_numba_fixes()
_depth = [0]


@contextlib.contextmanager
def numba_fixes():
    """The fixes above in place while the block runs (unosim's compiles), numba as it
    was after; under numba's compiler lock, so no other compile sees them."""
    from numba.core.compiler_lock import global_compiler_lock

    with global_compiler_lock:
        if _depth[0] == 0:
            _put(_SWAPS, 1)
        _depth[0] += 1
        try:
            yield
        finally:
            _depth[0] -= 1
            if _depth[0] == 0:
                _put(_SWAPS, 0)


class _Locator(_CacheLocator):
    """Where numba caches a kernel function, and the stamp it is valid for: the code of
    the whole kernel package (``kernel_code``), not the time and size of its own file;
    its file name carries no line number, so that an edit above it renames nothing."""

    def __init__(self, py_file, root, family=""):
        self._py_file = py_file
        self._family = family
        self._path = (
            str(root)
            if root == _IN_TREE
            else os.path.join(str(root), self.get_suitable_cache_subpath(py_file))
        )

    def get_cache_path(self):
        return self._path

    def get_source_stamp(self):
        from . import kernel_code

        return kernel_code()

    def get_disambiguator(self):
        return "k" + self._family  # a family's kernels (``families``) apart from the general's

    @classmethod
    def from_function(cls, py_func, py_file):
        from . import CACHE_ROOT

        if CACHE_ROOT is None:
            return None
        family = py_func.__module__.split("._family_")[1:]
        self = cls(py_file, CACHE_ROOT, family[0].split(".")[0] if family else "")
        try:
            self.ensure_cache_path()
        except OSError:
            return None
        return self


class _CacheImpl(CompileResultCacheImpl):
    _locator_classes = [_Locator]


class _Cache(FunctionCache):
    _impl_class = _CacheImpl


class KernelDispatcher(CPUDispatcher):
    """numba's dispatcher for unosim's kernels: compiles with ``numba_fixes`` and caches
    by the package's code (``_Locator``)."""

    def compile(self, sig):
        with numba_fixes():
            return super().compile(sig)

    def enable_caching(self):
        from . import CACHE_ROOT

        if CACHE_ROOT is not None:
            try:
                self._cache = _Cache(self.py_func)
            except RuntimeError:  # no locator could write there: run uncached
                pass


def jitted(**options):
    """``numba.njit(cache=True, **options)`` for unosim's kernels (``KernelDispatcher``)."""
    targetoptions = {**options, "nopython": True, "boundscheck": None}

    def wrap(func):
        if numba.config.DISABLE_JIT:
            return func
        disp = KernelDispatcher(py_func=func, locals={}, targetoptions=targetoptions)
        disp.enable_caching()
        return disp

    return wrap


_IN_TREE = Path(__file__).resolve().parent / "__pycache__"
kernel = jitted(_nrt=False)
hot = jitted(_nrt=False, inline="always")
