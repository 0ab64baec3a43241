"""The decorators every kernel function uses, and the on-disk cache they share.

Kernel functions never allocate, so they compile without numba's runtime (``_nrt=False``:
no reference counting of the arrays passed around, which took two thirds of a turn's
time). They are named for where a function's code goes:

* ``called``: compiled once per argument types and called (LLVM copies it into a caller
  only if it is small). For the entry points and the rare or once-a-round parts: a call
  passes the ``state.Table`` and ``state.Round`` bundles field by field, some twenty
  arrays, which costs time on the turn path.
* ``inlined``: numba copies the function into each caller before typing
  (``inline="always"``), reading it again, and every ``inlined`` function it calls, at
  each call site: most of a cold compile (docs/performance.md, "Cold compile", with the
  alternatives measured). For the turn path, where a call costs speed.
* ``llvm_inlined``: compiled once per argument types, as ``called``, and copied into
  each caller by LLVM (numba's ``forceinline`` option). For small leaves that take no
  bundle and are reached from many places of the turn path (the random streams'
  draws): typed once, where numba's copies were typed at every site, and without a
  call's cost.

All three are plain ``numba.njit`` with ``cache=True``; the one difference from numba's own
cache is what a cached kernel is valid for (``_KernelCodeStamp``): the code of the whole
kernel package, not the time and size of its own file, since a kernel inlines functions
from the package's other files. Where the cache goes is numba's own choice
(``NUMBA_CACHE_DIR``, else beside the sources, else numba's per-user folder for a
read-only install), made at a kernel's first compile, not at import. While a kernel
compiles, CPython's cyclic collector runs less often (``fewer_collections``), as in other
compilers written in Python; its thresholds are the process's own again once the compile
ends.
"""

import contextlib
import gc
import sys
import threading

import numba
from numba.core import caching
from numba.core.registry import CPUDispatcher


def _numba_locator(name):
    """numba's cache locator ``name`` (public from numba 0.6x, ``_name`` before)."""
    return getattr(caching, name, None) or getattr(caching, "_" + name)


class _KernelCodeStamp:
    """A cache locator whose cached functions are valid for the code of the whole kernel
    package (``kernel.kernel_code``: numba's version and the syntax trees of the
    package's files without docstrings), and whose file names carry no line number, so
    that an edit above a function renames nothing."""

    def get_source_stamp(self):
        from .. import kernel_code

        return kernel_code()

    def get_disambiguator(self):
        return "k"


class _UserProvided(_KernelCodeStamp, _numba_locator("UserProvidedCacheLocator")):  # type: ignore[misc]
    """``NUMBA_CACHE_DIR`` when set."""


class _InTree(_KernelCodeStamp, _numba_locator("InTreeCacheLocator")):  # type: ignore[misc]
    """Beside the sources (``kernel/__pycache__``) when that folder is writable."""


class _UserWide(_KernelCodeStamp, _numba_locator("UserWideCacheLocator")):  # type: ignore[misc]
    """numba's per-user cache folder, for a read-only install."""


class _CacheImpl(caching.CompileResultCacheImpl):
    _locator_classes = [_UserProvided, _InTree, _UserWide]


class _Cache(caching.FunctionCache):
    _impl_class = _CacheImpl


_cache_lock = threading.Lock()  # two threads compiling a kernel at once set up one cache

# CPython's cyclic collector while numba compiles a kernel: a compile makes millions of
# short-lived objects, and at the default thresholds (700, 10, 10) collecting them took
# about a fifth of a cold compile's CPU (docs/performance.md, "Cold compile")
COMPILE_GC_THRESHOLDS = (200_000, 100, 100)
_collector_lock = threading.Lock()
_compiles_under_way = 0
_thresholds_before = (0, 0, 0)  # the process's own, when the outermost compile began


@contextlib.contextmanager
def fewer_collections():
    """Collect less often while a kernel compiles (``COMPILE_GC_THRESHOLDS``, or the
    process's own thresholds where higher; none if it has switched them off), and put
    the process's thresholds back when the outermost compile ends."""
    global _compiles_under_way, _thresholds_before
    with _collector_lock:
        if _compiles_under_way == 0:
            _thresholds_before = gc.get_threshold()
            if _thresholds_before[0] > 0:
                raised = (max(a, b) for a, b in zip(_thresholds_before, COMPILE_GC_THRESHOLDS))
                gc.set_threshold(*raised)
        _compiles_under_way += 1
    try:
        yield
    finally:
        with _collector_lock:
            _compiles_under_way -= 1
            if _compiles_under_way == 0:
                gc.set_threshold(*_thresholds_before)


class KernelDispatcher(CPUDispatcher):
    """numba's dispatcher for unosim's kernels, cached by the package's code
    (``_KernelCodeStamp``), compiling with fewer collections (``fewer_collections``).
    The cache folder is found at the first compile, not when the kernel is defined
    (numba probes it); with none writable the kernel runs uncached."""

    _cache_wanted = False

    def enable_caching(self):
        self._cache_wanted = True

    def compile(self, sig):
        if self._cache_wanted:
            with _cache_lock:
                if self._cache_wanted:
                    try:
                        self._cache = _Cache(self.py_func)
                    except RuntimeError:  # no locator could write there: run uncached
                        _uncached_note()
                    self._cache_wanted = False
        with fewer_collections():
            return super().compile(sig)


_noted = []  # type: list[bool]


def _uncached_note():
    """Say once per process that the kernels compile without a cache (one line)."""
    if not _noted:
        _noted.append(True)
        print(
            "unosim: note: no writable folder for numba's compiled kernels (NUMBA_CACHE_DIR, "
            "the package folder, numba's user cache folder): compiling without a cache; set "
            "NUMBA_CACHE_DIR to keep them",
            file=sys.stderr,
        )


def cache_folder():
    """The folder numba caches the kernels in (found as at a kernel's first compile),
    or None: nowhere writable, the kernels run uncached."""
    try:
        return _Cache(cache_folder).cache_path
    except RuntimeError:
        return None


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


called = jitted(_nrt=False)
inlined = jitted(_nrt=False, inline="always")
llvm_inlined = jitted(_nrt=False, forceinline=True)
