"""Rule sets with a kernel of their own (``kernel.rules.family``): the same games as the
general kernel, cached apart from it."""

import ast
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pytest

from unosim.game.rules import RuleError, resolve
from unosim.kernel import kernel_sources
from unosim.kernel.rules import family
from unosim.kernel.rules.family import RuleConstants
from unosim.sim import engine
from unosim.sim.simulate import make_job

STRATEGIES = {
    "random": "random",
    "heuristic": "heuristic:challenge=smart;bluff=0.3;forget_uno=0.2",
    "mix": ["colour-counter", "aggressive", "points-dumper", "weighted", "random"],
}


@pytest.mark.parametrize("players", (2, 4, 10))
@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_official_family_plays_the_general_kernels_games(players, strategy):
    labels = STRATEGIES[strategy]
    if isinstance(labels, list):
        labels = (labels * 2)[:players]
    job = make_job("official", 400, players, labels, 11)
    family = engine.rounds(job.kernel, job.seed, 0, 400, 64)
    general = engine.rounds(job.kernel, job.seed, 0, 400, 64, family=False)
    assert engine.has_family(job.kernel.rules)  # official has a kernel of its own
    assert np.array_equal(family, general)


@pytest.mark.parametrize("rules", ("official-2018", "motu"))
def test_rule_sets_with_officials_rule_array_share_its_kernel(rules):
    """Their decks differ (the kernel reads a deck from the table), their rules do not."""
    job = make_job(rules, 300, 4, (STRATEGIES["mix"] * 2)[:4], 3)
    assert engine.has_family(job.kernel.rules)
    family = engine.rounds(job.kernel, job.seed, 0, 300, 64)
    assert np.array_equal(family, engine.rounds(job.kernel, job.seed, 0, 300, 64, family=False))


# official with rules that official's kernel reads from the table (family.HOUSE)
HOUSE_MIXES = {
    "stacking": ("stacking", None),
    "progressive": ("progressive", None),
    "seven-zero": ("seven-zero", None),
    "stacking+seven-zero": ("official", {"stacking": "progressive", "seven_zero": True}),
    "portugal": ("portugal", None),  # no challenge, UNO penalty 1
    "pokemon": ("pokemon", None),  # its deck, and the winner deals next
    "draw-until-playable": ("draw-until-playable", None),
    "all": (
        "pokemon",
        {
            "stacking": "same",
            "seven_zero": True,
            "challenge": False,
            "uno_penalty": 4,
            "draw_rule": "until_playable",
        },
    ),
}


@pytest.mark.parametrize("players", (2, 4, 10))
@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
@pytest.mark.parametrize("mix", sorted(HOUSE_MIXES))
def test_house_rules_read_from_the_table_play_the_general_kernels_games(mix, strategy, players):
    rules, house = HOUSE_MIXES[mix]
    labels = STRATEGIES[strategy]
    if isinstance(labels, list):
        labels = (labels * 2)[:players]
    job = make_job(rules, 300, players, labels, 17, house=house)
    assert engine.has_family(job.kernel.rules)  # in official's kernel
    official = resolve("official").to_array()
    same = numba.typeof(RuleConstants(job.kernel.rules)) == numba.typeof(RuleConstants(official))
    assert same  # the same specialised kernel
    family = engine.rounds(job.kernel, job.seed, 0, 300, 64)
    assert np.array_equal(family, engine.rounds(job.kernel, job.seed, 0, 300, 64, family=False))


def _modules_under(root: str) -> set[str]:
    """The kernel modules ``root`` (``drivers.batch``) imports, itself and all they
    import in turn: their short names (``round``)."""
    seen, todo = set(), [f"unosim.kernel.{root}"]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        spec = importlib.util.find_spec(name)
        package = name.rpartition(".")[0]
        for node in ast.walk(ast.parse(Path(spec.origin).read_text())):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = importlib.util.resolve_name("." * node.level + (node.module or ""), package)
                for module in (base, *(f"{base}.{a.name}" for a in node.names)):
                    if module.startswith("unosim.kernel.") and _is_module(module):
                        todo.append(module)
    return {name.rpartition(".")[2] for name in seen}


