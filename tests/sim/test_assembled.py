"""Matches assembled from single rounds (``unosim.sim.assembled``) have the distribution of
the match kernel's for players both can run: match winner and match length, 5 sigma."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from unosim.sim.assembled import assembled_matches
from unosim.sim.match import simulate_matches

N = 3000


@pytest.mark.parametrize("house", [None, "next_dealer=winner,scoring=each_own_negative"])
def test_assembled_matches_match_the_kernel(house):
    players = ["heuristic", "random", "random", "random"]
    kernel, _ = simulate_matches("official", N, 4, players, seed=7, house=house)
    built = assembled_matches("official", players, N, seed=8, house=house)
    for who in (0, 1):
        p1 = (kernel["winner"] == who).mean()
        p2 = (built["winner"] == who).mean()
        p = (p1 + p2) / 2
        assert abs(p1 - p2) < 5 * np.sqrt(p * (1 - p) * 2 / N), (who, p1, p2)
    a, b = kernel["rounds"].to_numpy(), built["rounds"].to_numpy()
    se = np.sqrt(a.var() / N + b.var() / N)
    assert abs(a.mean() - b.mean()) < 5 * se, (a.mean(), b.mean())
    assert (kernel["winner"] == 0).mean() > 0.4  # the heuristic's edge shows in both


def test_block_sizes_change_no_match(monkeypatch):
    from unosim.sim import assembled

    args = ("official", ["random", "heuristic", "random"], 30, 5)
    small = assembled.assembled_matches(*args)
    monkeypatch.setattr(assembled, "FIRST_BLOCK", assembled.BLOCK)
    large = assembled.assembled_matches(*args)
    monkeypatch.setattr(assembled, "FIRST_BLOCK", 1)
    monkeypatch.setattr(assembled, "BLOCK", 3)
    tiny = assembled.assembled_matches(*args)
    pd.testing.assert_frame_equal(small, large)
    pd.testing.assert_frame_equal(small, tiny)
    assert small["rounds"].sum() > 30  # matches of several rounds: blocks were refilled


def test_pools_simulate_about_the_rounds_they_give(monkeypatch):
    """A pool's blocks follow its expected need: few rounds are simulated and not used
    (they cost an expert's search each)."""
    from unosim.sim import assembled

    pools = []
    init = assembled._Pool.__init__

    def record(self, *a):
        init(self, *a)
        self.start = self.next_game
        pools.append(self)

    monkeypatch.setattr(assembled._Pool, "__init__", record)
    assembled.assembled_matches("official", ["heuristic", "random", "random", "random"], 250, 3)
    made = sum(p.next_game - p.start for p in pools)
    used = sum(p.taken for p in pools)
    assert used > 2000 and made <= 1.1 * used + assembled.FIRST_BLOCK * len(pools), (made, used)
