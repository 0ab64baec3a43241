"""The cold compile stays short (``unosim/kernel/jit.py``): the fixes of numba's inliner
are installed on the numba versions they were written for, and a simulation or a match
compiles no kernel function twice (a literal argument compiles a copy per value)."""
import copy
import os
import subprocess
import sys
import textwrap

import numba
import pytest

from numba.core import analysis, compiler, ssa, transforms
from numba.core.targetconfig import TargetConfig

from unosim.kernel import jit
from unosim.kernel.effects import play
from unosim.kernel.expert import search
from unosim.kernel.round import _turns

VERSION = tuple(int(x) for x in numba.__version__.split(".")[:2])


@pytest.mark.skipif(not (0, 59) <= VERSION < (0, 69),
                    reason="the fixes are written for numba 0.59-0.68")
def test_numba_fixes_installed():
    assert jit.NUMBA_FIXES == (
        "_share_scope_copies", "_reuse_untyped_ir", "_forward_arguments",
        "_copy_callee_once", "_bit_live_map", "_ssa_skip_blocks", "_quick_flag_values")


@pytest.mark.skipif(not (0, 59) <= VERSION < (0, 69),
                    reason="the fixes are written for numba 0.59-0.68")
@pytest.mark.parametrize("function", [_turns, play, search])
def test_bit_live_map_equals_numbas(function):
    """The live variables ``_bit_live_map`` computes are numba's own, on functions with
    loops, branches and early returns."""
    func_ir = compiler.run_frontend(function.py_func)
    blocks = transforms.canonicalize_cfg(func_ir.blocks)
    cfg = analysis.compute_cfg_from_blocks(blocks)
    usedefs = analysis.compute_use_defs(blocks)
    ours = analysis.compute_live_map(cfg, blocks, usedefs.usemap, usedefs.defmap)
    numbas = analysis.compute_live_map.__wrapped__(cfg, blocks, usedefs.usemap,
                                                   usedefs.defmap)
    assert ours == numbas
    assert sum(map(len, ours.values())) > 100


@pytest.mark.skipif(not (0, 59) <= VERSION < (0, 69),
                    reason="the fixes are written for numba 0.59-0.68")
def test_quick_flag_values_equal_numbas():
    flags = compiler.Flags()
    flags.no_cpython_wrapper = True
    flags.nrt = False
    for f in (flags, compiler.Flags(), compiler.DEFAULT_FLAGS, compiler.Flags(flags)):
        values = TargetConfig.values.__wrapped__(f)
        assert f.values() == values and list(f.values()) == list(values)
    assert flags != compiler.Flags() and flags == compiler.Flags(flags)


def _dump(blocks):
    return [(label, [str(stmt) for stmt in b.body]) for label, b in blocks.items()]


@pytest.mark.skipif(not (0, 59) <= VERSION < (0, 69),
                    reason="the fixes are written for numba 0.59-0.68")
@pytest.mark.parametrize("function", [_turns, play, search])
def test_ssa_skip_blocks_equals_numbas(function, monkeypatch):
    """``_ssa_skip_blocks`` makes the IR numba's SSA reconstruction makes, variable
    names and phi nodes included (a copy of the IR, scope and all, for each)."""
    blocks = compiler.run_frontend(function.py_func).blocks
    theirs = copy.deepcopy(blocks)
    ours = _dump(ssa._run_ssa(blocks))
    monkeypatch.setattr(ssa, "_run_block_rewrite", ssa._run_block_rewrite.__wrapped__)
    numbas = _dump(ssa._run_ssa.__wrapped__(theirs))
    assert ours == numbas
    assert sum("phi" in stmt for _, body in ours for stmt in body) > 10


# in a fresh process with an empty cache: a function loaded from the cache does not
# compile its callees, so only a cold compile shows every specialisation
TWICE = textwrap.dedent("""
    import importlib, pkgutil
    import unosim.kernel as K
    from numba.core.registry import CPUDispatcher
    from unosim.sim.match import make_match_job, run_matches
    from unosim.sim.simulate import simulate
    simulate(n_games=1)
    run_matches(make_match_job(n_matches=1), threads=1)
    for m in pkgutil.iter_modules(K.__path__):
        mod = importlib.import_module("unosim.kernel." + m.name)
        for name, f in vars(mod).items():
            if isinstance(f, CPUDispatcher) and len(f.signatures) > 1:
                print(m.name, name, f.signatures)
""")


@pytest.mark.slow
def test_simulate_and_matches_compile_nothing_twice(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", TWICE], env=env, capture_output=True,
                         text=True, check=True).stdout
    assert out == ""
