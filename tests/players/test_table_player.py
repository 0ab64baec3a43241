"""The `table` player (the heuristic with human imperfections) and the `smart` challenge
policy: legal moves, challenges that pay against the default opponents, and rules on
bluffs and UNO calls that matter once players bluff and forget."""

from __future__ import annotations

import numpy as np
import pytest

from unosim.analysis.challenges import CHALLENGERS, challenge_outcomes
from unosim.analysis.compare import compare
from unosim.game.cards import WILD_DRAW_FOUR
from unosim.game.rules import PRESETS
from unosim.kernel.core import layout as L
from unosim.players import strategies as strat
from unosim.players.seats import parse as parse_seats
from unosim.sim import engine
from unosim.sim.simulate import make_job
from unosim.verify.checker import check_trace, strict_seats

P = {name: i for i, name in enumerate(strat.PARAM_NAMES)}


def test_table_is_the_heuristic_with_its_own_rates():
    sid, sp, labels = parse_seats("table,heuristic", 2)
    assert sid[0] == sid[1] == strat.HEURISTIC
    assert labels == ["table", "heuristic"]
    t = dict(zip(strat.PARAM_NAMES, sp[0]))
    assert 0 < t["bluff"] < 1 and 0 < t["forget_uno"] < 1
    assert 0 < t["stack"] < 1 and 0 < t["jump"] < 1
    assert t["challenge"] == strat.CHALLENGE_SMART
    _, sp, labels = parse_seats("table:bluff=0.05", 1)
    assert labels == ["table:bluff=0.05"] and sp[0, P["bluff"]] == 0.05
    with pytest.raises(strat.StrategyError, match="table"):
        parse_seats("tabel", 1)  # the error lists the known names, table among them


@pytest.mark.parametrize(
    "preset",
    [
        "official",
        "stacking",
        "progressive",
        "jump-in",
        "seven-zero",
        "official-2018",
        "copag",
        "portugal",
    ],
)
def test_table_players_move_legally(preset):
    """The move checker judges every event of traced rounds with table players (bluffs
    flagged, stacks and jump-ins by choice, forgotten UNO calls penalised)."""
    rules = PRESETS[preset]
    seen = set()
    for n, spec in ((4, "table"), (3, "table,random,heuristic")):
        job = make_job(rules, 1, n, spec, 5)
        for game in range(60):
            out, trace = engine.trace(job.kernel, 5, game)
            v = check_trace(trace, rules, n, row=out, strict=strict_seats(job.labels))
            assert not v, f"{preset}, {spec}, game {game}: {v[:3]}"
            seen.update(np.unique(trace[:, L.EV_TYPE]).tolist())
    assert L.E_UNO in seen  # forgotten calls happen and are caught
    if preset == "official":
        assert L.E_CHALLENGE in seen


def _wd4_plays(rules, spec: str, games: int) -> tuple[int, int]:
    """(challenges by seat 0, Wild Draw Fours played by the others) in the run."""
    k = make_job(rules, 1, 4, spec, 3).kernel
    ch = plays = 0
    for game in range(games):
        _, t = engine.trace(k, 3, game)
        ch += int(np.count_nonzero((t[:, L.EV_TYPE] == L.E_CHALLENGE) & (t[:, L.EV_SEAT] == 0)))
        plays += int(
            np.count_nonzero(
                (t[:, L.EV_TYPE] == L.E_PLAY)
                & (t[:, L.EV_SEAT] != 0)
                & (t[:, L.EV_KIND] == WILD_DRAW_FOUR)
            )
        )
    return ch, plays


@pytest.mark.parametrize("challenger", CHALLENGERS)
def test_smart_never_challenges_players_who_never_bluff(challenger):
    """Against random and heuristic opponents (bluff = 0) a challenge always loses: the
    default policy makes none, though Wild Draw Fours come its way."""
    for opp in ("random", "heuristic"):
        ch, plays = _wd4_plays(PRESETS["official"], f"{challenger},{opp},{opp},{opp}", 150)
        assert ch == 0 and plays > 20, (challenger, opp, ch, plays)
    # nor when no play of it can be illegal (wd4_restriction = none)
    rules = PRESETS["official"].replace(wd4_restriction="none")
    ch, plays = _wd4_plays(rules, f"{challenger},table,table,table", 150)
    assert ch == 0 and plays > 20


@pytest.mark.parametrize("challenger", CHALLENGERS)
def test_smart_challenges_win_cards_against_table_players(challenger):
    """Against bluffing table players the default challenges catch a bluff more than
    1/3 of the time (break-even: a catch saves 4 cards, a miss costs 2), by 5 standard
    errors, so a challenge wins cards on average."""
    r = challenge_outcomes("official", 4, f"{challenger},table,table,table", 1500, seed=11)
    assert r["challenges"] > 150
    assert r["rate"] - 5 * r["rate_se"] > 2 / 6, r
    assert r["net"] > 0


def test_portugal_differs_from_official_only_with_players_who_bluff_or_forget():
    """`portugal` (no challenge, UNO penalty 1) is `official` for random players, who
    never bluff or forget UNO: the same rounds, game by game. With table players it
    changes round length and points by more than 5 standard errors."""
    same = compare(
        ["official", "portugal"], 4, 3000, seed=2, strategies="random", n_boot=2
    ).table.set_index("metric")
    assert (same["diff"] == 0).all()
    t = compare(
        ["official", "portugal"], 4, 40_000, seed=2, strategies="table", n_boot=2
    ).table.set_index("metric")
    for metric in ("mean_turns", "mean_points"):
        r = t.loc[metric]
        assert abs(r["diff"]) > 5 * r["se_paired"], (metric, r["diff"], r["se_paired"])
