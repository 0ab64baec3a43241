"""Kernels of their own for the rule sets played most: the kernel's modules loaded again
under a package of their own (``unosim.kernel._family_<hash>``), in which
``family.rules_of`` returns that rule set's array as a constant. numba then compiles every
rule that is off out of the turn loop: ``official`` with ``random`` players runs about
15% faster per game (notes/turn-loop-cost.md). The rules in ``family.HOUSE``
(stacking, Seven-Zero, the challenge, the UNO penalty, the next dealer, the draw rule) are
read from the table (``family.house_of``), so one family plays its rule set with any of
them: official's plays ``stacking``, ``progressive``, ``seven-zero``, ``portugal``,
``pokemon`` and ``draw-until-playable`` too.
The games are the general kernel's, bit for bit (``tests/test_families.py``); each family
compiles once, on its first use, and is cached on disk under its own name
(``jit._Locator``)."""

import hashlib
import importlib
import sys
import threading
import types
from pathlib import Path

import numpy as np

from .family import HOUSE

# modules without rules, shared with the general kernel (loading them again would only
# cost time; ``jit`` also holds numba's fixes and the cache's set-up)
_SHARED = ("jit", "fix_inliner", "fix_passes", "layout", "kinds")
_RULES_OF = """
from {package}.jit import hot


@hot
def rules_of(tb):
    return RULES


@hot
def house_of(tb):
    return tb.rules
"""
_loaded: dict[bytes, types.ModuleType] = {}
_lock = threading.Lock()  # threads (a Dask worker's) asking for a family load it once


def key(rules: np.ndarray) -> np.ndarray:
    """The family of ``rules``: the array with its ``family.HOUSE`` slots set to 0, which
    the family's kernel reads from the table instead. Rule sets that differ only in those
    slots share a kernel.

    Parameters
    ----------
    rules : int64[N_RULES]
        A rule array (``RuleSet.to_array``).

    Returns
    -------
    int64[N_RULES]
        A new array: the family's constant.
    """
    out = np.array(rules, np.int64)
    out[list(HOUSE)] = 0
    return out


def tag(rules: np.ndarray) -> str:
    """The family's name: a digest of its rule array (``int64``)."""
    return hashlib.sha256(np.ascontiguousarray(rules, np.int64).tobytes()).hexdigest()[:12]


def batch(rules: np.ndarray) -> types.ModuleType:
    """The ``batch`` module of the family of ``rules``, loaded on first use; its kernels
    compile (or load from the cache) on their first call.

    Parameters
    ----------
    rules : int64[N_RULES]
        A rule array (``RuleSet.to_array``); its family's constant is ``key(rules)``.

    Returns
    -------
    module
        The family's ``batch``: ``run_rounds`` plays rounds of every rule array of the family.
    """
    k = key(rules).tobytes()
    with _lock:
        if k not in _loaded:
            _loaded[k] = _load(np.frombuffer(k, np.int64).copy())
        return _loaded[k]


def _load(rules: np.ndarray) -> types.ModuleType:
    here = Path(__file__).resolve().parent
    name = f"{__package__}._family_{tag(rules)}"
    pkg = types.ModuleType(name)
    pkg.__path__ = [str(here)]
    pkg.__package__ = name
    sys.modules[name] = pkg
    for m in _SHARED:
        sys.modules[f"{name}.{m}"] = importlib.import_module(f"{__package__}.{m}")
    fam = types.ModuleType(f"{name}.family")
    rules.flags.writeable = False
    fam.__dict__["RULES"] = rules
    source = _RULES_OF.format(package=__package__)
    exec(compile(source, str(here / "family.py"), "exec"), fam.__dict__)
    sys.modules[fam.__name__] = fam
    return importlib.import_module(f"{name}.batch")
