"""The ``expert`` player: flat Monte Carlo search with the kernel's own turn loop.

Before each of its decisions with more than one choice (a normal turn, a pending Draw Two
or Wild Draw Four penalty, a legal card just drawn), the expert seat stops
``round.turn_loop`` (``stop``) and scores every candidate (``candidates``) over
``rollouts`` determinizations: the cards it cannot see are dealt at random, consistently
with what the table saw (``determinize``: ``MEM_SHORT``, ``MEM_NAMED``, ``MEM_PLAYED``),
and every candidate is played out from the same deal with the same streams (common random
numbers) by the rollout policy, to the end of the round or for ``horizon`` turns, scored
by ``_value``. The policy's own move is kept unless another beats it by more than ``z``
standard errors of the paired difference. Jump-ins, a multi-card play's extra cards and
Greninja's second colour are the policy's (decided where the turn loop cannot stop).

The parts: the parameter slots ``X_*`` and the search's codes (``expert_params``,
published here too), the candidates (``expert_moves``), the deals (``expert_deal``), the
search (``expert_search``); this module plays whole rounds with it (the entry points).
"""

import numpy as np

from ..compile.jit import inlined, jitted
from ..core.layout import DC_N, EV_W_DECL, G_DRAWN, G_OVER, N_COLS, S_SEAT0, TR_EVENTS, TR_WATCH
from ..core.rng import seed_streams
from ..core.state import Table, new_round, with_trace
from ..drivers.batch import deck_order, in_chunks
from ..drivers.round import end_round, record, start_round, turn_loop
from ..rules.pending import FORCE_DRAWN, FORCE_NONE, FORCE_POLICY
from .params import (  # noqa: F401  (the slots and codes, published here)
    AT_DRAWN,
    AT_PENALTY,
    AT_TURN,
    DEAL_OPEN,
    DEAL_UNIFORM,
    DEAL_VOIDS,
    N_TALLY,
    N_X,
    PILE_LAZY,
    PILE_SHUFFLED,
    SCOPE_ALL,
    SCOPE_TURN,
    T_ALONE,
    T_CHANGED,
    T_SEARCHES,
    T_TARGET,
    T_TURNS,
    VALUE_FIT,
    VALUE_HANDS,
    X_BLUFF,
    X_CRN,
    X_CUT,
    X_DEAL,
    X_DEPTH,
    X_DRAW,
    X_ENDGAME,
    X_FUT,
    X_HORIZON,
    X_INFER,
    X_MODEL,
    X_MORE,
    X_PAD,
    X_PILE,
    X_RACE,
    X_REUSE,
    X_ROLLOUTS,
    X_SCOPE,
    X_TRIES,
    X_VALUE,
    X_Z,
)
from .search import search, search_arrays


@inlined
def play_round_expert(
    tb, rd, n, order, scripted, expert_params, b, w, wtb, unseen, cand, ccol, val, dsum, dsq, tally
):
    """``round.play_round`` with the expert seats (``expert_params[:, X_ROLLOUTS] > 0``) searching
    their decisions (``turn_loop``'s stops); ``b`` .. ``tally`` are the ``search_arrays``."""
    stop = np.int64(0)
    for q in range(n):
        if expert_params[q, X_ROLLOUTS] > 0:
            stop |= np.int64(1) << q
    p = start_round(tb, rd, n, order, scripted)
    rd.trace_flags[TR_WATCH] = 1  # keep what the table saw of each play, for ``determinize``
    force = np.int64(FORCE_NONE)
    colour = np.int64(-1)
    while True:
        p = turn_loop(tb, rd, n, p, stop, force, colour)
        if rd.game_state[G_OVER] != 0:
            break
        c = search(
            tb, rd, n, p, expert_params, b, w, wtb, unseen, cand, ccol, val, dsum, dsq, tally
        )
        if c >= 0:
            force = cand[c]
            colour = ccol[c]
        else:  # the policy's own choice (it plays a legal card drawn)
            force = np.int64(FORCE_DRAWN if rd.game_state[G_DRAWN] > 0 else FORCE_POLICY)
            colour = np.int64(-1)
    end_round(rd, p)


@jitted(nogil=True)
def run_chunk_expert(
    rules,
    strategy_ids,
    strategy_params,
    deck,
    points,
    n,
    seed,
    first_game,
    out,
    lo,
    hi,
    expert_params,
):
    """``batch.run_chunk`` with expert seats."""
    tb = Table(rules, strategy_ids, strategy_params, deck, points, None)
    order = deck_order(deck)
    zero = np.int64(0)
    rd = new_round(order.size, zero)
    b, w, wtb, unseen, cand, ccol, val, dsum, dsq, tally = search_arrays(tb, order.size)
    for i in range(lo, hi):
        seed_streams(rd.streams, seed, first_game + i, zero, S_SEAT0 + n)
        play_round_expert(
            tb,
            rd,
            n,
            order,
            zero,
            expert_params,
            b,
            w,
            wtb,
            unseen,
            cand,
            ccol,
            val,
            dsum,
            dsq,
            tally,
        )
        record(tb, rd, out[i], n)


