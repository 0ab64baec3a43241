"""Rounds with outside seats, advanced from one outside decision to the next.

A game's arrays are a ``state.Round`` ``rd`` (with ``rd.outside_log``, ``outside``) and a second
``Round`` ``ck`` holding the state at the last checkpoint. The round stops at the stops
of ``round.turn_loop`` before an outside seat's normal turn, pending penalty or legal
card drawn (the ``stop`` mask holds the outside seats): there it waits, untouched, for
the next action (``O_DIRTY`` 2), and ``advance`` goes on from it. A decision inside a
turn (``outside.ask`` from ``effects.play``: the UNO call, a jump-in, a swap...) with
the log exhausted lets the turn loop run past it; ``advance`` then restores the
checkpoint (or deals the round again from its seed), replays from it reading the
decisions made since from the log, and plays on to the next decision with the log
exhausted (the round is then ``ST_ASKING``) or to the round's end (``ST_DONE``, its
record written). A stop becomes the checkpoint (a copy of the state) only once the log
holds ``CK_EVERY`` decisions or after a replay, so most stops copy nothing and a replay
is a few of the seat's turns long.

Expert seats (``expert_params[q, X_ROLLOUTS] > 0``, ``kernel.expert.rounds``) stop the turn loop
too: at
such a stop the search chooses the move and the state becomes a checkpoint that keeps
the move (``O_CK_STOP`` 2, ``O_CK_FORCE``), so a replay never searches again. The games
are those ``expert.play_round_expert`` would play with the outside seats' moves.

Many games advance in one call (``advance_games``): their arrays are stacked, ``[B,
...]`` each (a ``Round`` of stacked arrays, ``new_games``), and each game's own
``Round`` is a view of row ``i``. A game depends only on its (seed, game index) and on
the actions in its log, so the order and grouping of the calls never changes it.
"""

import numpy as np

from ..compile.jit import called, jitted
from ..core.kinds import N_KINDS
from ..core.layout import (
    EV_W,
    G_DRAWN,
    G_OVER,
    MAX_PLAYERS,
    N_G,
    N_H,
    N_K,
    N_MEM,
    N_STREAMS,
    N_TR,
    S_SEAT0,
    TR_WATCH,
)
from ..core.rng import seed_streams
from ..core.state import Round
from ..drivers.round import end_round, record, start_round, turn_loop
from ..expert.rounds import X_ROLLOUTS, search, search_arrays
from ..rules.pending import FORCE_CHALLENGE, FORCE_DRAWN, FORCE_KEEP, FORCE_NONE, FORCE_POLICY
from .protocol import (
    A_CHALLENGE,
    A_DRAW,
    A_PASS,
    D_DRAWN,
    D_PENALTY,
    O_CK_COLOUR,
    O_CK_FORCE,
    O_CK_HIST,
    O_CK_P,
    O_CK_STOP,
    O_CURSOR,
    O_DIRTY,
    O_GAME,
    O_HIST_N,
    O_LIVE_P,
    O_LOG,
    O_LOG_N,
    O_SEED,
    O_STATUS,
    ST_DONE,
    ST_RUNNING,
    action_card,
    ask,
    at_stop,
)

# an outside seat's stop becomes the checkpoint once the log holds this many decisions
# (or after a replay): a replay is then at most a few of its turns long, and most stops
# copy nothing (notes/agents.md, "Batch interface")
CK_EVERY = 8


def new_games(b, deck_n, capacity, ob_n, history=True):
    """Stacked arrays of ``b`` games with outside seats, and their checkpoints.

    Parameters
    ----------
    b : int
        Games (slots).
    deck_n : int
        Cards in the deck.
    capacity : int
        Trace rows per game, at least 1 when the ``history`` is kept (``trace``).
    ob_n : int
        Length of each game's ``ob`` (``outside.ob_size``).
    history : bool
        Keep each game's trace.

    Returns
    -------
    (games, checkpoints) : (state.Round, state.Round)
        Each field of ``state.Round`` with a leading axis of ``b`` (``hands``
        int16[b, MAX_PLAYERS, N_KINDS], ...); the checkpoints have no trace and no ``ob``.
    """

    def one(cap, obn):
        return Round(
            np.zeros((b, N_G), np.int64),
            np.zeros((b, N_K), np.int64),
            np.zeros((b, N_MEM), np.int64),
            np.zeros((b, N_TR), np.int64),
            np.zeros((b, MAX_PLAYERS, N_KINDS), np.int16),
            np.zeros((b, MAX_PLAYERS, N_H), np.int32),
            np.zeros((b, deck_n), np.int8),
            np.zeros((b, N_KINDS), np.int16),
            np.zeros((b, MAX_PLAYERS), np.int64),
            np.zeros((b, N_STREAMS, 4), np.uint64),
            np.zeros((b, deck_n), np.int8),
            np.zeros((b, deck_n), np.int64),
            np.zeros((b, cap, EV_W), np.int32),
            np.zeros((b, obn), np.int64),
        )

    return one(max(1 if history else 0, capacity), ob_n), one(0, 0)


