"""Whole matches (RULES.md sections 5 and 7): bookkeeping with hand-built round records,
hand-traced matches from chosen deals, end-to-end invariants against a pandas re-count,
determinism, a statistical check, files and the command line.

Seating (kernel/drivers/match.py): in a round dealt by player ``d`` seat ``s`` holds player
``(d + 1 + s) % n``; the first dealer is player ``n - 1``. Notation in the traces:
``T2 s1=P0`` is the 2nd turn, taken by seat 1 where player 0 sits.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import unosim
from unosim.cli.app import app
from unosim.game.cards import N_KINDS, parse_kind
from unosim.game.rules import OFFICIAL, resolve
from unosim.kernel.core import layout as L
from unosim.kernel.drivers.match import leader, next_alive, run_match, seat_players, settle
from unosim.players.seats import parse as parse_seats
from unosim.sim.match import (
    make_match_job,
    match_rounds_frame,
    matches_frame,
    read_matches,
    rounds_path,
    simulate_matches,
    write_matches,
)

# ======================================================================================
# Bookkeeping: settle() on hand-built round records
# ======================================================================================


def rules(**changes) -> np.ndarray:
    return OFFICIAL.replace(**changes).to_array()


def rec(winner=-1, points=0, hand_points=(), penalty=()) -> np.ndarray:
    """A round record (layout.C_*) with the given winner seat, points and per-seat
    hand points / penalty points; ``winner=-1`` is a truncated round."""
    row = np.zeros(L.N_COLS, dtype=np.int32)
    row[L.C_WINNER] = winner
    row[L.C_TRUNCATED] = winner < 0
    row[L.C_POINTS] = points if winner >= 0 else 0
    for s, v in enumerate(hand_points):
        row[L.C_HAND_POINTS + s] = v
    for s, v in enumerate(penalty):
        row[L.C_PENALTY_POINTS + s] = v
    return row


class Table:
    """Match state for settle(): totals, penalties, who is in, seats of the round."""

    def __init__(self, n, dealer=None, score=None, penalty=None, alive=None):
        self.n = n
        self.dealer = n - 1 if dealer is None else dealer
        self.score = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
        self.penalty = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
        self.alive = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
        self.alive[:n] = 1 if alive is None else alive
        if score is not None:
            self.score[:n] = score
        if penalty is not None:
            self.penalty[:n] = penalty
        self.seats = np.full(L.MAX_PLAYERS, -1, dtype=np.int64)

    def seat(self):
        """Seat the players for a round dealt by the current dealer: the seat map."""
        m = seat_players(self.alive, self.n, self.dealer, self.seats)
        return list(self.seats[:m])

    def round(self, rules_arr, row):
        """Book one round; returns the match winner (-1 while it goes on)."""
        n_act = len(self.seat())
        nd, w = settle(
            rules_arr,
            row,
            self.n,
            n_act,
            self.seats,
            self.dealer,
            self.score,
            self.penalty,
            self.alive,
        )
        self.dealer = nd
        return w

    @property
    def totals(self):
        return list(self.score[: self.n])


def test_seat_map_dealer_last_then_clockwise():
    t = Table(4)  # first dealer: player 3 -> seats are players 0 1 2 3 (round = game)
    assert t.seat() == [0, 1, 2, 3]
    t.dealer = 0  # the deal passed to the dealer's left: player 0 deals, 1 acts first
    assert t.seat() == [1, 2, 3, 0]
    t.alive[2] = 0  # player 2 out: 3 seats, the dealer still last
    assert t.seat() == [1, 3, 0]
    assert list(t.seats[3:]) == [-1] * (L.MAX_PLAYERS - 3)
    assert next_alive(t.alive, 4, 1) == 3  # skips player 2
    assert next_alive(t.alive, 4, 3) == 0  # wraps around


def test_settle_winner_takes_all_goes_to_the_player_in_the_winning_seat():
    t = Table(3, dealer=0)  # seats: P1 P2 P0
    # seat 2 (P0) wins 50 = hand points of seats 0 and 1 (20 + 30)
    w = t.round(rules(), rec(winner=2, points=50, hand_points=(20, 30, 0)))
    assert w == -1
    assert t.totals == [50, 0, 0]
    assert t.dealer == 1  # rotate: the dealer's left


def test_settle_each_own_negative():
    t = Table(3, dealer=0)  # seats: P1 P2 P0
    # seat 1 (P2) wins 17 = 8 + 9; the others score minus their own hand
    t.round(rules(scoring="each_own_negative"), rec(winner=1, points=17, hand_points=(8, 0, 9)))
    assert t.totals == [-9, -8, 17]


def test_settle_next_dealer_winner():
    t = Table(4)  # seats: P0 P1 P2 P3
    t.round(rules(next_dealer="winner"), rec(winner=1, points=10, hand_points=(5, 0, 5)))
    assert t.dealer == 1  # P1 won and deals
    assert t.seat() == [2, 3, 0, 1]


def test_settle_truncated_round_scores_nothing_and_the_deal_rotates():
    for nd in ("rotate", "winner"):
        t = Table(4, dealer=2, score=[10, 20, 30, 40])
        assert (
            t.round(
                rules(next_dealer=nd, scoring="each_own_negative"),
                rec(winner=-1, hand_points=(9, 9, 9, 9)),
            )
            == -1
        )
        assert t.totals == [10, 20, 30, 40]
        assert t.dealer == 3


def test_settle_target_reached_exactly_ends_one_short_does_not():
    t = Table(2, score=[450, 0])  # seats: P0 P1
    assert t.round(rules(), rec(winner=0, points=49, hand_points=(0, 49))) == -1  # 499
    # dealer P0 now, seats P1 P0: seat 0 (P1) wins 10
    assert t.round(rules(), rec(winner=0, points=10, hand_points=(0, 10))) == -1
    assert t.totals == [499, 10]
    t = Table(2, score=[450, 0])
    assert t.round(rules(), rec(winner=0, points=50, hand_points=(0, 50))) == 0  # 500
    t = Table(2, score=[0, 90])
    assert t.round(rules(target_score=100), rec(winner=1, points=30)) == 1  # 120 >= 100


def test_tie_rule_highest_total_then_lowest_index():
    # Only the round winner's total rises, so the target is first reached by one player
    # alone; leader() still settles ties (lowest player index) for completeness.
    alive = np.ones(L.MAX_PLAYERS, dtype=np.int64)
    assert leader(np.array([5, 7, 7, 1] + [0] * 6, dtype=np.int64), alive, 4) == 1
    assert leader(np.array([-5, -7, -2, -2] + [0] * 6, dtype=np.int64), alive, 4) == 2
    alive[1] = 0
    assert leader(np.array([5, 9, 7, 1] + [0] * 6, dtype=np.int64), alive, 4) == 2


def test_elimination_sequence():
    r = rules(penalty_elimination=True, elimination_score=100)
    t = Table(4)  # dealer P3; seats P0 P1 P2 P3
    # round 0: P1 penalised 60 (seat 1), P0 wins 500 points: the target does not end an
    # elimination match
    assert t.round(r, rec(winner=0, points=500, penalty=(0, 60, 0, 0))) == -1
    assert list(t.penalty[:4]) == [0, 60, 0, 0] and t.totals == [500, 0, 0, 0]
    assert t.dealer == 0
    # round 1: dealer P0; seats P1 P2 P3 P0. P1 (seat 0) +40 = 100 -> out
    assert t.seat() == [1, 2, 3, 0]
    assert t.round(r, rec(winner=1, points=5, penalty=(40, 0, 0, 0))) == -1
    assert list(t.alive[:4]) == [1, 0, 1, 1]
    assert t.dealer == 2  # the deal passes on, P1 is skipped
    # round 2: dealer P2; 3 seats P3 P0 P2. P3 (seat 0) out
    assert t.seat() == [3, 0, 2]
    assert t.round(r, rec(winner=2, points=5, penalty=(150, 0, 0))) == -1
    assert list(t.alive[:4]) == [1, 0, 1, 0]
    assert t.dealer == 0
    # round 3: dealer P0; seats P2 P0 (2 players). P0 (seat 1) out: P2 is left and wins
    assert t.seat() == [2, 0]
    assert t.round(r, rec(winner=0, points=5, penalty=(0, 120))) == 2
    assert list(t.penalty[:4]) == [120, 100, 0, 150]


def test_elimination_winner_who_is_out_does_not_deal():
    r = rules(penalty_elimination=True, elimination_score=100, next_dealer="winner")
    t = Table(3)  # seats P0 P1 P2
    # P1 wins the round, but a caught bluff earlier put them at 100: out; the deal goes
    # to the next player still in after P1
    assert t.round(r, rec(winner=1, points=5, penalty=(0, 100, 0))) == -1
    assert t.dealer == 2 and t.seat() == [0, 2]


def test_elimination_all_out_at_once_lowest_penalty_total_wins():
    r = rules(penalty_elimination=True, elimination_score=100)
    t = Table(3, dealer=2, penalty=[90, 0, 95], alive=[1, 0, 1])  # seats P0 P2
    # both remaining players pass 100 in the same round: P2 ends on 101, P0 on 110
    assert t.round(r, rec(winner=-1, penalty=(20, 6))) == 2
    t = Table(2, penalty=[90, 95])
    assert t.round(r, rec(winner=-1, penalty=(15, 10))) == 0  # 105 each: lowest index


# ======================================================================================
# Hand-traced matches: every round dealt from a chosen pile
# ======================================================================================


def cards(text: str) -> list[int]:
    return [parse_kind(t) for t in text.split()]


def scripted_match(rounds, strategies="random", seed=0, preset="official", **changes):
    """Play one match whose round ``r`` is dealt as ``rounds[r % len(rounds)]``:
    ``(hands by seat, first card, top of the draw pile)``; the rest of the standard deck
    lies under the given draw cards. Returns (match row dict, rounds frame)."""
    n = len(rounds[0][0])
    size = len(cards(rounds[0][0][0]))
    rs = resolve(preset).replace(hand_size=size, **changes)
    deck = rs.deck_counts()
    orders = []
    for hands, first, draw in rounds:
        seq = [k for h in hands for k in cards(h)] + cards(first) + cards(draw)
        rest = deck.astype(np.int64)
        for k in seq:
            rest[k] -= 1
        assert rest.min() >= 0, "more copies than the deck holds"
        seq += [k for k in range(N_KINDS) for _ in range(rest[k])]
        orders.append(seq[::-1])  # the kernel deals from the end
    sid, sp, _ = parse_seats(strategies, n)
    mrow, heads, recs = run_match(
        rs.to_array(),
        sid,
        sp,
        deck,
        rs.points_table(),
        n,
        seed,
        0,
        np.array(orders, dtype=np.int8),
        1,
    )
    m = matches_frame(mrow[None, :], n, 0).iloc[0].to_dict()
    return m, match_rounds_frame(heads, recs, n, 0)


def col(df, name):
    return [int(v) for v in df[name]]


TWO_PLAYER_ROUNDS = [
    # round 0, dealer P1, seats P0 P1. T1 s0=P0: R+2 ok (red) -> last card: the round
    # ends after s1 draws the pending 2 (B7 Y9), which count: 5 + 7 + 9 = 21 to P0
    (["R+2", "G5"], "R3", "B7 Y9"),
    # round 1, dealer P0 (rotated), seats P1 P0. T1 s0=P1: B1 ok -> wins G8 = 8
    (["B1", "G8"], "B2", ""),
    # round 2, dealer P1, seats P0 P1. T1 s0=P0: Y4 ok -> wins R9 = 9: P0 at 30
    (["Y4", "R9"], "Y6", ""),
]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_match_winner_takes_all_rotation_last_card_draw_two(seed):
    m, r = scripted_match(TWO_PLAYER_ROUNDS, seed=seed, target_score=30)
    assert col(r, "dealer") == [1, 0, 1]
    assert col(r, "player_0") == [0, 1, 0] and col(r, "player_1") == [1, 0, 1]
    assert col(r, "winner") == [0, 0, 0]  # seat 0 wins every round...
    assert col(r, "winner_player") == [0, 1, 0]  # ...which is a different player
    assert col(r, "points") == [21, 8, 9]
    assert col(r, "cards_drawn") == [2, 0, 0] and col(r, "max_stack") == [2, 0, 0]
    assert col(r, "hand_size_1") == [3, 1, 1]
    # P0: 21 + 9 = 30 >= target 30 (reached exactly ends the match)
    assert m["winner"] == 0 and m["rounds"] == 3 and not m["truncated"]
    assert (m["score_0"], m["score_1"]) == (30, 8)


def test_match_target_not_reached_goes_on():
    # target 31: P0 stops at 30; the deals repeat: round 3 (dealer P0, seats P1 P0) gives
    # P1 the R+2: 21 -> P1 at 29; round 4 (dealer P1, seats P0 P1): P0 +8 = 38 >= 31
    m, r = scripted_match(TWO_PLAYER_ROUNDS, target_score=31)
    assert col(r, "dealer") == [1, 0, 1, 0, 1]
    assert col(r, "winner_player") == [0, 1, 0, 1, 0]
    assert col(r, "points") == [21, 8, 9, 21, 8]
    assert m["winner"] == 0 and m["rounds"] == 5
    assert (m["score_0"], m["score_1"]) == (38, 29)


@pytest.mark.parametrize("seed", [0, 3])
def test_match_each_own_negative_winner_deals(seed):
    rounds = [
        # round 0, dealer P2, seats P0 P1 P2. T1 s0=P0: G5 no on R2, draws Y3 no.
        # T2 s1=P1: R7 ok -> wins 17 = (G5 5 + Y3 3) + B9 9. P0 -8, P2 -9.
        (["G5", "R7", "B9"], "R2", "Y3"),
        # round 1, the winner P1 deals: seats P2 P0 P1. T1 s0=P2: Y1 ok -> wins
        # 10 = G4 4 + R6 6. P2 +10 = 1, P0 -4 = -12, P1 -6 = 11.
        (["Y1", "G4", "R6"], "Y8", ""),
        # round 2, P2 deals: seats P0 P1 P2. T1 s0=P0: G9 no on R4, draws Y2 no.
        # T2 s1=P1: R+2 ok -> last card; s2=P2 draws B7 G8 first. P2 holds
        # Y5 B7 G8 = 20, P0 G9 Y2 = 11: P1 +31 = 42 >= 25. P0 -23, P2 -19.
        (["G9", "R+2", "Y5"], "R4", "Y2 B7 G8"),
    ]
    m, r = scripted_match(
        rounds, seed=seed, scoring="each_own_negative", next_dealer="winner", target_score=25
    )
    assert col(r, "dealer") == [2, 1, 2]
    assert col(r, "winner_player") == [1, 2, 1]
    assert col(r, "points") == [17, 10, 31]
    assert col(r, "player_0") == [0, 2, 0]
    assert m["winner"] == 1 and m["rounds"] == 3
    assert (m["score_0"], m["score_1"], m["score_2"]) == (-23, 42, -19)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_match_elimination_two_players(seed):
    # dealer P1, seats P0 P1; P0 always forgets UNO (always caught); out at 5.
    # T1 s0=P0: R5 ok, G9 no -> plays R5, forgets with G9 left: penalty 9 (the hand at
    #           that moment), draws B3 B4.
    # T2 s1=P1: R2 / R7 both ok -> plays one, calls UNO.
    # T3 s0=P0: G9 B3 B4 no on red -> draws B8, no.
    # T4 s1=P1: the other red -> wins 9 + 3 + 4 + 8 = 24.
    # P0 is out (9 >= 5): P1 is the last player left and wins after one round.
    m, r = scripted_match(
        [(["R5 G9", "R2 R7"], "R1", "B3 B4 B8")],
        seed=seed,
        strategies="random:forget_uno=1,random",
        penalty_elimination=True,
        elimination_score=5,
    )
    assert col(r, "uno_penalties") == [1] and col(r, "penalty_points_0") == [9]
    assert col(r, "points") == [24] and col(r, "winner_player") == [1]
    assert m["winner"] == 1 and m["rounds"] == 1 and not m["truncated"]
    assert (m["penalty_0"], m["penalty_1"]) == (9, 0)
    assert (m["score_0"], m["score_1"]) == (0, 24)


def test_match_elimination_three_players_then_max_rounds():
    rounds = [
        # round 0, dealer P2, seats P0 P1 P2. P0 forgets UNO, the others never do.
        # T1 s0=P0: R5 ok -> G9 left, forgets: penalty 9; draws B3 B4.
        # T2 s1=P1: R2 ok (Y7 no).   T3 s2=P2: R6 ok (Y6 no).
        # T4 s0=P0: G9 B3 B4 no on R6 -> draws G1, no.  T5 s1=P1: Y7 no -> draws B2, no.
        # T6 s2=P2: Y6 ok (rank 6) -> wins (9+3+4+1) + (7+2) = 26.
        (["R5 G9", "R2 Y7", "R6 Y6"], "R1", "B3 B4 G1 B2"),
        # round 1, dealer P0, seats P1 P2 P0.
        # T1 s0=P1: G2 ok -> R4 left.  T2 s1=P2: G3 ok -> Y8 left.
        # T3 s2=P0: G4 ok -> B7 left, forgets: penalty 7 -> 16 >= 10; draws Y1 Y2.
        # T4 s0=P1: R4 ok (rank 4) -> wins 8 + (7+1+2) = 18. P0 is out after the round.
        (["G2 R4", "G3 Y8", "G4 B7"], "G1", "Y1 Y2"),
        # round 2, the deal passes from P0 to P1: 2 players, seats P2 P1. Nobody else
        # forgets UNO, so the match cannot end: max_rounds = 3 stops it.
        (["B5 B6", "Y3 Y4"], "G7", ""),
    ]
    m, r = scripted_match(
        rounds,
        strategies="random:forget_uno=1,random,random",
        penalty_elimination=True,
        elimination_score=10,
        max_rounds=3,
    )
    assert col(r, "players") == [3, 3, 2]
    assert col(r, "dealer") == [2, 0, 1]
    assert col(r, "player_0") == [0, 1, 2] and col(r, "player_1") == [1, 2, 1]
    assert col(r, "player_2") == [2, 0, -1]
    assert col(r, "winner_player")[:2] == [2, 1] and col(r, "points")[:2] == [26, 18]
    assert col(r, "penalty_points_0")[:2] == [9, 0] and col(r, "penalty_points_2")[:2] == [0, 7]
    assert m["truncated"] and m["winner"] == -1 and m["rounds"] == 3
    assert (m["penalty_0"], m["penalty_1"], m["penalty_2"]) == (16, 0, 0)
    assert m["score_0"] == 0


# ======================================================================================
# End to end: unscripted matches against a re-count in pandas
# ======================================================================================


def recount(matches: pd.DataFrame, rounds: pd.DataFrame, rs, n: int) -> None:
    """Replay the bookkeeping of RULES.md 5 and 7 from the rounds table, in plain Python,
    and compare with the kernel's seating, dealers, totals, winners and lengths."""
    target, elim = rs.target_score, rs.elimination_score
    by_match = dict(tuple(rounds.groupby("match", sort=True)))
    for mrow in matches.itertuples():
        rr = by_match[mrow.match]
        assert list(rr["round"]) == list(range(len(rr))) and len(rr) == mrow.rounds
        score, pen, alive = [0] * n, [0] * n, [True] * n
        dealer, winner = n - 1, -1
        for row in rr.itertuples():
            ins = [p for p in range(n) if alive[p]]
            seats = [ins[(ins.index(dealer) + 1 + s) % len(ins)] for s in range(len(ins))]
            assert row.dealer == dealer and row.players == len(ins)
            assert [getattr(row, f"player_{s}") for s in range(n)] == seats + [-1] * (n - len(ins))
            won = not row.truncated
            wp = seats[row.winner] if won else -1
            assert row.winner_player == wp
            if won:
                score[wp] += row.points
                assert row.points == sum(
                    getattr(row, f"hand_points_{s}") for s in range(len(seats)) if s != row.winner
                )
                if rs.scoring == "each_own_negative":
                    for s, p in enumerate(seats):
                        if s != row.winner:
                            score[p] -= getattr(row, f"hand_points_{s}")
            if rs.penalty_elimination:
                for s, p in enumerate(seats):
                    pen[p] += getattr(row, f"penalty_points_{s}")
                    if pen[p] >= elim:
                        alive[p] = False
                left = [p for p in seats if alive[p]]
                if len(left) == 1:
                    winner = left[0]
                elif not left:
                    winner = min(seats, key=lambda p: (pen[p], p))
            elif max(score) >= target:
                winner = max(range(n), key=lambda p: (score[p], -p))
            if winner >= 0:
                assert row.Index == rr.index[-1], "the match went on after its end"
                break
            if rs.next_dealer == "winner" and won and alive[wp]:
                dealer = wp
            else:  # rotate (or the winner is out): the next player in after them
                start = wp if (rs.next_dealer == "winner" and won) else dealer
                dealer = next(p % n for p in range(start + 1, start + n + 1) if alive[p % n])
        assert mrow.winner == winner
        assert mrow.truncated == (winner < 0)
        if mrow.truncated:
            assert mrow.rounds == rs.max_rounds
        assert [getattr(mrow, f"score_{p}") for p in range(n)] == score
        assert [getattr(mrow, f"penalty_{p}") for p in range(n)] == pen


