"""The table's games (``unosim.table.games.Tables``): a match to the target score, the
expert's budget, an agent file in its isolated seat (and what happens when it fails),
the hint's bounds and the atlas's line."""

from __future__ import annotations

import pytest

from unosim.game.rules import resolve
from unosim.kernel.core import layout as L
from unosim.report.atlas_line import atlas_key, atlas_line
from unosim.sim.isolated import isolated_agent
from unosim.table.games import MAX_BUDGET, TableError, Tables
from unosim.table.hint import MAX_ROLLOUTS, hint


def _play_out(tables, gid, g):
    while not g.state.is_terminal():
        g = tables.act(gid, g.state.legal_actions()[0])
    return g


def test_a_match_scores_each_round_until_the_target():
    tables = Tables()
    gid, g = tables.new("official", 2, "random", 11, match=True)
    assert g.target == 500 and g.scores == [0, 0]
    total = [0, 0]
    for rounds in range(1, 200):
        assert g.rounds == rounds
        g = _play_out(tables, gid, g)
        rec = g.state.record()
        if not rec[L.C_TRUNCATED]:
            total[int(rec[L.C_WINNER])] += int(rec[L.C_POINTS])
        assert g.scores == total  # each round counted once, by its winner's points
        if g.match_over:
            break
        g = tables.next_round(gid)
    assert g.match_over and max(g.scores) >= 500
    with pytest.raises(TableError, match="match is over"):
        tables.next_round(gid)


def test_a_single_round_has_no_next_round():
    tables = Tables()
    gid, g = tables.new("official", 2, "random", 1)
    with pytest.raises(TableError, match="not a match"):
        tables.next_round(gid)


def test_the_experts_budget_is_bounded_and_seated():
    tables = Tables()
    _, g = tables.new("official", 3, "expert", 2, budget=4)
    assert g.opponents == ("expert:rollouts=4",) * 2
    for bad in (0, MAX_BUDGET + 1, True, "8"):
        with pytest.raises(TableError, match="budget"):
            tables.new("official", 3, "expert", 2, budget=bad)


def test_agent_is_no_opponent_without_an_agent_file():
    with pytest.raises(TableError, match="not one of"):
        Tables().new("official", 3, "agent", 1)


def test_an_agent_file_that_fails_draws_and_is_counted(tmp_path):
    f = tmp_path / "broken.py"
    f.write_text("def agent(obs):\n    raise RuntimeError('no idea')\n")
    tables = Tables(agent=isolated_agent(f"{f}:agent"))
    gid, g = tables.new("official", 2, "agent", 3)
    g = _play_out(tables, gid, g)
    assert g.agent_seats == (1,)
    assert g.agent_fallbacks > 0 and "RuntimeError: no idea" in g.agent_error


def test_the_hint_is_bounded_and_names_legal_actions():
    tables = Tables()
    gid, g = tables.new("official", 4, "random", 8)
    for _ in range(60):  # a decision with a choice
        if len(g.state.legal_actions()) > 1:
            break
        g = tables.act(gid, g.state.legal_actions()[0])
    legal = g.state.legal_actions()
    assert len(legal) > 1
    before = g.state.record(), g.state.legal_actions(), g.state.observation(0).hand.copy()
    h = hint(g.state, 0, rollouts=10_000, seed=1)
    assert h["deals"] * len(legal) <= MAX_ROLLOUTS
    assert h["best"] in legal and [a["id"] for a in h["actions"]] == legal
    best = next(a for a in h["actions"] if a["id"] == h["best"])
    assert best["win"] == max(a["win"] for a in h["actions"])
    # the state itself is untouched (the hint plays on copies)
    assert g.state.legal_actions() == before[1]
    assert (g.state.observation(0).hand == before[2]).all()


def test_the_atlas_line_for_rules_it_covers():
    assert atlas_key(resolve("official")) == "00000000000"
    assert atlas_key(resolve("official", "max_turns=300")) is None
    line = atlas_line(resolve("official"), 4, ("random",) * 3)
    if line is not None:  # the atlas's data is in the clone (make atlas)
        assert "rounds of 4 random players" in line
    tables = Tables(finding=lambda rules, n, opponents: f"{rules.name} {n} {opponents[0]}")
    gid, g = tables.new("official", 2, "random", 1)
    assert g.finding is None  # not before the round's end
    g = _play_out(tables, gid, g)
    assert g.finding == "official 2 random"
