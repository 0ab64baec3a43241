"""numba kernels only: numpy arrays in, numpy arrays out; no objects, no global RNG.

Two things happen on import, before anything is compiled:

* the threading layer defaults to ``workqueue``: on the 2-core reference machine the
  OpenMP layer gave no speed-up from a second thread (1.25x), workqueue gave 2.2x.
  ``NUMBA_THREADING_LAYER`` in the environment still wins.
* numba's on-disk cache only notices changes to a function's own file, not to the
  kernels it calls from other files; so when any kernel source changes, every cached
  kernel of the package is dropped and recompiled. Nothing in ``unosim/kernel`` imports
  from outside it, so only its own files count: editing ``strategies.py`` (names,
  defaults, parsing, documentation) or ``cards.py`` recompiles nothing.
"""
import hashlib
import os
from pathlib import Path

import numba

if "NUMBA_THREADING_LAYER" not in os.environ:
    numba.config.THREADING_LAYER = "workqueue"

_PKG = Path(__file__).resolve().parent.parent

# What the kernel does with a seed: raised whenever any frame of any rule set, player
# count or strategy changes for the same seed. Results files carry it in their manifest;
# ``--resume`` and ``replay`` refuse a file made by another behaviour version.
KERNEL_BEHAVIOUR = 1


def behaviour_mismatch(manifest: dict) -> str | None:
    """Why a results file's games cannot be continued or replayed by this kernel (one
    line), or None. Files from before the version was recorded are behaviour 1."""
    theirs = manifest.get("kernel_behaviour", 1)
    if theirs == KERNEL_BEHAVIOUR:
        return None
    return (f"made by kernel behaviour {theirs!r}; this unosim plays behaviour "
            f"{KERNEL_BEHAVIOUR}, so its games cannot be reproduced")


def kernel_sources() -> list[Path]:
    """The files whose text the compiled kernels depend on: this package's own (it
    imports nothing from outside it)."""
    return sorted((_PKG / "kernel").glob("*.py"))


def _fingerprint() -> str:
    h = hashlib.sha256(numba.__version__.encode())
    for path in kernel_sources():
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def _drop_stale_cache() -> None:
    stamp = _PKG / "kernel" / "__pycache__" / "numba-sources.sha256"
    try:
        fp = _fingerprint()
        if stamp.exists() and stamp.read_text() == fp:
            return
        for f in _PKG.rglob("__pycache__/*.nb[ic]"):
            f.unlink()
        stamp.parent.mkdir(exist_ok=True)
        stamp.write_text(fp)
    except OSError:  # a read-only install: numba then caches elsewhere or not at all
        pass


_drop_stale_cache()