MATCH_RULES = [
    dict(),
    dict(scoring="each_own_negative", next_dealer="winner", target_score=300),
    dict(next_dealer="winner", target_score=150),
]


@pytest.mark.parametrize("changes", MATCH_RULES)
def test_matches_recount(changes):
    rs = OFFICIAL.replace(**changes)
    m, r = simulate_matches(rs, 150, 4, "heuristic,random,heuristic,random", seed=5)
    assert len(m) == 150 and not m["truncated"].any()
    recount(m, r, rs, 4)


def test_elimination_matches_recount():
    rs = OFFICIAL.replace(penalty_elimination=True, elimination_score=150, max_rounds=200)
    strategies = (
        "random:forget_uno=0.5,heuristic:bluff=0.5;forget_uno=0.2,"
        "random:forget_uno=0.3,heuristic:forget_uno=0.4,random:forget_uno=0.2"
    )
    m, r = simulate_matches(rs, 120, 5, strategies, seed=3)
    assert (~m["truncated"]).sum() > 100  # penalties happen: most matches finish
    assert (r["players"] < 5).any()
    recount(m, r, rs, 5)


def test_elimination_without_penalties_stops_at_max_rounds():
    # random never forgets UNO nor bluffs: nobody is ever eliminated
    rs = OFFICIAL.replace(penalty_elimination=True, max_rounds=7)
    m, r = simulate_matches(rs, 40, 3, "random", seed=1)
    assert m["truncated"].all() and (m["winner"] == -1).all() and (m["rounds"] == 7).all()
    assert len(r) == 40 * 7
    recount(m, r, rs, 3)


