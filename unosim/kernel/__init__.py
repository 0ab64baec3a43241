"""numba kernels only: numpy arrays in, numpy arrays out; no objects, no global RNG.

Three things happen on import, before anything is compiled:

* the threading layer defaults to ``workqueue`` (on the 2-core reference machine the
  OpenMP layer gave no speed-up from a second thread); the kernels no longer run
  numba's parallel loops (``batch`` runs Python threads), but ``numba.set_num_threads``
  still sets how many. ``NUMBA_THREADING_LAYER`` in the environment still wins.
* numba's on-disk cache keys a function on its own file's time and size, and misses
  changes to the kernels it calls from other files; unosim's kernels are cached instead
  by the code of the whole package (:func:`kernel_code`: syntax trees without
  docstrings, so a docstring, comment or layout edit recompiles nothing, and any other
  edit recompiles every kernel). Nothing in ``unosim/kernel`` imports from outside it.
* the cache goes beside the sources; when that folder is read-only (an installed
  package, a read-only home), it goes to ``~/.cache/unosim/numba`` or a per-user
  folder in the temporary directory (``NUMBA_CACHE_DIR`` still wins).
"""

import ast
import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path

import numba

if "NUMBA_THREADING_LAYER" not in os.environ:
    numba.config.THREADING_LAYER = "workqueue"

_PKG = Path(__file__).resolve().parent.parent

# What the kernel does with a seed: raised whenever any frame of any rule set, player
# count or strategy changes for the same seed. Results files carry it in their manifest;
# ``--resume`` and ``replay`` refuse a file made by another behaviour version.
# 2: the expert searches penalties, drawn cards and swap targets; under after_draw = pass
# a kept drawn card no longer marks its holder as lacking the colour in play.
# 3: ``tuned`` (the expert's default policy) holds the weights tuned on for 300M more
# rounds (examples/weighted-official-random-2.toml).
# 4: the expert's default spends up to 5 x its rollouts on undecided decisions (more=5).
# 5: the expert's default deals a random opponent's hand by the chance of its last play
# (infer=3).
# 6: the expert's default races its candidates (race=4) and stops extending a search for
# a candidate unlikely to beat the policy's move by then (fut=10).
# 7: the expert's default scores its cut rollouts by the fitted model (value=fit) and
# plays 64 rollouts a decision, not 128.
# 8: the expert's default deals the hidden hands card by card and draws its rollouts'
# cards at random from an unshuffled pile (pile=lazy): no longer too many of the cards
# an opponent known to lack them skipped in the hand dealt after it; each deal of the
# hands serves 2 rollouts (reuse=2).
# 9: the expert's default scores its rollouts by the fitted model after 8 turns, not 16
# (horizon=8).
# 10: a declared card's skips wait each for the seat its step names (docs/cards.md, "How
# the steps of one card combine"): cards with more than one skip-like step play other
# games; built-in rule sets and cards with one such step play the same games.
KERNEL_BEHAVIOUR = 10


def behaviour_mismatch(manifest: dict) -> str | None:
    """Why a results file's games cannot be continued or replayed by this kernel (one
    line), or None. Files from before the version was recorded are behaviour 1."""
    theirs = manifest.get("kernel_behaviour", 1)
    if theirs == KERNEL_BEHAVIOUR:
        return None
    return (
        f"made by kernel behaviour {theirs!r}; this unosim plays behaviour "
        f"{KERNEL_BEHAVIOUR}, so its games cannot be reproduced"
    )


def kernel_sources() -> list[Path]:
    """The files whose text the compiled kernels depend on: this package's own (it
    imports nothing from outside it)."""
    return sorted((_PKG / "kernel").glob("*.py"))


def writable(folder: Path) -> bool:
    """Can files be created in ``folder`` (made if missing)? Tried for real: os.access
    says yes to root even on a read-only filesystem."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".unosim-probe.")
    except OSError:
        return False
    os.close(fd)
    os.unlink(tmp)
    return True


def user_cache_dirs() -> list[Path]:
    """Where numba's cache may go when the package folder is read-only: the user's
    cache folder, then a per-user folder in the temporary directory."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    uid = os.getuid() if hasattr(os, "getuid") else os.getpid()
    return [Path(base) / "unosim" / "numba", Path(tempfile.gettempdir()) / f"unosim-numba-{uid}"]