@jitted()
def _view(s, i):
    """Game ``i``'s ``Round``: row ``i`` of the stacked arrays ``s`` (with numba's
    runtime: the views hold references that the caller releases)."""
    return Round(
        s.game_state[i],
        s.counters[i],
        s.memory[i],
        s.trace_flags[i],
        s.hands[i],
        s.hand_summary[i],
        s.pile[i],
        s.disc[i],
        s.penalties[i],
        s.streams[i],
        s.scratch[i],
        s.seq[i],
        s.trace[i],
        s.outside_log[i],
    )


@called
def _copy_state(src, dst, n):
    """Copy what a round reads and writes (not its work space, trace or ``ob``)."""
    for j in range(src.game_state.shape[0]):
        dst.game_state[j] = src.game_state[j]
    for j in range(src.counters.shape[0]):
        dst.counters[j] = src.counters[j]
    for j in range(src.memory.shape[0]):
        dst.memory[j] = src.memory[j]
    for j in range(src.trace_flags.shape[0]):
        dst.trace_flags[j] = src.trace_flags[j]
    for q in range(n):
        for k in range(N_KINDS):
            dst.hands[q, k] = src.hands[q, k]
        for j in range(src.hand_summary.shape[1]):
            dst.hand_summary[q, j] = src.hand_summary[q, j]
        dst.penalties[q] = src.penalties[q]
    for j in range(src.pile.shape[0]):
        dst.pile[j] = src.pile[j]
    for k in range(N_KINDS):
        dst.disc[k] = src.disc[k]
    for s in range(src.streams.shape[0]):
        for j in range(4):
            dst.streams[s, j] = src.streams[s, j]


@called
def _checkpoint(rd, ck, n, p, stopped):
    ob = rd.outside_log
    _copy_state(rd, ck, n)
    ob[O_CK_P] = p
    ob[O_CK_STOP] = stopped
    ob[O_CK_HIST] = ob[O_HIST_N]
    ob[O_LOG_N] = 0
    ob[O_CURSOR] = 0


@called
def _force(kind, a):
    """``turn_loop``'s (force, colour) for action ``a`` at a stop's decision ``kind``."""
    k, c = action_card(a)
    if kind == D_DRAWN:
        if a == A_PASS:
            return np.int64(FORCE_KEEP), np.int64(-1)
        return np.int64(FORCE_DRAWN), c
    if kind == D_PENALTY and a == A_CHALLENGE:
        return np.int64(FORCE_CHALLENGE), np.int64(-1)
    if a == A_DRAW:
        return np.int64(-1), np.int64(-1)
    return k, c