def test_match_of_truncated_rounds_is_bounded_and_flagged():
    # max_turns = 1: no round can finish, so no match can; max_rounds bounds it
    rs = OFFICIAL.replace(max_turns=1, max_rounds=12)
    m, r = simulate_matches(rs, 30, 4, "random", seed=2)
    assert r["truncated"].all() and (r["points"] == 0).all()
    assert m["truncated"].all() and (m["rounds"] == 12).all() and (m["winner"] == -1).all()
    assert (m[[f"score_{p}" for p in range(4)]] == 0).all().all()
    recount(m, r, rs, 4)


def test_round_zero_is_the_single_round_game():
    # first dealer is player n-1: round 0 of match m is game m of simulate()
    strategies = "heuristic,random,random:forget_uno=0.3,heuristic:bluff=0.2"
    m, r = simulate_matches("official", 300, 4, strategies, seed=9)
    g = unosim.simulate("official", 300, 4, strategies, seed=9)
    r0 = r[r["round"] == 0].reset_index(drop=True)
    cols = [c for c in g.columns if c != "game"]
    pd.testing.assert_frame_equal(r0[cols], g[cols])


# ======================================================================================
# Determinism, statistics
# ======================================================================================

DET = dict(
    rules="official",
    n_matches=700,
    n_players=4,
    strategies="random,heuristic,random:forget_uno=0.2,heuristic:bluff=0.3",
    seed=11,
    house="stacking=progressive,jump_in=true,seven_zero=true",
)


