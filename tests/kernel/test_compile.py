"""Plain numba: the numba the suite runs on, no numba internals patched, nothing global
changed by importing or running unosim, and a short cold compile (a simulation or a
match compiles no kernel function twice: a literal argument compiles a copy per value)."""

import ast
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numba
import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]


def _numba_requirement() -> Requirement:
    """numba's line in ``pyproject.toml``'s dependencies (read as text: no tomllib on
    Python 3.10)."""
    found = re.findall(r'^\s*"(numba\b[^"]*)"', (ROOT / "pyproject.toml").read_text(), re.M)
    assert len(found) == 1, found
    return Requirement(found[0])


def test_numba_is_within_the_pinned_range():
    """The installed numba is one the pin in ``pyproject.toml`` allows, and the pin has an
    upper bound: outside it this fails (never skips). To move the pin:
    docs/contributing.md, "Moving numba's pin"."""
    spec = _numba_requirement().specifier
    assert any(s.operator in ("<", "<=", "==", "~=") for s in spec), f"no upper bound: {spec}"
    assert Version(numba.__version__) in spec, (
        f"numba {numba.__version__} is outside the pinned range {spec} (pyproject.toml); "
        'see docs/contributing.md, "Moving numba\'s pin"'
    )


# numba's private compiler modules, which unosim must not import (nor patch)
PRIVATE = ("inline_closurecall", "ir_utils", "analysis", "ssa", "targetconfig", "ir")


def test_no_module_imports_numbas_compiler_internals():
    bad = []
    for path in sorted((ROOT / "unosim").rglob("*.py")):
        text = path.read_text()
        if "PyObject_SetArenaAllocator" in text:
            bad.append(f"{path.name}: PyObject_SetArenaAllocator")
        for node in ast.walk(ast.parse(text)):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for name in names:
                parts = name.split(".")
                if parts[:2] == ["numba", "core"] and len(parts) > 2 and parts[2] in PRIVATE:
                    bad.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}")
    assert bad == []


# numba's settings, the attributes of its compiler's modules and classes, CPython's arena
# allocator and cyclic collector and the cache folder's files: the same after `import
# unosim` as before, and after a first small simulation (the cache folder may then hold
# more files, never fewer or changed ones)
NOTHING_GLOBAL = textwrap.dedent("""
    import ctypes, gc, json, os, sys
    from pathlib import Path
    import numba
    from numba.core import (analysis, caching, compiler, cpu, dispatcher, inline_closurecall,
                            ir, ir_utils, registry, ssa, targetconfig, typed_passes,
                            untyped_passes)
    owners = (analysis, caching, caching.CacheImpl, compiler, cpu, dispatcher,
              dispatcher.Dispatcher, inline_closurecall, inline_closurecall.InlineWorker, ir,
              ir.Scope, ir.Var, ir_utils, registry, ssa, targetconfig,
              targetconfig.TargetConfig, typed_passes, untyped_passes)

    class Arena(ctypes.Structure):
        _fields_ = [("ctx", ctypes.c_void_p), ("alloc", ctypes.c_void_p),
                    ("free", ctypes.c_void_p)]

    def arena():
        a = Arena()
        ctypes.pythonapi.PyObject_GetArenaAllocator(ctypes.byref(a))
        return (a.ctx, a.alloc, a.free)

    cache = Path(sys.argv[1])
    def files():
        return {str(p.relative_to(cache)): (p.stat().st_size, p.stat().st_mtime_ns)
                for p in cache.rglob("*") if p.is_file()}
    def snap():
        config = {k: repr(v) for k, v in vars(numba.config).items() if k.isupper()}
        attrs = [dict(vars(o)) for o in owners]
        collector = (gc.isenabled(), gc.get_threshold(), gc.get_freeze_count())
        return config, attrs, (arena(), collector), files()
    def changed(a, b):
        out = [f"config.{k}" for k in set(a[0]) | set(b[0]) if a[0].get(k) != b[0].get(k)]
        # copyreg's cache of a class's slot names, which CPython's copy module writes
        # the first time numba copies its own IR (a cold compile): not a change of numba
        out += [f"{o.__name__}.{k}" for o, x, y in zip(owners, a[1], b[1])
                for k in set(x) | set(y)
                if x.get(k, x) is not y.get(k, y) and k != "__slotnames__"]
        out += ["arena allocator"] * (a[2][0] != b[2][0])
        out += ["cyclic collector"] * (a[2][1] != b[2][1])
        return sorted(out), a[3], b[3]
    before = snap()
    import unosim, unosim.kernel
    names, was, now = changed(before, snap())
    print(json.dumps(names + ["cache files"] * (was != now)))
    unosim.simulate(n_games=5)
    names, was, now = changed(before, snap())
    lost = [f for f in was if now.get(f) != was[f]]
    print(json.dumps(names + ["cache files lost or changed"] * bool(lost)))
""")


def test_importing_and_running_unosim_changes_nothing_global(tmp_path):
    """Run in a process of its own, with the kernels' usual cache folder (a kernel cached
    for other code, planted there, must survive too)."""
    from unosim.kernel.compile.jit import cache_folder

    folder = Path(cache_folder())
    planted = folder / "planted.k.py311.nbi"
    planted.write_bytes(b"another version's index")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_THREADING_LAYER"}
    try:
        r = subprocess.run(
            [sys.executable, "-c", NOTHING_GLOBAL, str(folder)],
            capture_output=True,
            text=True,
            env=env,
            timeout=1800,
        )
        assert r.returncode == 0, r.stderr
        assert r.stdout.splitlines() == ["[]", "[]"]
        assert planted.read_bytes() == b"another version's index"
    finally:
        planted.unlink(missing_ok=True)


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


def test_a_compile_collects_less_often_and_puts_the_thresholds_back():
    """``fewer_collections`` raises the collector's thresholds for the outermost compile
    only, never lowers one the process set higher, leaves a collector switched off by a
    zero threshold alone, and restores the process's own thresholds after an error."""
    import gc

    from unosim.kernel.compile.jit import COMPILE_GC_THRESHOLDS, fewer_collections

    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        with fewer_collections():
            assert gc.get_threshold() == COMPILE_GC_THRESHOLDS
            with fewer_collections():
                assert gc.get_threshold() == COMPILE_GC_THRESHOLDS
            assert gc.get_threshold() == COMPILE_GC_THRESHOLDS
        assert gc.get_threshold() == (700, 10, 10)
        high = (COMPILE_GC_THRESHOLDS[0] * 2, 5, 1000)
        gc.set_threshold(*high)
        with pytest.raises(RuntimeError), fewer_collections():
            assert gc.get_threshold() == (high[0], COMPILE_GC_THRESHOLDS[1], 1000)
            raise RuntimeError("a compile that fails")
        assert gc.get_threshold() == high
        gc.set_threshold(0, 10, 10)
        with fewer_collections():
            assert gc.get_threshold() == (0, 10, 10)
        assert gc.get_threshold() == (0, 10, 10)
    finally:
        gc.set_threshold(*before)
