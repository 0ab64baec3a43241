"""Matches assembled from independent single rounds (RULES.md section 7), for players
the match kernel cannot run: the ``expert`` searches only in single-round runs.

Why the assembly is exact (in distribution): in ``kernel.drivers.match`` a round depends on the
rest of its match only through its seating (who deals, hence who sits where), because
round ``r`` of match ``m`` draws from its own streams ``(seed, m, r)`` and no strategy
reads the scores (a decision sees its own hand, the table and the rules: ``kernel/
decide.py``). So, given the dealer, a round's record is an independent draw from the
single-round distribution of that seating, and a match is ``kernel.drivers.match.settle`` applied
round after round. Here every round is a fresh game of a single-round run whose seats
hold the players in the dealer's order (seat ``s``: the ``(s + 1)``-th player after the
dealer, as ``kernel.drivers.match`` seats them), each game used once, and ``settle`` books it.
Matches built so have the distribution of ``kernel.drivers.match``'s (not its games): the test
``tests/test_assembled.py`` compares the two for players both can run. Elimination
(``penalty_elimination``) changes the number of seats and is not assembled.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..game.rules import resolve
from ..kernel.core import layout as L
from .engine import seat_players, settle
from .simulate import make_job, run_block

BLOCK = 512  # rounds simulated at a time per seating, at most
FIRST_BLOCK = 16  # the first block; each next one twice as large, up to BLOCK
SPAN = 1 << 36  # games of one seating's run: seatings never share a deal


class _Pool:
    """Fresh rounds of one seating, games ``first, first + 1, ..`` in order, simulated
    in blocks of at most ``FIRST_BLOCK`` doubling up to ``BLOCK``, and no more than the
    rounds the pool is still expected to give (a game's round depends only on its index,
    so the block sizes change no match; they only spare expert rounds that the matches
    would not use)."""

    def __init__(self, rs, labels, seed, first):
        self.job = make_job(rs, 1, len(labels), list(labels), seed)
        self.next_game = first
        self.rows = np.zeros((0, L.N_COLS), np.int32)
        self.used = 0
        self.taken = 0  # rounds given so far
        self.block = FIRST_BLOCK

    def take(self, want: int) -> np.ndarray:
        """The next round; a refill simulates about ``want`` rounds (the expected rest
        of this pool's need), within the doubling cap and at least ``FIRST_BLOCK``."""
        if self.used == len(self.rows):
            size = min(self.block, max(FIRST_BLOCK, int(want)))
            self.rows = run_block(self.job, self.next_game, size)
            self.next_game += size
            self.block = min(BLOCK, 2 * self.block)
            self.used = 0
        self.used += 1
        self.taken += 1
        return self.rows[self.used - 1]


def assembled_matches(
    rules, strategies: list[str], n_matches: int, seed: int, first: int = 0, house=None
) -> pd.DataFrame:
    """``n_matches`` matches of ``strategies`` (one per player, as ``unosim.sim.match``),
    assembled from single rounds (the seating dealt by player ``d`` plays games
    ``first + d * SPAN ..``, so no two rounds share a deal).

    Returns one row per match: ``winner`` (player, -1 when truncated), ``rounds``,
    ``score_{p}``."""
    rs = resolve(rules, house)
    if rs.penalty_elimination:
        raise ValueError("assembled matches do not support penalty_elimination")
    n = len(strategies)
    r = rs.to_array()
    alive = np.zeros(L.MAX_PLAYERS, np.int64)
    alive[:n] = 1
    seat_player = np.full(L.MAX_PLAYERS, -1, np.int64)
    pools: dict[int, _Pool] = {}
    rows = []
    for m in range(n_matches):
        score = np.zeros(L.MAX_PLAYERS, np.int64)
        penalty = np.zeros(L.MAX_PLAYERS, np.int64)
        dealer, winner, rounds = n - 1, -1, 0
        while rounds < rs.max_rounds:
            seat_players(alive, n, dealer, seat_player)
            if dealer not in pools:
                labels = [strategies[seat_player[s]] for s in range(n)]
                pools[dealer] = _Pool(rs, labels, seed, first + dealer * SPAN)
            pool = pools[dealer]
            # the rounds this pool should still give: its use per match so far times
            # the matches left, with a margin (before any match ends: FIRST_BLOCK)
            want = math.ceil(1.1 * pool.taken * (n_matches - m) / m) + 1 if m else FIRST_BLOCK
            row = pool.take(want)
            rounds += 1
            dealer, winner = settle(r, row, n, n, seat_player, dealer, score, penalty, alive)
            if winner >= 0:
                break
        rows.append(
            {
                "winner": int(winner),
                "rounds": rounds,
                **{f"score_{p}": int(score[p]) for p in range(n)},
            }
        )
    return pd.DataFrame(rows)