def test_matches_deterministic_across_threads_and_chunks():
    m1, r1 = simulate_matches(**DET, threads=1)
    for threads, chunk in [(2, 256), (2, 7), (3, 1), (1, 1000)]:
        m2, r2 = simulate_matches(**DET, threads=threads, chunk=chunk)
        pd.testing.assert_frame_equal(m1, m2)
        pd.testing.assert_frame_equal(r1, r2)


def test_a_match_depends_only_on_seed_and_index():
    m1, r1 = simulate_matches(**DET, threads=2)
    m2, r2 = simulate_matches(**{**DET, "n_matches": 50}, first_match=333, threads=2)
    pd.testing.assert_frame_equal(m1.iloc[333:383].reset_index(drop=True), m2)
    sub = r1[r1["match"].between(333, 382)].reset_index(drop=True)
    pd.testing.assert_frame_equal(sub, r2)
    m3, _ = simulate_matches(**{**DET, "seed": 12})
    assert not m3["rounds"].equals(m1["rounds"])


def test_identical_players_win_equally_while_seats_do_not():
    # With identical strategies and a rotating deal, every player wins 1/n of matches
    # (5 sigma), although seats differ: seat 0, first to act, wins more rounds than the
    # dealer's seat (the known seat effect), which the rotation spreads over players.
    n, k = 4, 20_000
    m, r = simulate_matches("official", k, n, "random", seed=2024)
    wins = np.bincount(m["winner"], minlength=n)
    se = np.sqrt(k * (1 / n) * (1 - 1 / n))
    assert np.all(np.abs(wins - k / n) < 5 * se), wins
    seat = np.bincount(r["winner"][~r["truncated"]], minlength=n) / len(r)
    se_seat = np.sqrt(2 * 0.25 * 0.75 / len(r))
    assert (seat[0] - seat[n - 1]) / se_seat > 4, seat


