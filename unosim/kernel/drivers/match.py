"""Whole matches (RULES.md section 7): rounds of the round kernel until a player's total
reaches ``target_score``, or, under ``penalty_elimination``, until one player is left.

Players keep their strategy while their seat changes: in every round seat ``n_act - 1``
is the dealer and seat ``s`` the ``(s + 1)``-th player still in after the dealer, in
table order (players ``0 .. n-1`` sit clockwise in index order, so the deal passing "to
the dealer's left" is ``dealer + 1``). The first dealer is player ``n - 1``: round 0 of
match ``m`` is exactly game ``m`` of a single-round run with the same seed.

Round ``r`` of match ``m`` draws from the streams of key ``(seed, m, r)`` (``rng.py``),
so a match depends only on ``(seed, m)``: any chunking or thread count gives the same
rows.

Bookkeeping (:func:`settle`) is separate from round play so it can be tested with
hand-built round records. Readings chosen here (see also ``unosim/sim/match.py``):

* A truncated round (``max_turns``) scores nothing; under ``next_dealer = winner`` the
  deal then rotates. Its penalties still count: they happened.
* The match winner is the highest total once some total reaches ``target_score``;
  ties go to the lowest player index. (Only the round winner's total can rise, so when
  the target is first reached it is reached by one player alone: the tie rule is there
  for completeness.)
* ``penalty_elimination``: the target does not end the match; eliminations take effect
  at the end of the round in which a penalty total reaches ``elimination_score``; the
  following rounds are dealt to the players still in. If the last players are all
  eliminated in the same round, the one with the lowest penalty total wins (ties: the
  lowest player index).
* A match that has not ended after ``max_rounds`` rounds stops, flagged truncated,
  with no winner (-1).
"""

import numpy as np

from ..compile.jit import called, jitted
from ..core.layout import (
    C_HAND_POINTS,
    C_PENALTY_POINTS,
    C_POINTS,
    C_TRUNCATED,
    C_WINNER,
    DEALER_WINNER,
    MAX_PLAYERS,
    N_COLS,
    N_PARAMS,
    R_ELIMINATION_SCORE,
    R_MAX_ROUNDS,
    R_NEXT_DEALER,
    R_PENALTY_ELIMINATION,
    R_SCORING,
    R_TARGET_SCORE,
    S_SEAT0,
    SCORING_EACH_OWN_NEGATIVE,
)
from ..core.rng import seed_streams
from ..core.state import Table, new_round
from .batch import deck_order, play_and_record

# -- one row per match: int32[N_MCOLS] -------------------------------------------------
M_WINNER = 0  # player index, -1 when truncated
M_ROUNDS = 1  # rounds played
M_TRUNCATED = 2  # 1: stopped at max_rounds
M_SCORE = 3  # + player: final total
M_PENALTY = M_SCORE + MAX_PLAYERS  # + player: final penalty total
N_MCOLS = M_PENALTY + MAX_PLAYERS

# -- one row per round of a match: int32[N_RH] head, beside the round record int32[N_COLS]
RH_MATCH = 0  # match index minus the first match of the call
RH_ROUND = 1  # round index inside the match (its RNG key)
RH_DEALER = 2  # player who deals (sits in seat RH_PLAYERS - 1)
RH_PLAYERS = 3  # players in the round (fewer than n after eliminations)
RH_WINNER = 4  # player who won the round, -1 when truncated
RH_PLAYER = 5  # + seat: the player sitting there, -1 for an empty seat
N_RH = RH_PLAYER + MAX_PLAYERS


@called
def next_alive(alive, n, p):
    """The first player still in after player ``p`` in table order (-1 if none)."""
    for _ in range(n):
        p += 1
        if p == n:
            p = 0
        if alive[p] != 0:
            return p
    return -1


@called
def seat_players(alive, n, dealer, seat_player):
    """Seat the players in for a round dealt by ``dealer``: seat ``s`` is the
    ``(s + 1)``-th player in after the dealer, the dealer takes the last seat.

    Parameters
    ----------
    alive : int64[MAX_PLAYERS]
        1 for each player still in.
    n : int
        Players in the match.
    dealer : int
        The player who deals (must be in).
    seat_player : int64[MAX_PLAYERS]
        Filled in place: the player in each seat, -1 for unused seats.

    Returns
    -------
    int
        The number of players in.
    """
    m = 0
    p = dealer
    for _ in range(n):
        p += 1
        if p == n:
            p = 0
        if alive[p] != 0:
            seat_player[m] = p
            m += 1
    for s in range(m, MAX_PLAYERS):
        seat_player[s] = -1
    return m


