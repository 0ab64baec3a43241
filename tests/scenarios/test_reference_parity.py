"""The kernel against the independent pure-Python reference engine (tests/reference).

Both implement RULES.md from scratch and use different random streams, so they are
compared statistically at fixed seeds: for each statistic the difference of the means
must lie within 5 standard errors (of the difference), which never flakes at these seeds
and still catches a rule bug that moves a mean by a few percent.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import unosim
from tests.reference import engine as ref

STATS = (
    "turns",
    "cards_played",
    "cards_drawn",
    "points",
    "max_stack",
    "reshuffles",
    "challenges",
    "bluffs",
    "uno_penalties",
)


def _ref_frame(rules, n_players, games, seed, params=None) -> pd.DataFrame:
    return pd.DataFrame(ref.simulate(rules, n_players, games, seed, params=params))


def assert_same_distribution(
    kern: pd.DataFrame, refr: pd.DataFrame, n_players: int, label: str
) -> None:
    failures = []
    cols = (
        list(STATS)
        + [f"seat{s}_wins" for s in range(n_players)]
        + [f"hand_size_{s}" for s in range(n_players)]
    )
    for col in cols:
        if col.startswith("seat"):
            s = int(col[4:-5])
            a = (kern["winner"] == s).to_numpy(float)
            b = (refr["winner"] == s).to_numpy(float)
        else:
            a = kern[col].to_numpy(float)
            b = refr[col].to_numpy(float)
        se = np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
        diff = a.mean() - b.mean()
        if se == 0:
            if diff != 0:
                failures.append(f"{col}: kernel {a.mean():.4f} vs reference {b.mean():.4f}")
        elif abs(diff) > 5 * se:
            failures.append(
                f"{col}: kernel {a.mean():.4f} vs reference {b.mean():.4f} ({diff / se:+.1f} se)"
            )
    assert not failures, f"{label}: " + "; ".join(failures)


# (label, kernel rules, kernel house, reference rules, players, strategies / params)
CASES = [
    ("official-4", "official", None, "official", 4, None),
    ("official-2", "official", None, "official", 2, None),
    ("official-10", "official", None, "official", 10, None),
    ("stacking", "stacking", None, "stacking", 4, None),
    ("progressive", "progressive", None, "progressive", 4, None),
    ("seven-zero-3", "seven-zero", None, "seven-zero", 3, None),
    ("jump-in", "jump-in", None, "jump-in", 4, None),
    ("draw-until", "draw-until-playable", None, "draw-until-playable", 4, None),
    (
        "official-2018",
        "official-2018",
        "blank_card=swap_hands",
        {**ref.PRESETS["official-2018"], "blank_card": "swap_hands"},
        4,
        None,
    ),
    ("pokemon", "pokemon", None, "pokemon", 4, None),
    ("motu-3", "motu", None, "motu", 3, None),
    ("copag", "copag", None, "copag", 4, None),
    (
        "all-house",
        "official",
        "stacking=progressive,seven_zero=true,jump_in=true,wd4_restriction=none",
        {
            **ref.PRESETS["official"],
            "stacking": "progressive",
            "seven_zero": True,
            "jump_in": True,
            "wd4_restriction": "none",
        },
        4,
        None,
    ),
    (
        "behaviour",
        "official",
        "uno_penalty=1,catch_uno=0.5",
        {**ref.PRESETS["official"], "uno_penalty": 1, "catch_uno": 0.5},
        4,
        "random:bluff=0.5;challenge=0.5;forget_uno=0.5",
    ),
    (
        "behaviour-stacking",
        "stacking",
        None,
        "stacking",
        4,
        "random:bluff=0.7;challenge=0.4;forget_uno=0.3",
    ),
    # RULES.md 8.8-8.10
    (
        "last-card",
        "official",
        "last_card=number",
        {**ref.PRESETS["official"], "last_card": "number"},
        4,
        None,
    ),
    (
        "last-card-house",
        "official",
        "last_card=number,stacking=progressive,jump_in=true",
        {
            **ref.PRESETS["official"],
            "last_card": "number",
            "stacking": "progressive",
            "jump_in": True,
        },
        3,
        None,
    ),
    (
        "after-draw-pass",
        "official",
        "after_draw=pass",
        {**ref.PRESETS["official"], "after_draw": "pass"},
        4,
        None,
    ),
    (
        "wd4-strict",
        "official",
        "wd4_restriction=strict",
        {**ref.PRESETS["official"], "wd4_restriction": "strict"},
        4,
        "random:bluff=0.5;challenge=0.5;forget_uno=0.2",
    ),
    (
        "all-new",
        "official",
        "last_card=number,after_draw=pass,wd4_restriction=strict",
        {
            **ref.PRESETS["official"],
            "last_card": "number",
            "after_draw": "pass",
            "wd4_restriction": "strict",
        },
        2,
        "random:bluff=0.3;challenge=0.6;forget_uno=0.1",
    ),
]


def _params(strategy: str | None, n: int):
    if strategy is None:
        return "random", None
    _, _, rest = strategy.partition(":")
    p = {k: float(v) for k, v in (item.split("=") for item in rest.split(";"))}
    return strategy, [dict(p) for _ in range(n)]


def _run(case, ref_games, seed):
    label, krules, house, rrules, n, strategy = case
    kstrat, params = _params(strategy, n)
    kern = unosim.simulate(krules, 100_000, n, kstrat, seed=seed, house=house)
    refr = _ref_frame(rrules, n, ref_games, seed, params)
    assert_same_distribution(kern, refr, n, label)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_kernel_matches_reference(case):
    _run(case, ref_games=1500, seed=2024)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_kernel_matches_reference_large(case):
    _run(case, ref_games=20_000, seed=77)
