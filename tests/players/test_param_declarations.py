"""One declaration per player parameter (unosim/players/params.py): the kernel's slots,
the kernel reading every slot, bounds, parsing and labels follow from it."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from unosim.game.rules import OFFICIAL
from unosim.kernel import kernel_sources
from unosim.kernel.core import layout as L
from unosim.kernel.expert import rounds as KX
from unosim.kernel.strategies import decide as D
from unosim.players import expert as X
from unosim.players import params as P
from unosim.players import strategies as S
from unosim.players.seats import parse as parse_seats


def _kernel_sources() -> str:
    return "\n".join(p.read_text() for p in kernel_sources() if p.name != "layout.py")


# ------------------------------------------------------------------ kernel slots
def test_every_strategy_slot_is_declared_once():
    behaviour = {n for n in vars(L) if n.startswith("P_") and n != "P_W"}
    assert {p.slot for p in P.BEHAVIOUR} == behaviour
    assert {p.slot for p in P.FEATURES} == {n for n in vars(D) if re.fullmatch(r"F_[A-Z_]+", n)}
    assert len(P.FEATURES) == L.N_WEIGHTS and len(P.BEHAVIOUR) == L.P_W
    assert sorted(P.strategy_slot(p) for p in P.STRATEGY_PARAMS) == list(range(L.N_PARAMS))


def test_every_expert_slot_is_declared_once():
    slots = {n for n in vars(KX) if re.fullmatch(r"X_[A-Z]+", n)}
    declared = [p.slot for p in P.EXPERT_PARAMS if p.slot]
    assert sorted(declared) == sorted(slots) and len(declared) == KX.N_X
    assert sorted(P.expert_slot(p) for p in P.EXPERT_PARAMS if p.slot) == list(range(KX.N_X))


def test_the_kernel_reads_every_slot():
    src = _kernel_sources()
    unread = [
        p.slot for p in P.BEHAVIOUR if not re.search(rf"strategy_params\[[^\]\n]*, {p.slot}\]", src)
    ]
    unread += [
        p.slot for p in P.FEATURES if not re.search(rf"strategy_params\[[^\]\n]*\+ {p.slot}\]", src)
    ]
    unread += [
        p.slot
        for p in P.EXPERT_PARAMS
        if p.slot and not re.search(rf"expert_params\[\w+, {p.slot}\]", src)
    ]
    assert not unread, f"slots the Python side fills but the kernel never reads: {unread}"


def test_strategy_ids_are_the_declared_kernel_constants():
    assert S.NAMES == (
        "random",
        "heuristic",
        "points-dumper",
        "aggressive",
        "colour-counter",
        "weighted",
    )
    assert [S.KERNEL_ID[n] for n in S.NAMES] == list(range(D.N_STRATEGIES))
    assert S.KERNEL_ID["table"] == D.HEURISTIC
    for s in P.STRATEGY_DECLARATIONS:
        assert s.weighted == (s.kernel_id >= D.FIRST_WEIGHTED)


# ------------------------------------------------------------------ declarations
@pytest.mark.parametrize("p", P.STRATEGY_PARAMS + P.EXPERT_PARAMS, ids=lambda p: p.name)
def test_declarations_are_complete(p):
    assert p.doc and "\n" not in p.doc and len(p.doc) < 160
    assert p.type in ("prob", "weight", "int", "float", "choice", "text")
    if p.type == "choice":
        assert p.default in p.choices
    elif p.type != "text":
        lo, hi = p.bounds
        assert lo <= p.default <= hi
    assert bool(p.slot) == (p.type != "text")


def test_declared_names_are_unique():
    for family in (P.STRATEGY_PARAMS, P.EXPERT_PARAMS, P.STRATEGY_DECLARATIONS):
        names = [x.name for x in family]
        assert len(names) == len(set(names))


def test_strategy_defaults_use_declared_names():
    for s in P.STRATEGY_DECLARATIONS:
        assert set(s.defaults) <= set(S.PARAMS), s.name
        if not s.weighted:
            assert not set(s.defaults) & set(S.FEATURES), s.name


@pytest.mark.parametrize("p", [p for p in P.STRATEGY_PARAMS], ids=lambda p: p.name)
def test_strategy_bounds_are_enforced(p):
    name = "weighted" if p.type == "weight" else "heuristic"
    lo, hi = p.bounds
    for ok in (lo, hi):
        _, params, _ = S.parse_builtin(f"{name}:{p.name}={ok}")
        assert params[P.strategy_slot(p)] == ok
    step = 1.0 if p.type == "weight" else 0.01
    for bad in (lo - step, hi + step, float("nan")):
        with pytest.raises(S.StrategyError, match=p.name):
            S.parse_builtin(f"{name}:{p.name}={bad}")


@pytest.mark.parametrize(
    "p", [p for p in P.EXPERT_PARAMS if p.type in ("int", "float")], ids=lambda p: p.name
)
def test_expert_bounds_are_enforced(p):
    lo, hi = p.bounds
    for ok in (lo, hi):
        xp = X.expert_array([f"expert:{p.name}={ok}"])
        assert xp[0, P.expert_slot(p)] == p.encode(ok)
    step = 1 if p.type == "int" else 0.01
    for bad in (lo - step, hi + step):
        with pytest.raises(S.StrategyError, match=p.name):
            X.options(f"{p.name}={bad}")


@pytest.mark.parametrize(
    "p", [p for p in P.EXPERT_PARAMS if p.type == "choice"], ids=lambda p: p.name
)
def test_expert_choices_are_kernel_codes(p):
    for i, c in enumerate(p.choices):
        assert X.expert_array([f"expert:{p.name}={c}"])[0, P.expert_slot(p)] == i
        code = getattr(KX, f"{p.name.upper()}_{c.upper()}", None)
        if p.name == "model":  # the kernel tests X_MODEL == 1 for `actual`
            assert (c == "actual") == (i == 1)
        else:
            assert code == i, (p.name, c)
    with pytest.raises(S.StrategyError, match=p.name):
        X.options(f"{p.name}=nonsense")


# ------------------------------------------------------------------ labels and values
# recorded from the code before the declarations: labels, ids and the expert's row
LABELS = {
    "random": "random",
    "table": "table",
    "weighted": "weighted",
    "heuristic:bluff=0.3;challenge=smart": "heuristic:bluff=0.3",
    "random:challenge=always": "random:challenge=1",
    "random:challenge=never": "random",
    "random:challenge=smart": "random:challenge=smart",
    "points-dumper:challenge=never": "points-dumper:challenge=0",
    "heuristic:stack=0.25;jump=0;forget_uno=0.5": "heuristic:forget_uno=0.5;stack=0.25;jump=0",
    "weighted:points=1;scarce=9;challenge=smart": "weighted:points=1;scarce=9",
    "weighted:challenge=1;bluff=0.5": "weighted:bluff=0.5;challenge=1",
    "colour-counter:name_short=-3.25": "colour-counter:name_short=-3.25",
    "weighted:examples/weighted-official-random-2.toml": "weighted:challenge=0;points=-1.58126;"
    "colour=0.605051;wild=-2.10033;"
    "action=0.200019;attack=1.64558;switch=0.100062;short=0.693184;scarce=5.40705;"
    "swap=2.1041;name_short=0.20121;name_scarce=2.87127",
    "expert:z=2": "expert",
    "expert:z=0.123": "expert:z=0.12",
    "expert:deal=open;bluff=1;policy=heuristic": "expert:policy=heuristic;deal=open;bluff=1",
    "expert:model=actual;horizon=0;rollouts=512;depth=4;tries=64": (
        "expert:rollouts=512;horizon=0;model=actual;depth=4;tries=64"
    ),
    "expert:race=3;pad=10;infer=0;more=1;endgame=4": (
        "expert:endgame=4;race=3;pad=10;infer=0;more=1"
    ),
    "expert:scope=turn;draw=1;crn=0": "expert:crn=0;draw=1;scope=turn",
    "expert:race=4;fut=10": "expert",
    "expert:race=0;fut=0": "expert:race=0;fut=0",
    "expert:model=actual;horizon=0;rollouts=512;depth=4;tries=64;race=0;fut=0": (
        "expert:rollouts=512;horizon=0;model=actual;race=0;fut=0;depth=4;tries=64"
    ),
}
# the default expert's row (every slot of ``kernel.expert.rounds``, in order)
DEFAULT_ROW = [64, 8, 1, 0, 0, 200, 0, 1, 0, 4, 1000, 1, 3, 5, 1, 16, -100, 10, 1, 2, 1]
# fmt: off
EXPERT_ROWS = {
    "expert": DEFAULT_ROW,
    "expert:deal=open;bluff=1;policy=heuristic":
        [64, 8, 1, 0, 0, 200, 0, 2, 1, 4, 1000, 1, 3, 5, 1, 16, -100, 10, 1, 2, 1],
    "expert:model=actual;horizon=0;rollouts=512;depth=4;tries=64":
        [512, 0, 1, 0, 1, 200, 0, 1, 0, 4, 1000, 1, 3, 5, 4, 64, -100, 10, 1, 2, 1],
    "expert:model=actual;horizon=0;rollouts=512;depth=4;tries=64;race=0;fut=0":
        [512, 0, 1, 0, 1, 200, 0, 1, 0, 0, 1000, 1, 3, 5, 4, 64, -100, 0, 1, 2, 1],
    "expert:race=3;pad=10;infer=0;more=1;endgame=4":
        [64, 8, 1, 0, 0, 200, 4, 1, 0, 3, 10, 1, 0, 1, 1, 16, -100, 10, 1, 2, 1],
    "expert:scope=turn;draw=1;crn=0":
        [64, 8, 0, 1, 0, 200, 0, 1, 0, 4, 1000, 0, 3, 5, 1, 16, -100, 10, 1, 2, 1],
    "expert:z=0.123": [64, 8, 1, 0, 0, 12, 0, 1, 0, 4, 1000, 1, 3, 5, 1, 16, -100, 10, 1, 2, 1],
    "expert:race=4;cut=0.5":
        [64, 8, 1, 0, 0, 200, 0, 1, 0, 4, 1000, 1, 3, 5, 1, 16, 50, 10, 1, 2, 1],
    "expert:race=4;fut=10": DEFAULT_ROW,
    "expert:race=0;fut=0":
        [64, 8, 1, 0, 0, 200, 0, 1, 0, 0, 1000, 1, 3, 5, 1, 16, -100, 0, 1, 2, 1],
    "expert:value=fit": DEFAULT_ROW,
    "expert:reuse=4": [64, 8, 1, 0, 0, 200, 0, 1, 0, 4, 1000, 1, 3, 5, 1, 16, -100, 10, 1, 4, 1],
    "expert:pile=shuffled":
        [64, 8, 1, 0, 0, 200, 0, 1, 0, 4, 1000, 1, 3, 5, 1, 16, -100, 10, 1, 2, 0],
}
# fmt: on


@pytest.mark.parametrize("spec", list(LABELS))
def test_labels_are_unchanged(spec):
    _, _, labels = parse_seats(spec, 1)
    assert labels == [LABELS[spec]]
    _, _, again = parse_seats(labels[0], 1)
    assert again == labels


@pytest.mark.parametrize("spec", list(EXPERT_ROWS))
def test_expert_rows_are_unchanged(spec):
    _, _, labels = parse_seats(spec, 1)
    assert X.expert_array(labels)[0].tolist() == EXPERT_ROWS[spec]
    no_draw = X.expert_array(labels, OFFICIAL.replace(voluntary_draw=False))[0]
    assert no_draw[KX.X_DRAW] == 0


def test_strategy_defaults_are_unchanged():
    smart = (0.0, L.CHALLENGE_SMART, 0.0, 1.0, 1.0)
    none = (0.0,) * L.N_WEIGHTS
    assert S.DEFAULTS == {
        "random": (0.0, 0.0, 0.0, 1.0, 1.0) + none,
        "heuristic": smart + none,
        "points-dumper": smart + (1.0, 0.01, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
        "aggressive": smart + (0.005, 0.5, -5.0, -3.0, 8.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
        "colour-counter": smart + (0.02, 1.0, -2.0, 0.0, 2.0, 0.0, 1.5, 4.0, 0.5, 1.5, 4.0),
        "weighted": smart + (0.2, 1.0, -2.0, -0.5, 3.0, 0.0, 1.0, 2.0, 1.0, 1.0, 2.0),
        "table": (0.2, L.CHALLENGE_SMART, 0.1, 0.8, 0.5) + none,
    }
    assert S.PARAM_NAMES == S.BEHAVIOUR + S.FEATURES
    assert list(X.DEFAULTS) == [
        "rollouts",
        "policy",
        "horizon",
        "crn",
        "draw",
        "model",
        "z",
        "endgame",
        "deal",
        "bluff",
        "race",
        "cut",
        "pad",
        "scope",
        "infer",
        "more",
        "fut",
        "depth",
        "tries",
        "value",
        "reuse",
        "pile",
    ]
    assert np.array_equal(parse_seats("table", 1)[1][0], S.DEFAULTS["table"])


# ------------------------------------------------------------ the docs' tables
def _param_tables():
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "tools" / "param_tables.py"
    spec = importlib.util.spec_from_file_location("param_tables", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_docs_tables_follow_from_the_declarations():
    tables = _param_tables()
    docs = Path(__file__).resolve().parents[2] / "docs" / "players.md"
    text = docs.read_text()
    assert tables.rewrite(text) == text, "run: python tools/param_tables.py docs/players.md"
    for name in tables.TABLES:
        assert f"<!-- params:{name} -->" in text, name
        for p in getattr(P, name):
            assert f"| `{p.name}` | " in text, (name, p.name)


def test_a_docs_table_that_drifts_is_rewritten():
    tables = _param_tables()
    table = P.docs_table(P.EXPERT_PARAMS)
    text = f"x\n<!-- params:EXPERT_PARAMS -->\n{table}\n<!-- /params -->\ny"
    drifted = text.replace("(0: to the end)", "(0: forever)")
    assert drifted != text
    assert tables.rewrite(drifted) == text