@called
def leader(score, alive, n):
    """The player in with the highest total; ties go to the lowest index."""
    best = -1
    for p in range(n):
        if alive[p] != 0 and (best < 0 or score[p] > score[best]):
            best = p
    return best


@called
def settle(rules, row, n, n_act, seat_player, dealer, score, penalty, alive):
    """Book one finished round into the match (RULES.md sections 5 and 7).

    Parameters
    ----------
    rules : int64[N_RULES]
        The rules (``layout.R_*``).
    row : int32[N_COLS]
        The round's record (``round.record``), per seat.
    n : int
        Players in the match.
    n_act : int
        Players in the round.
    seat_player : int64[MAX_PLAYERS]
        The player in each seat of the round.
    dealer : int
        The player who dealt the round.
    score, penalty : int64[MAX_PLAYERS]
        Running totals per player, updated in place.
    alive : int64[MAX_PLAYERS]
        1 for players still in, updated in place.

    Returns
    -------
    (next_dealer, winner) : (int, int)
        The player who deals next, and the match winner or -1 while the match goes on.
    """
    ws = row[C_WINNER]
    won = row[C_TRUNCATED] == 0
    wp = -1
    if won:  # 5: a truncated round scores nothing
        wp = seat_player[ws]
        score[wp] += row[C_POINTS]
        if (
            rules[R_SCORING] == SCORING_EACH_OWN_NEGATIVE
        ):  # each_own_negative: the others lose their own hand
            for s in range(n_act):
                if s != ws:
                    score[seat_player[s]] -= row[C_HAND_POINTS + s]
    if rules[R_PENALTY_ELIMINATION] == 1:  # 7: penalty totals, elimination, last player left
        for s in range(n_act):
            p = seat_player[s]
            penalty[p] += row[C_PENALTY_POINTS + s]
        left = 0
        last = -1
        for s in range(n_act):
            p = seat_player[s]
            if penalty[p] >= rules[R_ELIMINATION_SCORE]:
                alive[p] = 0
            else:
                left += 1
                last = p
        if left == 0:  # all out at once: the lowest penalty total wins
            best = -1
            for s in range(n_act):
                p = seat_player[s]
                if (
                    best < 0
                    or penalty[p] < penalty[best]
                    or (penalty[p] == penalty[best] and p < best)
                ):
                    best = p
            return -1, best
        if left == 1:
            return -1, last
    if rules[R_NEXT_DEALER] == DEALER_WINNER and won:
        nd = wp if alive[wp] != 0 else next_alive(alive, n, wp)
    else:  # rotate: the deal passes to the dealer's left
        nd = next_alive(alive, n, dealer)
    if rules[R_PENALTY_ELIMINATION] == 0:
        for p in range(n):
            if score[p] >= rules[R_TARGET_SCORE]:
                return nd, leader(score, alive, n)
    return nd, -1


@jitted(nogil=True)
def _grow(a):
    b = np.zeros((2 * a.shape[0], a.shape[1]), dtype=a.dtype)
    b[: a.shape[0]] = a
    return b


@jitted(nogil=True, inline="always")
def _play_match(
    players,
    seats,
    rd,
    n,
    seed,
    m,
    orders,
    scripted,
    local,
    mrow,
    rhead,
    rrec,
    nr,
    seat_player,
    score,
    penalty,
    alive,
):
    """Play match ``m`` into ``mrow`` and round rows ``nr ..`` of ``rhead``/``rrec``
    (grown by doubling when full). Returns (rhead, rrec, nr).

    ``players``: the ``state.Table`` with each player's strategy; ``seats``: the same
    rules and deck, its strategies filled in per round for the players in each seat."""
    rules = players.rules
    for p in range(MAX_PLAYERS):
        score[p] = 0
        penalty[p] = 0
        alive[p] = 1 if p < n else 0
    n_orders = orders.shape[0]
    dealer = n - 1
    winner = -1
    r = np.int64(0)  # not a literal: seed_streams compiled twice (jit.py)
    while r < rules[R_MAX_ROUNDS]:
        n_act = seat_players(alive, n, dealer, seat_player)
        for s in range(n_act):  # each player keeps their strategy in any seat
            p = seat_player[s]
            seats.strategy_ids[s] = players.strategy_ids[p]
            for j in range(N_PARAMS):
                seats.strategy_params[s, j] = players.strategy_params[p, j]
        seed_streams(rd.streams, seed, m, r, S_SEAT0 + n_act)
        if nr == rhead.shape[0]:
            rhead = _grow(rhead)
            rrec = _grow(rrec)
        row = rrec[nr]
        play_and_record(seats, rd, n_act, orders[r % n_orders], scripted, row)
        head = rhead[nr]
        head[RH_MATCH] = local
        head[RH_ROUND] = r
        head[RH_DEALER] = dealer
        head[RH_PLAYERS] = n_act
        head[RH_WINNER] = seat_player[row[C_WINNER]] if row[C_TRUNCATED] == 0 else -1
        for s in range(MAX_PLAYERS):
            head[RH_PLAYER + s] = seat_player[s]
        nr += 1
        r += 1
        dealer, winner = settle(rules, row, n, n_act, seat_player, dealer, score, penalty, alive)
        if winner >= 0:
            break
    mrow[M_WINNER] = winner
    mrow[M_ROUNDS] = r
    mrow[M_TRUNCATED] = 1 if winner < 0 else 0
    for p in range(n):
        mrow[M_SCORE + p] = score[p]
        mrow[M_PENALTY + p] = penalty[p]
    return rhead, rrec, nr