def _is_module(name: str) -> bool:
    """Whether ``name`` is a module (not a name inside one, nor a subpackage)."""
    try:
        spec = importlib.util.find_spec(name)
    except ModuleNotFoundError:  # a name inside a module
        return False
    return spec is not None and spec.submodule_search_locations is None


def test_no_kernel_function_reads_a_house_slot_from_the_specialised_constant():
    """A ``family.HOUSE`` slot is read as ``table_rules(tb)[SLOT]`` and in no other way,
    or a specialised kernel would play its own constant instead of the table's house
    rule. A module that a specialised kernel does not run (``match``: matches play in the
    general kernel) may also read one from a rule array it is given (``rules[SLOT]``)."""
    from unosim.kernel.core import layout

    names = {n for n in dir(layout) if getattr(layout, n) in family.HOUSE and n.startswith("R_")}
    house = {"R_STACKING", "R_SEVEN_ZERO", "R_CHALLENGE", "R_UNO_PENALTY", "R_NEXT_DEALER"}
    assert names == house | {"R_DRAW_RULE"}
    in_family = _modules_under("drivers.batch")  # what ``batch.run_chunk_specialised`` may run
    assert {"round", "effects", "outcome", "legal", "pending"} <= in_family
    assert "match" not in in_family
    reads = 0
    for path in kernel_sources():
        if path.name in ("layout.py", "family.py"):
            continue
        tree = ast.parse(path.read_text())
        parent = {c: n for n in ast.walk(tree) for c in ast.iter_child_nodes(n)}
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Name) and node.id in names):
                continue  # (imports name the slots as strings, not as Name nodes)
            sub = parent[node]
            assert isinstance(sub, ast.Subscript) and sub.slice is node, (
                f"{path.name}:{node.lineno} uses {node.id} other than as a subscript"
            )
            if path.stem not in in_family and isinstance(sub.value, ast.Name):
                continue  # a rule array given to a module no specialised kernel runs
            assert (
                isinstance(sub.value, ast.Call)
                and isinstance(sub.value.func, ast.Name)
                and sub.value.func.id == "table_rules"
            ), f"{path.name}:{node.lineno} uses {node.id} other than as table_rules(tb)[{node.id}]"
            reads += 1
    assert reads >= 12  # stacking's, Seven-Zero's, the challenge's, UNO penalty's, draw rule's


def test_a_rule_set_without_a_family_runs_in_the_general_kernel():
    job = make_job("copag", 10, 4, "random", 1)
    assert not engine.has_family(job.kernel.rules)
    job = make_job("official", 10, 4, "random", 1, house={"jump_in": True})
    assert not engine.has_family(job.kernel.rules)


def test_a_specialised_kernel_is_typed_by_its_rules():
    official = resolve("official").to_array()
    constants = family.RuleConstants(official)
    rules = family.key(official)  # official's, its house slots 0
    assert not np.array_equal(rules, official)  # (the challenge, the UNO penalty)
    assert np.array_equal(constants.rules, rules) and not constants.rules.flags.writeable
    kind = numba.typeof(constants)
    assert kind == numba.typeof(family.RuleConstants(official.copy()))
    assert kind.name == f"RuleConstants({family.tag(rules)})"
    copag = resolve("copag").to_array()
    assert numba.typeof(family.RuleConstants(copag)) != kind