def run_rounds_expert(
    rules,
    strategy_ids,
    strategy_params,
    deck,
    points,
    n,
    seed,
    first_game,
    count,
    chunk,
    expert_params,
):
    """``batch.run_rounds`` with expert seats; the same games on any number of threads.

    Parameters
    ----------
    rules : int64[N_RULES]
        The rules (``layout.R_*``, ``RuleSet.to_array``).
    strategy_ids : int64[MAX_PLAYERS]
        Each seat's strategy id (``decide``).
    strategy_params : float64[MAX_PLAYERS, N_PARAMS]
        Each seat's strategy parameters (``layout.P_*``).
    deck : int16[N_KINDS]
        Copies of each kind in the deck.
    points : int16[N_KINDS]
        Points of each kind (RULES.md section 5).
    n : int
        Players (seats 0 .. n - 1).
    seed : int
        The run's root seed, in [0, 2**63).
    first_game : int
        The first game's number.
    count : int
        Games to play.
    chunk : int
        Games per task.
    expert_params : int64[MAX_PLAYERS, N_X]
        Each seat's expert parameters (``expert_params.X_*``); rollouts 0: no search.

    Returns
    -------
    int32[count, N_COLS]
        One record per round (``layout.C_*``).
    """
    out = np.zeros((count, N_COLS), dtype=np.int32)

    def play(lo, hi):
        run_chunk_expert(
            rules,
            strategy_ids,
            strategy_params,
            deck,
            points,
            n,
            seed,
            first_game,
            out,
            lo,
            hi,
            expert_params,
        )

    in_chunks(play, count, chunk)
    return out


@jitted()
def run_one_expert(
    rules,
    strategy_ids,
    strategy_params,
    deck,
    points,
    n,
    seed,
    game,
    order,
    capacity,
    expert_params,
):
    """One round with its trace, as ``run_rounds_expert`` plays it (``batch.run_one``).

    Parameters
    ----------
    rules : int64[N_RULES]
        The rules (``layout.R_*``, ``RuleSet.to_array``).
    strategy_ids : int64[MAX_PLAYERS]
        Each seat's strategy id (``decide``).
    strategy_params : float64[MAX_PLAYERS, N_PARAMS]
        Each seat's strategy parameters (``layout.P_*``).
    deck : int16[N_KINDS]
        Copies of each kind in the deck.
    points : int16[N_KINDS]
        Points of each kind (RULES.md section 5).
    n : int
        Players (seats 0 .. n - 1).
    seed : int
        The run's root seed, in [0, 2**63).
    game : int
        The game's number.
    order : int8[cards]
        The deck in any arrangement (``batch.deck_order``).
    capacity : int
        Trace rows kept.
    expert_params : int64[MAX_PLAYERS, N_X]
        Each seat's expert parameters (``expert_params.X_*``); rollouts 0: no search.

    Returns
    -------
    tuple
        The record int32[N_COLS], the events counted (int64, also those past
        ``capacity``) and the trace's rows int32[events, EV_W] (``EV_W_DECL`` with
        declared cards).
    """
    tb = Table(rules, strategy_ids, strategy_params, deck, points, None)
    rd = new_round(order.size, capacity)
    if capacity > 0 and rules[DC_N] > 0:  # declared cards: their hands in the trace too
        rd = with_trace(rd, np.zeros((capacity, EV_W_DECL), dtype=np.int32))
    b, w, wtb, unseen, cand, ccol, val, dsum, dsq, tally = search_arrays(tb, order.size)
    out = np.zeros(N_COLS, dtype=np.int32)
    zero = np.int64(0)
    seed_streams(rd.streams, seed, game, zero, S_SEAT0 + n)
    play_round_expert(
        tb, rd, n, order, zero, expert_params, b, w, wtb, unseen, cand, ccol, val, dsum, dsq, tally
    )
    record(tb, rd, out, n)
    n_ev = min(rd.trace_flags[TR_EVENTS], capacity)
    return out, rd.trace_flags[TR_EVENTS], rd.trace[:n_ev].copy()


@jitted()
def tally_rounds(
    rules, strategy_ids, strategy_params, deck, points, n, seed, first_game, count, expert_params
):
    """Play games ``first_game ..`` on one thread as ``run_rounds_expert`` does, and tally
    the searches.

    Parameters
    ----------
    rules : int64[N_RULES]
        The rules (``layout.R_*``, ``RuleSet.to_array``).
    strategy_ids : int64[MAX_PLAYERS]
        Each seat's strategy id (``decide``).
    strategy_params : float64[MAX_PLAYERS, N_PARAMS]
        Each seat's strategy parameters (``layout.P_*``).
    deck : int16[N_KINDS]
        Copies of each kind in the deck.
    points : int16[N_KINDS]
        Points of each kind (RULES.md section 5).
    n : int
        Players (seats 0 .. n - 1).
    seed : int
        The run's root seed, in [0, 2**63).
    first_game : int
        The first game's number.
    count : int
        Games to play.
    expert_params : int64[MAX_PLAYERS, N_X]
        Each seat's expert parameters (``expert_params.X_*``); rollouts 0: no search.

    Returns
    -------
    int64[N_TALLY]
        The tally (``expert_params.T_*``): the searches made, the turns played in their
        rollouts (benchmarks) and the choices that were not the policy's, per decision.
    """
    out = np.zeros((count, N_COLS), dtype=np.int32)
    tb = Table(rules, strategy_ids, strategy_params, deck, points, None)
    order = deck_order(deck)
    zero = np.int64(0)
    rd = new_round(order.size, zero)
    b, w, wtb, unseen, cand, ccol, val, dsum, dsq, tally = search_arrays(tb, order.size)
    for i in range(count):
        seed_streams(rd.streams, seed, first_game + i, zero, S_SEAT0 + n)
        play_round_expert(
            tb,
            rd,
            n,
            order,
            zero,
            expert_params,
            b,
            w,
            wtb,
            unseen,
            cand,
            ccol,
            val,
            dsum,
            dsq,
            tally,
        )
        record(tb, rd, out[i], n)
    return tally.copy()