# ======================================================================================
# API, files, command line
# ======================================================================================


def test_api_manifest_and_parquet_round_trip(tmp_path):
    m, r = unosim.simulate_matches("pokemon", 60, 3, "heuristic,random,random", seed=4)
    man = m.attrs["manifest"]
    assert man["matches"] == 60 and man["seed"] == 4 and man["table"] == "matches"
    assert man["strategies"] == ["heuristic", "random", "random"]
    assert man["strategies_by"] == "player" and "games" not in man
    assert r.attrs["manifest"]["table"] == "rounds"
    out = tmp_path / "m.parquet"
    paths = write_matches(m, r, out)
    assert paths == (out, tmp_path / "m.rounds.parquet")
    m2, r2 = read_matches(out)
    pd.testing.assert_frame_equal(m, m2)
    pd.testing.assert_frame_equal(r, r2)
    assert m2.attrs["manifest"]["rules_hash"] == resolve("pokemon").hash()
    assert r2.attrs["manifest"]["table"] == "rounds"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.parquet", "m.rounds.parquet"]
    assert rounds_path("x/y") == rounds_path("x/y.parquet").with_name("y.rounds.parquet")


def test_api_validation():
    with pytest.raises(ValueError, match="matches must"):
        make_match_job("official", 0)
    with pytest.raises(ValueError, match="strategies given"):
        simulate_matches("official", 5, 4, "random,random")
    with pytest.raises(ValueError, match="threads"):
        simulate_matches("official", 5, threads=0)