# plays official's rounds in its specialised kernel; prints the cache hits and misses of
# that kernel's signature (a process of its own: nothing compiled in this one counts)
SPECIALISED = """
from unosim.kernel.drivers import batch
from unosim.sim import engine
from unosim.sim.simulate import make_job
job = make_job("official", 10, 4, "random", 1)
engine.rounds(job.kernel, job.seed, 0, 10, 10)
s = batch.run_chunk_specialised.stats
sig = [t for t in batch.run_chunk_specialised.signatures if "RuleConstants" in str(t[0])]
assert len(sig) == 1, batch.run_chunk_specialised.signatures
print(s.cache_hits[sig[0]], s.cache_misses[sig[0]])
"""


def test_a_specialised_kernel_is_loaded_from_numbas_cache():
    """The second process loads official's specialised kernel from numba's on-disk cache
    (the first may compile it)."""
    env = {**os.environ, "UNOSIM_FAMILIES": "official"}
    runs = [
        subprocess.run(
            [sys.executable, "-c", SPECIALISED],
            env=env,
            capture_output=True,
            text=True,
            timeout=1200,
        )
        for _ in range(2)
    ]
    assert all(r.returncode == 0 for r in runs), runs[-1].stderr
    assert runs[1].stdout.split() == ["1", "0"]


def test_an_unknown_family_is_refused_in_one_line(monkeypatch):
    monkeypatch.setattr(engine, "FAMILIES", ("no-such-rules",))
    monkeypatch.setattr(engine, "_family_rules", None)
    job = make_job("official", 10, 4, "random", 1)
    with pytest.raises(RuleError, match="^UNOSIM_FAMILIES: unknown preset 'no-such-rules'"):
        engine.rounds(job.kernel, job.seed, 0, 10, 10)


def test_warm_compiles_half_the_kernels_in_a_second_process(monkeypatch):
    from unosim.sim import simulate

    here = []  # the second half runs here only when the second process failed
    real = simulate.warm_part
    monkeypatch.setattr(
        simulate, "warm_part", lambda part, *names: here.append(part) or real(part, *names)
    )
    assert simulate.warm() > 0
    assert here == [0]
    # a second process that fails leaves its half to this one
    monkeypatch.setattr(simulate.sys, "executable", "/bin/false")
    here.clear()
    simulate.warm()
    assert here == [0, 1]


def test_benchs_kernel_column_names_the_family_that_plays_each_preset():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "bench.py"
    spec = importlib.util.spec_from_file_location("bench", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    names = ("official", "motu", "stacking", "seven-zero", "portugal", "pokemon")
    names += ("draw-until-playable",)
    assert {bench.kernel_of(n) for n in names} == {"official's"}
    assert bench.kernel_of("jump-in") == bench.kernel_of("copag") == "general"


def test_warm_compiles_only_the_kernels_it_is_asked_for(monkeypatch):
    from unosim.sim import simulate

    assert set(simulate.REPORT_KERNELS) < set(simulate.KERNEL_NAMES)
    assert sorted(sum(simulate.WARM_PARTS, ())) == sorted(simulate.KERNEL_NAMES)
    warmed = []  # no compile here: what each half would compile, in this process
    monkeypatch.setattr(simulate, "warm_kernels", lambda names: warmed.append(list(names)))
    monkeypatch.setattr(simulate.sys, "executable", "/bin/false")  # both halves here
    simulate.warm(kernels=simulate.REPORT_KERNELS)
    assert warmed == [["official", "rounds", "matches", "trace"], ["expert"]]
    warmed.clear()
    simulate.warm(kernels=["trace", "official"])  # one half only: no second process
    assert warmed == [["official", "trace"]]
    warmed.clear()
    simulate.warm(kernels="game")  # the other half only
    assert warmed == [["game"]]
    with pytest.raises(ValueError, match="^no kernel named 'nope'; the kernels: official, "):
        simulate.warm(kernels=["official", "nope"])


def test_warm_kernels_refuses_an_unknown_name_in_one_line():
    from unosim.sim import simulate

    with pytest.raises(ValueError, match="^no kernel named 'nope'; the kernels: official, "):
        simulate.warm_kernels(["nope"])