def choose_cache(in_tree: Path, fallbacks: list[Path]) -> Path | None:
    """The first writable of ``in_tree`` (numba's default, beside the sources) and the
    ``fallbacks``, or None (numba then cannot cache: a one-line notice is printed)."""
    for folder in [in_tree, *fallbacks]:
        if writable(folder):
            return folder
    return None


def _stripped(tree: ast.AST) -> ast.AST:
    """``tree`` without its docstrings (of the module, classes and functions)."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (
                body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                node.body = body[1:] or [ast.Pass()]
    return tree


_TREE_DIGESTS: dict[bytes, bytes] = {}  # sha256 of a file's bytes -> of its stripped tree


def _tree_digest(source: bytes) -> bytes:
    """sha256 of the syntax tree of ``source`` without docstrings, remembered by the
    bytes' own sha256 (parsing is what costs; a changed file has other bytes)."""
    key = hashlib.sha256(source).digest()
    if key not in _TREE_DIGESTS:
        tree = ast.dump(_stripped(ast.parse(source))).encode()
        _TREE_DIGESTS[key] = hashlib.sha256(tree).digest()
    return _TREE_DIGESTS[key]


def code_digest(paths) -> str:
    """sha256 of the code of the Python files ``paths`` (names and syntax trees, without
    docstrings): comments, docstrings and layout change nothing."""
    h = hashlib.sha256()
    for path in paths:
        path = Path(path)
        h.update(path.name.encode() + b"\0")
        h.update(_tree_digest(path.read_bytes()) + b"\0")
    return h.hexdigest()


def _byte_digest(paths) -> str:
    h = hashlib.sha256()
    for path in paths:
        h.update(Path(path).name.encode() + b"\0" + Path(path).read_bytes())
    return h.hexdigest()


_PY = f".py{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, 'abiflags', '')}."
_code: str | None = None


def kernel_code() -> str:
    """What the compiled kernels are cached by: numba's version and the code of the
    package's files (:func:`code_digest`), read once per process."""
    global _code
    if _code is None:
        _code = f"numba {numba.__version__} {code_digest(kernel_sources())}"
    return _code


def _drop_stale_cache(stamp: Path, cached) -> None:
    """Remove this Python's cached kernels among ``cached`` (paths) when they were made
    from other code; ``stamp`` says from which code (and, not to parse the sources at
    every start, from which bytes)."""
    global _code
    try:
        try:
            saved = json.loads(stamp.read_text())
        except (OSError, ValueError):
            saved = None
        saved = saved if isinstance(saved, dict) else {}
        now = _byte_digest(kernel_sources())
        was = saved.get("kernel")
        if (
            saved.get("bytes") == now
            and isinstance(was, str)
            and was.startswith(f"numba {numba.__version__} ")
        ):
            _code = was  # the same bytes: the same code
            return
        if was != kernel_code():
            for f in cached:
                if _PY in f.name:
                    f.unlink()
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(json.dumps({"kernel": kernel_code(), "bytes": now}))
    except OSError:
        pass


def _set_up_cache() -> Path | None:
    """Where the compiled kernels go (``jit.KernelDispatcher``): ``NUMBA_CACHE_DIR`` when
    set, else beside the sources or the first writable fallback; None: not cached."""
    if os.environ.get("NUMBA_CACHE_DIR"):  # the user's choice, left to them
        return Path(numba.config.CACHE_DIR)
    in_tree = _PKG / "kernel" / "__pycache__"
    root = choose_cache(in_tree, user_cache_dirs())
    if root is None:
        print(
            "unosim: note: no writable folder for numba's compiled kernels (the package "
            "folder, ~/.cache, the temporary folder): compiling without a cache; set "
            "NUMBA_CACHE_DIR to keep them",
            file=sys.stderr,
        )
    elif root == in_tree:
        _drop_stale_cache(in_tree / f"numba-sources{_PY}json", _PKG.rglob("__pycache__/*.nb[ic]"))
    else:  # a read-only install: cached under root, by source folder
        _drop_stale_cache(root / f"unosim-sources{_PY}json", root.rglob("*.nb[ic]"))
    return root


CACHE_ROOT = _set_up_cache()