@jitted(nogil=True, inline="always")
def _matches(rules, strategy_ids, strategy_params, deck, points, n, seed, lo, hi, orders, scripted):
    zero = np.int64(0)  # not the literal 0: see ``jit.py``
    rd = new_round(orders.shape[1], zero)
    players = Table(rules, strategy_ids, strategy_params, deck, points, None)
    seats = Table(
        rules,
        np.zeros(MAX_PLAYERS, dtype=np.int64),
        np.zeros((MAX_PLAYERS, N_PARAMS), dtype=np.float64),
        deck,
        points,
        None,
    )
    seat_player = np.full(MAX_PLAYERS, -1, dtype=np.int64)
    score = np.zeros(MAX_PLAYERS, dtype=np.int64)
    penalty = np.zeros(MAX_PLAYERS, dtype=np.int64)
    alive = np.zeros(MAX_PLAYERS, dtype=np.int64)
    count = hi - lo
    mout = np.zeros((count, N_MCOLS), dtype=np.int64)  # totals can pass 2**31
    cap = 16 * count if count > 0 else 16
    rhead = np.zeros((cap, N_RH), dtype=np.int32)
    rrec = np.zeros((cap, N_COLS), dtype=np.int32)
    nr = zero
    for i in range(count):
        rhead, rrec, nr = _play_match(
            players,
            seats,
            rd,
            n,
            seed,
            lo + i,
            orders,
            scripted,
            i,
            mout[i],
            rhead,
            rrec,
            nr,
            seat_player,
            score,
            penalty,
            alive,
        )
    return mout, rhead[:nr].copy(), rrec[:nr].copy()


@jitted(nogil=True)
def run_matches(rules, strategy_ids, strategy_params, deck, points, n, seed, lo, hi):
    """Play matches ``lo .. hi - 1`` (their indices seed them), releasing the GIL.

    Parameters
    ----------
    rules : int64[N_RULES]
        The rules (``layout.R_*``, ``RuleSet.to_array``).
    strategy_ids : int64[MAX_PLAYERS]
        Each PLAYER's strategy id (not each seat's: seats change between rounds).
    strategy_params : float64[MAX_PLAYERS, N_PARAMS]
        Each player's strategy parameters (``layout.P_*``).
    deck : int16[N_KINDS]
        Copies of each kind in the deck.
    points : int16[N_KINDS]
        Points of each kind (RULES.md section 5).
    n : int
        Players in each match.
    seed : int
        The run's root seed, in [0, 2**63).
    lo, hi : int
        The matches played, ``lo .. hi - 1``.

    Returns
    -------
    matches : int64[hi - lo, N_MCOLS]
        ``M_*``; totals can pass 2**31 with custom points.
    heads : int32[rounds, N_RH]
        ``RH_*``; ``RH_MATCH`` counts from ``lo``.
    records : int32[rounds, N_COLS]
        The round records (``layout.C_*``), per seat.
    """
    orders = deck_order(deck).reshape((1, -1))  # every card, in kind order
    return _matches(
        rules, strategy_ids, strategy_params, deck, points, n, seed, lo, hi, orders, np.int64(0)
    )


@jitted()
def run_match(rules, strategy_ids, strategy_params, deck, points, n, seed, m, orders, scripted):
    """One match, for tests and replays: ``scripted`` 0 plays match ``m`` exactly as
    ``run_matches`` does (``orders`` is then any int8[1, deck_n] arrangement of the
    deck); 1 deals round ``r`` from the pile ``orders[r % len(orders)]`` (its last card
    dealt first, see ``round.setup``). Every row of ``orders`` must hold the cards of
    ``deck``. Returns (match row, heads, records) as ``run_matches``."""
    mout, heads, recs = _matches(
        rules, strategy_ids, strategy_params, deck, points, n, seed, m, m + 1, orders, scripted
    )
    return mout[0].copy(), heads, recs
