"""Keep CPython's freed small stack chunks for reuse while numba compiles.

From Python 3.11 the interpreter keeps its frames on a stack of 16 KiB chunks, each
mapped when a call needs it and unmapped when the call returns. numba's compiler
recurses deeply and often across a chunk's edge: compiling the general round kernel
mapped and unmapped a chunk some 350,000 times, 1.4 million page faults and 11 s of
system time of its 87 s (notes/compile-time.md). ``install`` gives the interpreter
an arena allocator (``PyObject_SetArenaAllocator``) that keeps up to ``SLOTS`` freed
blocks of at most ``MAX_KEPT`` bytes and hands them out again, and maps and unmaps the
rest as CPython's own does; so a block CPython mapped before is freed as it would have
been. Two numba C callbacks do it (no Python runs inside the allocator). Installed only
where it is safe: CPython 3.11 to 3.13 with the GIL (which every call of the allocator
holds), on Linux; at exit CPython's own allocator is put back. ``listen`` installs it at
the process's first numba compile (a process that only loads kernels from the cache
pays nothing: the callbacks' own compile takes about 0.6 s).
"""

from __future__ import annotations

import atexit
import ctypes
import sys

import numpy as np

SLOTS = 64  # freed blocks kept: 1 MiB at 16 KiB each
MAX_KEPT = 64 * 1024  # larger blocks (the small-object arenas) are unmapped at once
_state: dict = {}


class _ArenaAllocator(ctypes.Structure):
    _fields_ = [("ctx", ctypes.c_void_p), ("alloc", ctypes.c_void_p), ("free", ctypes.c_void_p)]


def supported() -> bool:
    """Whether ``install`` may replace the allocator in this interpreter."""
    gil = getattr(sys, "_is_gil_enabled", lambda: True)()
    return (
        sys.implementation.name == "cpython"
        and (3, 11) <= sys.version_info[:2] <= (3, 13)
        and gil
        and sys.platform.startswith("linux")
    )


def _callbacks():
    """The allocator's two C functions: alloc(ctx, size) -> address (0 on failure) and
    free(ctx, address, size). ``ctx`` is int64[1 + 2 * SLOTS]: the count of kept
    blocks, then (address, size) pairs."""
    import numba
    from numba import types

    libc = ctypes.CDLL(None)
    mmap = libc.mmap
    mmap.restype = ctypes.c_size_t
    mmap.argtypes = [
        ctypes.c_size_t,
        ctypes.c_size_t,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_long,
    ]
    munmap = libc.munmap
    munmap.restype = ctypes.c_int
    munmap.argtypes = [ctypes.c_size_t, ctypes.c_size_t]
    read_write, private_anonymous, failed = 3, 0x22, (1 << 64) - 1

    @numba.cfunc(types.uintp(types.voidptr, types.uintp))
    def alloc(ctx, size):
        kept = numba.carray(ctx, 1 + 2 * SLOTS, np.int64)
        n = kept[0]
        for i in range(n):
            if kept[2 + 2 * i] == size:
                address = kept[1 + 2 * i]
                kept[1 + 2 * i] = kept[2 * n - 1]
                kept[2 + 2 * i] = kept[2 * n]
                kept[0] = n - 1
                return address
        address = mmap(0, size, read_write, private_anonymous, -1, 0)
        return 0 if address == failed else address

    @numba.cfunc(types.void(types.voidptr, types.uintp, types.uintp))
    def free(ctx, address, size):
        kept = numba.carray(ctx, 1 + 2 * SLOTS, np.int64)
        n = kept[0]
        if size <= MAX_KEPT and n < SLOTS:
            kept[1 + 2 * n] = address
            kept[2 + 2 * n] = size
            kept[0] = n + 1
        else:
            munmap(address, size)

    return alloc, free


def listen() -> None:
    """``install`` at the start of the process's first numba compile (once)."""
    if "listener" in _state or not supported():
        return
    from numba.core import event

    class _AtFirstCompile(event.Listener):
        def on_start(self, ev):
            install()

        def on_end(self, ev):
            pass

    _state["listener"] = _AtFirstCompile()
    event.register("numba:compile", _state["listener"])


def install() -> bool:
    """Put the keeping allocator in place for the rest of the process (once; nothing
    where ``supported()`` is false). Returns whether it is in place."""
    if "new" in _state or "installing" in _state:
        return "new" in _state
    if not supported():
        return False
    _state["installing"] = True  # the callbacks' own compile starts a numba compile
    alloc, free = _callbacks()
    kept = np.zeros(1 + 2 * SLOTS, np.int64)
    api = ctypes.pythonapi
    api.PyObject_GetArenaAllocator.argtypes = [ctypes.POINTER(_ArenaAllocator)]
    api.PyObject_SetArenaAllocator.argtypes = [ctypes.POINTER(_ArenaAllocator)]
    old = _ArenaAllocator()
    api.PyObject_GetArenaAllocator(ctypes.byref(old))
    new = _ArenaAllocator(kept.ctypes.data, alloc.address, free.address)
    # kept for the life of the process: the callbacks' code, their blocks, both tables
    _state.update(new=new, old=old, kept=kept, callbacks=(alloc, free))
    api.PyObject_SetArenaAllocator(ctypes.byref(new))
    atexit.register(_restore)
    return True


def _restore() -> None:
    """CPython's own allocator back (at exit, before the callbacks' code can go): every
    block is a mapping of its own size, so it frees the blocks made by either."""
    if "new" in _state:
        ctypes.pythonapi.PyObject_SetArenaAllocator(ctypes.byref(_state["old"]))
