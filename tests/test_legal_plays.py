"""Only legal plays are made: every move of traced rounds of every preset and the house
rules, for every strategy, judged by the independent move checker (``unosim.verify.checker``,
RULES.md 4.1, 4.3, 8.1, 8.3, 8.6, 8.8-8.10)."""
from __future__ import annotations

import numpy as np
import pytest

import unosim
from unosim.players import strategies as strat
from unosim.players.seats import parse as parse_seats
from unosim.game.cards import N_KINDS
from unosim.verify.checker import check_trace, strict_seats
from unosim.kernel import layout as L
from unosim.kernel.batch import run_one
from unosim.sim.results import rounds_frame
from unosim.game.rules import PRESETS
from unosim.sim.simulate import make_job

SETS = [("official", {}), ("stacking", {}), ("progressive", {}), ("seven-zero", {}),
        ("jump-in", {}), ("draw-until-playable", {}), ("official-2018", {}), ("pokemon", {}),
        ("motu", {}), ("copag", {}), ("portugal", {}),
        ("official", dict(stacking="progressive", jump_in=True, seven_zero=True,
                          wd4_restriction="none", multi_play=True)),
        ("official", dict(last_card="number", after_draw="pass", wd4_restriction="strict",
                          stacking="progressive", jump_in=True, multi_play=True))]


@pytest.mark.parametrize("preset,changes", SETS, ids=[f"{p}{'+' if c else ''}" for p, c in SETS])
@pytest.mark.parametrize("strategies", ["random", "heuristic",
                                        "random:bluff=0.5;challenge=0.5", "table",
                                        "points-dumper,aggressive,colour-counter,weighted"])
def test_every_traced_move_is_legal(preset, changes, strategies):
    rules = PRESETS[preset].replace(**changes)
    n = 4
    sid, sp, labels = parse_seats(strategies, n)
    deck = rules.deck_counts()
    order = np.repeat(np.arange(N_KINDS), deck).astype(np.int8)
    events = 0
    for game in range(80):
        out, trace = traced(rules, sid, sp, deck, order, n, game)
        violations = check_trace(trace, rules, n, row=out, strict=strict_seats(labels))
        assert not violations, f"game {game}: " + "\n".join(map(str, violations[:3]))
        events += len(trace)
    assert events > 80 * 20


def traced(rules, sid, sp, deck, order, n, game, seed=7):
    """The row and trace of one game; rerun with room for every event if 4096 rows were
    short."""
    cap = 4096
    while True:
        out, rd, *_, trace = run_one(rules.to_array(), sid, sp, deck, rules.points_table(),
                                     n, seed, game, order, 0, cap)
        if rd.tr[L.TR_EVENTS] <= cap:
            return out, trace
        cap = int(rd.tr[L.TR_EVENTS])


def test_trace_replays_the_run():
    """Game G of a run, replayed alone with its trace, gives the row of the public
    frame."""
    df = unosim.simulate("stacking", 300, 4, "random", seed=1)
    job = make_job("stacking", 300, 4, "random", seed=1)
    rules = job.rules
    order = np.repeat(np.arange(N_KINDS), rules.deck_counts()).astype(np.int8)
    for game in (0, 17, 299):
        out, *_ = run_one(rules.to_array(), job.sid, job.sparams, rules.deck_counts(),
                          rules.points_table(), 4, 1, game, order, 0, 0)
        mine = rounds_frame(out[None, :], 4, game).iloc[0]
        assert mine.to_dict() == df.iloc[game].to_dict()
