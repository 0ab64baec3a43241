"""Many rounds in one call, across threads: each game's outcome depends only on its
(seed, game index), so the split into chunks and threads never changes a result."""
import numpy as np
from numba import njit, prange

from .kinds import N_KINDS
from .layout import (
    EV_W,
    G_PILE_N,
    G_TRACE_N,
    MAX_PLAYERS,
    N_COLS,
    N_G,
    N_H,
    N_STREAMS,
    S_SEAT0,
)
from .rng import seed_streams
from .round import play_round, record


@njit(cache=True)
def work_arrays(deck_n, capacity):
    """The arrays one round is played in, for a deck of ``deck_n`` cards and a trace
    of ``capacity`` rows (0: trace mode off). Allocated once per chunk, never per game.

    Returns (g, hands, hinfo, pile, scratch, seq, disc, pen, st, trace)."""
    return (np.zeros(N_G, dtype=np.int64),
            np.zeros((MAX_PLAYERS, N_KINDS), dtype=np.int16),
            np.zeros((MAX_PLAYERS, N_H), dtype=np.int16),
            np.zeros(deck_n, dtype=np.int8),
            np.zeros(deck_n, dtype=np.int8),
            np.zeros(deck_n, dtype=np.int64),
            np.zeros(N_KINDS, dtype=np.int16),
            np.zeros(MAX_PLAYERS, dtype=np.int64),
            np.zeros((N_STREAMS, 4), dtype=np.uint64),
            np.zeros((capacity, EV_W), dtype=np.int32))


@njit(cache=True)
def deck_order(deck):
    """Every card of the deck in kind order, ``int8[cards]``, from ``deck`` (copies of
    each kind, ``int16[N_KINDS]``)."""
    n = 0
    for k in range(N_KINDS):
        n += deck[k]
    order = np.zeros(n, dtype=np.int8)
    m = 0
    for k in range(N_KINDS):
        for _ in range(deck[k]):
            order[m] = k
            m += 1
    return order


@njit(cache=True)
def run_chunk(rules, sid, sp, deck, points, n, seed, first_game, out, lo, hi):
    """Play games ``first_game + lo .. first_game + hi - 1`` into ``out[lo:hi]``.

    The work arrays are allocated once per chunk, never per game."""
    order = deck_order(deck)
    deck_n = order.size
    zero = np.int64(0)  # not the literal 0: see ``jit.py``
    g, hands, hinfo, pile, scratch, seq, disc, pen, st, trace = work_arrays(deck_n, zero)
    for i in range(lo, hi):
        seed_streams(st, seed, first_game + i, zero, S_SEAT0 + n)
        play_round(g, rules, sid, sp, deck, points, hands, hinfo, pile, disc, pen, scratch,
                   seq, st, trace, n, order, zero)
        record(g, hands, hinfo, points, pen, out[i], n)


@njit(cache=True, parallel=True)
def run_rounds(rules, sid, sp, deck, points, n, seed, first_game, count, chunk):
    """Play ``count`` single rounds (games ``first_game ..``); returns int32[count, N_COLS]."""
    out = np.zeros((count, N_COLS), dtype=np.int32)
    n_chunks = (count + chunk - 1) // chunk
    for c in prange(n_chunks):
        lo = c * chunk
        hi = min(count, lo + chunk)
        run_chunk(rules, sid, sp, deck, points, n, seed, first_game, out, lo, hi)
    return out


@njit(cache=True)
def run_one(rules, sid, sp, deck, points, n, seed, game, order, scripted, capacity):
    """One round with its final state and its trace, for tests and replays.

    ``scripted`` 0: game ``game`` of a run with root ``seed``, exactly as ``run_rounds``
    plays it (``order`` is any arrangement of the deck); 1: the pile ``order``, its last
    card dealt first (``round.setup``). Returns (row int32[N_COLS], g, hands, hinfo, pile,
    disc, trace int32[events, EV_W])."""
    deck_n = order.size
    g, hands, hinfo, pile, scratch, seq, disc, pen, st, trace = work_arrays(deck_n, capacity)
    out = np.zeros(N_COLS, dtype=np.int32)
    seed_streams(st, seed, game, np.int64(0), S_SEAT0 + n)
    play_round(g, rules, sid, sp, deck, points, hands, hinfo, pile, disc, pen, scratch, seq,
               st, trace, n, order, scripted)
    record(g, hands, hinfo, points, pen, out, n)
    n_ev = min(g[G_TRACE_N], capacity)
    return out, g, hands, hinfo, pile[:g[G_PILE_N]].copy(), disc, trace[:n_ev].copy()