@called
def advance(tb, rd, ck, n, order, stop, out_row, expert_params, sa):
    """Play game ``rd`` to the next outside decision not in its log, or to its end (its
    record into ``out_row``); returns ``rd.outside_log[O_STATUS]``. A round waiting at a stop of
    the turn loop goes on from there; one that ran past its stop is restored from its
    checkpoint ``ck`` (or dealt again) and replayed. ``expert_params``: the expert parameters per
    seat (``kernel.expert.rounds``; all 0: no expert), ``sa``: the ``expert.search_arrays``,
    or None when no seat searches (the search is then compiled out, and a call from Python
    need not unbox its forty arrays: ``kernel.stepwise``)."""
    ob = rd.outside_log
    if ob[O_STATUS] == ST_DONE:
        return ob[O_STATUS]
    ob[O_STATUS] = ST_RUNNING
    zero = np.int64(0)
    experts = zero
    for q in range(n):
        if expert_params[q, X_ROLLOUTS] > 0:
            experts |= np.int64(1) << q
    force = np.int64(FORCE_NONE)
    colour = np.int64(-1)
    replayed = ob[O_DIRTY] == 1  # it ran past its stop: restored (or dealt again), replayed
    if ob[O_DIRTY] == 2:  # waiting at a stop: its mask is in ``ob``, its action the log's next
        p = ob[O_LIVE_P]
        at = np.int64(1)
        c = ob[O_CURSOR]
        if c < ob[O_LOG_N]:
            ob[O_CURSOR] = c + 1
            force, colour = _force(at_stop(rd.game_state), ob[O_LOG + c])
            at = zero
    else:
        ob[O_CURSOR] = 0
        ob[O_HIST_N] = ob[O_CK_HIST]
        if ob[O_CK_P] < 0:  # the round's start: deal it (again)
            seed_streams(rd.streams, ob[O_SEED], ob[O_GAME], zero, S_SEAT0 + n)
            p = start_round(tb, rd, n, order, zero)
            if experts != 0:  # keep what the table saw, for the search (``determinize``)
                rd.trace_flags[TR_WATCH] = 1
            if ob[O_STATUS] != ST_RUNNING:
                return ob[O_STATUS]
            at = zero
        else:
            _copy_state(ck, rd, n)
            p = ob[O_CK_P]
            at = ob[O_CK_STOP]
    ob[O_DIRTY] = 1
    while True:
        if at == 2:  # an expert seat's stop: the move its search chose
            force = ob[O_CK_FORCE]
            colour = ob[O_CK_COLOUR]
        elif at == 1:  # an outside seat's decision at a stop of the turn loop
            kind = at_stop(rd.game_state)
            a = ask(tb, rd, p, kind, np.int64(rd.game_state[G_DRAWN] - 1), np.int64(-1), zero)
            if a < 0:  # the log is read: the round waits here, its state untouched
                rd.game_state[G_OVER] = 0  # (``ask`` set it to end a turn loop; none ran)
                ob[O_DIRTY] = 2
                ob[O_LIVE_P] = p
                return ob[O_STATUS]
            force, colour = _force(kind, a)
        p = turn_loop(tb, rd, n, p, stop | experts, force, colour)
        force = np.int64(FORCE_NONE)
        colour = np.int64(-1)
        if ob[O_STATUS] != ST_RUNNING:
            return ob[O_STATUS]
        if rd.game_state[G_OVER] != 0:
            end_round(rd, p)
            record(tb, rd, out_row, n)
            ob[O_STATUS] = ST_DONE
            return ob[O_STATUS]
        at = np.int64(1)
        if sa is not None:  # (a test of the type: numba drops the branch for None)
            if (experts >> p) & 1:  # as ``expert.play_round_expert`` does
                b, w, wtb, unseen, cand, ccol, val, dsum, dsq, tally = sa
                c = search(
                    tb, rd, n, p, expert_params, b, w, wtb, unseen, cand, ccol, val, dsum, dsq,
                    tally,
                )  # fmt: skip
                if c >= 0:
                    ob[O_CK_FORCE] = cand[c]
                    ob[O_CK_COLOUR] = ccol[c]
                else:  # the policy's own choice (it plays a legal card drawn)
                    ob[O_CK_FORCE] = FORCE_DRAWN if rd.game_state[G_DRAWN] > 0 else FORCE_POLICY
                    ob[O_CK_COLOUR] = -1
                at = np.int64(2)
                _checkpoint(rd, ck, n, p, at)  # a replay never searches again
                continue  # (the move is kept: no second checkpoint below)
        if ob[O_CURSOR] == ob[O_LOG_N] and (replayed or ob[O_LOG_N] >= CK_EVERY):
            _checkpoint(rd, ck, n, p, at)


@jitted(nogil=True)
def advance_games(tb, games, cks, n, order, stop, games_idx, out, expert_params):
    """``advance`` each game ``games_idx[j]`` of the stacked ``games`` to its next
    outside decision not in its log, or to its end.

    Parameters
    ----------
    tb : state.Table
        The rules, strategies, deck and points (``state``).
    games, cks : state.Round
        The games and their checkpoints, stacked (``new_games``).
    n : int64
        Players.
    order : int8[cards]
        The deck in kind order (``batch.deck_order``).
    stop : int64
        Bit ``s`` set: seat ``s`` is decided outside.
    games_idx : int64[m]
        The games to advance.
    out : int32[b, N_COLS]
        Records, written for the games that end.
    expert_params : float64[MAX_PLAYERS, N_X]
        The expert's parameters per seat (``X_ROLLOUTS`` 0: not an expert).

    Returns
    -------
    int64[m]
        Their statuses (``outside.ST_*``).
    """
    st = np.zeros(games_idx.size, np.int64)
    searching = False
    for q in range(n):
        searching = searching or expert_params[q, X_ROLLOUTS] > 0
    sa = search_arrays(tb, order.size if searching else 0)  # this call's own scratch
    for j in range(games_idx.size):
        i = games_idx[j]
        st[j] = advance(
            tb, _view(games, i), _view(cks, i), n, order, stop, out[i], expert_params, sa
        )
    return st
