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
from unosim.kernel.expert_search import search
from unosim.kernel.round import _turns

VERSION = tuple(int(x) for x in numba.__version__.split(".")[:2])


@pytest.mark.skipif(
    not (0, 59) <= VERSION < (0, 69), reason="the fixes are written for numba 0.59-0.68"
)
def test_numba_fixes_installed():
    assert jit.NUMBA_FIXES == (
        "_share_scope_copies",
        "_reuse_untyped_ir",
        "_forward_arguments",
        "_copy_callee_once",
        "_bit_live_map",
        "_ssa_skip_blocks",
        "_quick_flag_values",
    )


@pytest.mark.skipif(
    not (0, 59) <= VERSION < (0, 69), reason="the fixes are written for numba 0.59-0.68"
)
@pytest.mark.parametrize("function", [_turns, play, search])
def test_bit_live_map_equals_numbas(function):
    """The live variables ``_bit_live_map`` computes are numba's own, on functions with
    loops, branches and early returns."""
    numbas_live_map = analysis.compute_live_map
    func_ir = compiler.run_frontend(function.py_func)
    blocks = transforms.canonicalize_cfg(func_ir.blocks)
    cfg = analysis.compute_cfg_from_blocks(blocks)
    usedefs = analysis.compute_use_defs(blocks)
    with jit.numba_fixes():
        ours = analysis.compute_live_map(cfg, blocks, usedefs.usemap, usedefs.defmap)
        assert analysis.compute_live_map.__wrapped__ is numbas_live_map
    numbas = numbas_live_map(cfg, blocks, usedefs.usemap, usedefs.defmap)
    assert ours == numbas
    assert sum(map(len, ours.values())) > 100


@pytest.mark.skipif(
    not (0, 59) <= VERSION < (0, 69), reason="the fixes are written for numba 0.59-0.68"
)
def test_quick_flag_values_equal_numbas():
    flags = compiler.Flags()
    flags.no_cpython_wrapper = True
    flags.nrt = False
    numbas = TargetConfig.values
    for f in (flags, compiler.Flags(), compiler.DEFAULT_FLAGS, compiler.Flags(flags)):
        values = numbas(f)
        with jit.numba_fixes():
            assert TargetConfig.values is not numbas
            assert f.values() == values and list(f.values()) == list(values)
    assert flags != compiler.Flags() and flags == compiler.Flags(flags)


def _dump(blocks):
    return [(label, [str(stmt) for stmt in b.body]) for label, b in blocks.items()]


@pytest.mark.skipif(
    not (0, 59) <= VERSION < (0, 69), reason="the fixes are written for numba 0.59-0.68"
)
@pytest.mark.parametrize("function", [_turns, play, search])
def test_ssa_skip_blocks_equals_numbas(function):
    """``_ssa_skip_blocks`` makes the IR numba's SSA reconstruction makes, variable
    names and phi nodes included (a copy of the IR, scope and all, for each)."""
    blocks = compiler.run_frontend(function.py_func).blocks
    theirs = copy.deepcopy(blocks)
    numbas_run = ssa._run_ssa
    with jit.numba_fixes():
        assert ssa._run_ssa is not numbas_run
        ours = _dump(ssa._run_ssa(blocks))
    numbas = _dump(numbas_run(theirs))
    assert ours == numbas
    assert sum("phi" in stmt for _, body in ours for stmt in body) > 10


# numba's modules and classes the fixes touch: every attribute the same object before
# `import unosim`, after it, and after a simulation and a fresh compile of a kernel
UNTOUCHED = textwrap.dedent("""
    import numba
    from numba.core import (analysis, compiler, dispatcher, inline_closurecall, ir,
                            ir_utils, ssa, targetconfig, typed_passes, untyped_passes)
    owners = (analysis, compiler, dispatcher, dispatcher.Dispatcher, inline_closurecall,
              inline_closurecall.InlineWorker, ir, ir.Scope, ir.Var, ir_utils, ssa,
              targetconfig, targetconfig.TargetConfig, typed_passes, untyped_passes,
              numba.core.caching, numba.core.caching.CacheImpl)
    snap = lambda: [dict(vars(o)) for o in owners]
    def changed(a, b):
        return sorted(f"{o.__name__}.{k}" for o, x, y in zip(owners, a, b)
                      for k in set(x) | set(y) if x.get(k, x) is not y.get(k, y))
    before = snap()
    import unosim
    from unosim.kernel import jit
    print("import:", changed(before, snap()))
    unosim.simulate(n_games=5)

    @jit.kernel
    def fresh(a):
        return a + 1

    fresh(1)
    print("run:", changed(before, snap()))
    with jit.numba_fixes():
        print("fixes:", len(changed(before, snap())))
""")


def test_numba_is_left_as_it_is():
    out = subprocess.run(
        [sys.executable, "-c", UNTOUCHED], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out[:2] == ["import: []", "run: []"]
    if VERSION >= (0, 59) and VERSION < (0, 69):
        assert out[2] == "fixes: 9"  # the fixes are made, around unosim's compiles


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
    out = subprocess.run(
        [sys.executable, "-c", TWICE], env=env, capture_output=True, text=True, check=True
    ).stdout
    assert out == ""
