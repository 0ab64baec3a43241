"""`unosim.sim.arena`: the arena allocator that keeps the interpreter's freed stack chunks
while numba compiles: its two callbacks, and a process that installs it and exits."""

import ctypes
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from unosim.sim import arena

pytestmark = pytest.mark.skipif(not arena.supported(), reason="CPython 3.11-3.13 on Linux only")


def test_freed_small_blocks_are_handed_out_again_and_large_ones_unmapped():
    alloc, free = arena._callbacks()
    a = alloc.ctypes
    f = free.ctypes
    kept = np.zeros(1 + 2 * arena.SLOTS, np.int64)
    ctx = ctypes.c_void_p(kept.ctypes.data)
    small = a(ctx, 16384)
    assert small != 0
    ctypes.memset(small, 7, 16384)  # the block is writable, all of it
    f(ctx, small, 16384)
    assert kept[0] == 1 and kept[1] == small and kept[2] == 16384
    other = a(ctx, 32768)  # no kept block of that size: a new one
    assert other not in (0, small) and kept[0] == 1
    assert a(ctx, 16384) == small and kept[0] == 0  # the kept one again
    big = a(ctx, arena.MAX_KEPT * 2)
    f(ctx, big, arena.MAX_KEPT * 2)
    assert kept[0] == 0  # unmapped, not kept
    blocks = [a(ctx, 16384) for _ in range(arena.SLOTS + 3)]  # no more than SLOTS kept
    for b in blocks:
        f(ctx, b, 16384)
    assert kept[0] == arena.SLOTS
    assert a(ctx, 1 << 62) == 0  # a mapping that cannot be made: NULL, as CPython expects


def test_a_process_with_it_installed_compiles_runs_and_exits_cleanly():
    code = textwrap.dedent("""
        import resource
        from unosim.sim import arena
        assert arena.install()
        import numba

        @numba.njit
        def f(n):
            s = 0
            for i in range(n):
                s += i % 7
            return s

        def deep(n):
            return 0 if n == 0 else 1 + deep(n - 1)

        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        for i in range(20000):  # in and out across the stack chunks' edges
            deep(50 + i % 400)
        faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
        junk = [list(range(50)) for _ in range(200000)]
        del junk
        print(f(1000), faults)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    total, faults = map(int, out.stdout.split())
    assert total == sum(i % 7 for i in range(1000))
    assert faults < 5000  # kept chunks: no fresh mapping at each crossing