def test_cli_match(tmp_path):
    out = tmp_path / "res" / "matches.parquet"
    res = CliRunner().invoke(
        app,
        [
            "match",
            "--players",
            "3",
            "--strategies",
            "heuristic,random,random",
            "--matches",
            "300",
            "--seed",
            "7",
            "--out",
            str(out),
        ],
    )
    assert res.exit_code == 0, res.output
    text = res.output
    for needle in (
        "match win rates",
        "player 0",
        "player 2",
        "rounds/match",
        "median",
        "90th percentile",
        "points/round",
        "truncated",
        "wrote",
    ):
        assert needle in text, needle
    m, r = read_matches(out)
    assert len(m) == 300 and m.attrs["manifest"]["seed"] == 7
    rate0 = (m["winner"] == 0).mean()
    assert f"player 0  {rate0:.4f}" in text
    assert f"median {np.median(m['rounds']):g}" in text


def test_cli_match_bad_input_writes_nothing(tmp_path):
    out = tmp_path / "m.parquet"
    res = CliRunner().invoke(app, ["match", "--matches", "0", "--out", str(out)])
    assert res.exit_code == 2 and "matches must" in res.output
    res = CliRunner().invoke(app, ["match", "--strategies", "nope", "--out", str(out)])
    assert res.exit_code == 2
    assert not out.exists()
