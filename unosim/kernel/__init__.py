"""numba kernels only: numpy arrays in, numpy arrays out; no objects, no global RNG.

Importing this package changes nothing outside it: no numba setting, no file. Its
kernels (``compile.jit``) are cached on disk by the code of the whole package
(:func:`kernel_code`: numba's version and the syntax trees of its files without
docstrings, so a docstring, comment or layout edit recompiles nothing, and any other
edit recompiles every kernel), since numba's own stamp (a function's own file) misses
changes to the kernels it calls from other files; nothing in ``unosim/kernel`` imports
from outside it. Where the cache goes is numba's choice, made at a kernel's first
compile (``NUMBA_CACHE_DIR``, else beside the sources, else numba's per-user cache
folder).
"""

import ast
import hashlib
from pathlib import Path

import numba

_PKG = Path(__file__).resolve().parent.parent


def kernel_sources() -> list[Path]:
    """The files whose text the compiled kernels depend on: this package's own, in every
    subpackage (it imports nothing from outside it). The one place that knows where the
    kernel's files are: the tests and ``analyses/`` ask it (the Makefile finds the same
    files under ``unosim/kernel``)."""
    root = _PKG / "kernel"
    return sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.relative_to(root).parts)


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


def _name(path: Path) -> str:
    """``path`` as named in a digest: inside the package, from its root
    (``kernel/core/state.py``: two subpackages may hold files of one name); elsewhere
    its file name."""
    try:
        return path.resolve().relative_to(_PKG).as_posix()
    except ValueError:
        return path.name


def code_digest(paths) -> str:
    """sha256 of the code of the Python files ``paths`` (names and syntax trees, without
    docstrings): comments, docstrings and layout change nothing."""
    h = hashlib.sha256()
    for path in paths:
        path = Path(path)
        h.update(_name(path).encode() + b"\0")
        h.update(_tree_digest(path.read_bytes()) + b"\0")
    return h.hexdigest()


_code: str | None = None


def kernel_code() -> str:
    """What the compiled kernels are cached by: numba's version and the code of the
    package's files (:func:`code_digest`), read once per process."""
    global _code
    if _code is None:
        _code = f"numba {numba.__version__} {code_digest(kernel_sources())}"
    return _code


def __getattr__(name: str):
    """``CACHE_ROOT``: the folder numba caches the kernels in (``jit.cache_folder``),
    found when asked for, not at import."""
    if name == "CACHE_ROOT":
        from .compile.jit import cache_folder

        return cache_folder()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
