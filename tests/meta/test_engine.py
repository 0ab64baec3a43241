"""One door into the kernel: only ``unosim/sim/engine.py`` calls kernel entry points.

An entry point is any module-level function of a kernel module other than the package's
``__init__.py`` (cache set-up, behaviour version) and ``jit.py`` (the decorators): the
compiled functions and the Python drivers that call them (``batch.run_rounds``). The
check reads the source (imports inside functions count): a name imported from a kernel
module, or an attribute read on a kernel module imported under any name.
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
KERNEL = ROOT / "unosim" / "kernel"
ENGINE = ROOT / "unosim" / "sim" / "engine.py"
CHECKED = ("unosim", "analyses", "benchmarks", "tools")  # tests may call the kernel


def entry_points(kernel: Path) -> dict[str, set[str]]:
    """Kernel module (``unosim.kernel.drivers.batch``) -> its entry points' names."""
    out = {}
    for path in sorted(kernel.rglob("*.py")):
        if path.name == "__init__.py" or "compile" in path.parts or "__pycache__" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        out[_module(path)] = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    return out


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    parts = module.split(".")
    base = parts if is_package else parts[:-1]
    base = base[: len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def kernel_calls(path: Path, module: str, entries: dict[str, set[str]]) -> list[str]:
    """``file:line name`` for each use of a kernel entry point in the file ``path``
    (whose module name is ``module``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    aliases: dict[str, str] = {}  # local name -> kernel module it names
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = _absolute(node, module, path.name == "__init__.py")
            for a in node.names:
                if base in entries and a.name in entries[base]:
                    found.append(f"{path}:{node.lineno} imports {base}.{a.name}")
                elif f"{base}.{a.name}" in entries:
                    aliases[a.asname or a.name] = f"{base}.{a.name}"
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name in entries and a.asname:
                    aliases[a.asname] = a.name
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        target = None
        if isinstance(node.value, ast.Name) and node.value.id in aliases:
            target = aliases[node.value.id]
        else:
            dotted = ast.unparse(node.value)
            if dotted in entries:
                target = dotted
        if target is not None and node.attr in entries[target]:
            found.append(f"{path}:{node.lineno} uses {target}.{node.attr}")
    return found


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def outside_calls(files) -> list[str]:
    entries = entry_points(KERNEL)
    return [hit for p in files for hit in kernel_calls(p, _module(p), entries)]


def checked_files() -> list[Path]:
    files = [p for top in CHECKED for p in sorted((ROOT / top).rglob("*.py"))]
    return [p for p in files if KERNEL not in p.parents and p != ENGINE]


def test_the_entry_points_are_found():
    entries = entry_points(KERNEL)
    assert {"run_rounds", "run_one", "in_chunks"} <= entries["unosim.kernel.drivers.batch"]
    assert {"run_rounds_expert", "run_one_expert", "tally_rounds"} <= entries[
        "unosim.kernel.expert.rounds"
    ]
    assert {"run_matches", "settle", "seat_players"} <= entries["unosim.kernel.drivers.match"]
    assert outside_calls([ENGINE])  # the engine itself is seen calling them


def test_only_the_engine_calls_the_kernel():
    assert checked_files()
    hits = outside_calls(checked_files())
    assert not hits, "\n".join(hits)


@pytest.mark.parametrize(
    "source",
    [
        "from unosim.kernel.drivers.batch import run_rounds\n",
        "from ..kernel.drivers.match import settle\n",
        "from ..kernel.expert import rounds as X\nX.run_one_expert(1)\n",
        "import unosim.kernel.drivers.batch\nunosim.kernel.drivers.batch.run_one(1)\n",
        "def f():\n    from ..kernel.drivers import batch\n    return batch.in_chunks\n",
    ],
)
def test_a_planted_kernel_call_is_caught(tmp_path, source):
    path = tmp_path / "planted.py"
    path.write_text(source)
    entries = entry_points(KERNEL)
    module = "unosim.sim.planted"
    assert kernel_calls(path, module, entries)
    path.write_text(
        "from ..kernel.core import layout as L\nfrom unosim.kernel import "
        "behaviour_mismatch\nx = L.N_COLS\n"
    )
    assert not kernel_calls(path, module, entries)


# ------------------------------------------------------------------ the traced round
def test_traced_rounds_are_the_batch_rounds():
    from unosim.sim import engine
    from unosim.sim.simulate import make_job, run_block

    for spec in ("random,heuristic,table", "expert:rollouts=4,random,random"):
        job = make_job("official", 1, 3, spec, 9)
        rows = run_block(job, 0, 6)
        for game in range(6):
            out, tr = engine.trace(job.kernel, 9, game, capacity=8)
            assert np.array_equal(out, rows[game]), (spec, game)
            assert len(tr) > 8


@pytest.mark.parametrize("spec", ["random", "expert:rollouts=2,random"])
def test_the_trace_guard_holds_for_every_seating(monkeypatch, spec):
    from unosim.sim import engine
    from unosim.sim.simulate import make_job

    job = make_job("official", 1, 2, spec, 1)
    monkeypatch.setattr(engine, "TRACE_MAX_BYTES", 20 * 4 * engine.L.EV_W)
    with pytest.raises(engine.TraceTooLong, match="GiB"):
        engine.trace(job.kernel, 1, 0)


def test_a_job_builds_its_arrays_once():
    from unosim.sim.simulate import make_job

    job = make_job("official", 1, 4, "expert:rollouts=2,random,random,random", 0)
    assert job.kernel is job.kernel
    assert job.kernel.xp is not None and make_job().kernel.xp is None
