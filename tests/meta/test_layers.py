"""The package's layers import one way, and no module imports another that imports it back.

Layers, lowest first (a module may import its own layer and the ones below):

    kernel, stats, _version   numba kernels; pure interval formulas; the version string
    game                      cards and rules
    players, verify           strategy and expert parameters; the independent move checker
    sim                       jobs, the engine, frames, files, runners, matches, replays
    env                       PettingZoo and Gymnasium environments (an optional extra)
    analysis                  comparisons, tournaments, tuning
    report, table             pages, figures, plain-words findings, `unosim report`; the
                              table for people and language models (play, mcp, text)
    cli                       the `unosim` command

``unosim/__init__.py`` is the public facade above them all, and so are ``unosim/text.py``
and ``unosim/openspiel.py`` (short import paths for code that lives in a layer). Imports
inside functions count as much as module-level ones.
"""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[2] / "unosim"

RANK = {
    "kernel": 0,
    "stats": 0,
    "_version": 0,
    "versions": 0,
    "game": 1,
    "players": 2,
    "verify": 2,
    "sim": 3,
    "env": 4,
    "analysis": 4,
    "report": 5,
    "table": 5,
    "cli": 6,
    "text": 7,  # facades: short import paths
    "openspiel": 7,
}


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module -> the package's modules it imports (absolute names), for every ``.py`` file
    under ``root`` (a package folder)."""
    top = root.name
    mods = {_module_name(p, root): p for p in root.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                candidates = [target] + [f"{target}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                candidates = [a.name for a in node.names]
            else:
                continue
            for c in candidates:
                if c.split(".")[0] != top:
                    continue
                while c and c not in mods:  # a name imported from a module: the module
                    c = c.rpartition(".")[0]
                if c and c != name:
                    deps.add(c)
        graph[name] = deps
    return graph


def layer_violations(root: Path, rank: dict[str, int]) -> list[str]:
    """``a imports b`` lines where b's layer is above a's, or a peer layer's (same rank,
    another folder); a module outside every layer other than the facade is named too."""
    out = []
    top = root.name
    for mod, deps in sorted(import_graph(root).items()):
        parts = mod.split(".")
        if len(parts) == 1:  # the facade
            continue
        layer = parts[1]
        if layer not in rank:
            out.append(f"{mod} is in no layer")
            continue
        for d in sorted(deps):
            dparts = d.split(".")
            if d == top:
                out.append(f"{mod} imports the facade {top}")
                continue
            dl = dparts[1]
            if dl != layer and rank.get(dl, 99) >= rank[layer]:
                out.append(f"{mod} imports {d} (layer {dl} is not below {layer})")
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_layers_import_one_way():
    assert layer_violations(PKG, RANK) == []


def test_no_import_cycles():
    graph = import_graph(PKG)
    # a package's __init__ re-exporting its own modules is not a cycle of the design
    graph = {m: {d for d in deps if not m.startswith(d + ".")} for m, deps in graph.items()}
    assert cycles(graph) == []


def test_every_folder_is_a_layer():
    folders = {p.name for p in PKG.iterdir() if p.is_dir() and not p.name.startswith("__")}
    assert folders <= set(RANK), folders - set(RANK)


def _plant(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "unosim"
    for rel, text in files.items():
        f = root / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(text)
    return root


def test_a_planted_upward_import_is_found(tmp_path):
    root = _plant(
        tmp_path,
        {
            "__init__.py": "",
            "game/__init__.py": "",
            "sim/__init__.py": "",
            "game/rules.py": "def f():\n    from ..sim.simulate import run\n",
            "sim/simulate.py": "from ..game.rules import f\nrun = 1\n",
        },
    )
    assert layer_violations(root, RANK) == [
        "unosim.game.rules imports unosim.sim.simulate (layer sim is not below game)"
    ]
    assert cycles(import_graph(root)) == [["unosim.game.rules", "unosim.sim.simulate"]]


def test_a_planted_peer_import_and_facade_import_are_found(tmp_path):
    root = _plant(
        tmp_path,
        {
            "__init__.py": "",
            "players/__init__.py": "",
            "verify/__init__.py": "",
            "players/expert.py": "from ..verify import checker\nfrom .. import __version__\n",
            "verify/checker.py": "",
        },
    )
    assert layer_violations(root, RANK) == [
        "unosim.players.expert imports the facade unosim",
        "unosim.players.expert imports unosim.verify (layer verify is not below players)",
        "unosim.players.expert imports unosim.verify.checker (layer verify is not below players)",
    ]
