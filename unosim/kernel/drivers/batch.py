"""Many rounds in one call, across threads: each game's outcome depends only on its
(seed, game index), so the split into chunks and threads never changes a result.

The threads are Python's, each running a compiled chunk with the GIL released, not
numba's ``prange``: a parallel function compiles three more copies of everything it
calls (its loop body, and two wrappers, each optimised by LLVM anew), which took half
the cold compile. The thread count is numba's (``numba.set_num_threads``).
"""

from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np

from ..compile.jit import called, jitted
from ..core.kinds import N_KINDS
from ..core.layout import DC_N, EV_W_DECL, G_PILE_N, N_COLS, S_SEAT0, TR_EVENTS
from ..core.rng import seed_streams
from ..core.state import Table, new_round, with_trace
from .round import play_round, record


@jitted()
def deck_order(deck):
    """Every card of the deck in kind order.

    Parameters
    ----------
    deck : int16[N_KINDS]
        Copies of each kind.

    Returns
    -------
    int8[cards]
        Each card's kind, ``cards = deck.sum()``.
    """
    n = np.int64(0)  # also when run as Python (``run_rounds``): no int16 sum
    for k in range(N_KINDS):
        n += deck[k]
    order = np.zeros(n, dtype=np.int8)
    m = 0
    for k in range(N_KINDS):
        for _ in range(deck[k]):
            order[m] = k
            m += 1
    return order


@called
def play_and_record(tb, rd, n, order, scripted, out_row):
    """``round.play_round`` then ``round.record`` into ``out_row``: the general table's
    one compiled round, which single rounds, matches and traced rounds all call, so that
    a cold start compiles the round's turn loop once, not once per driver (a specialised
    table's rounds inline it: ``run_chunk_specialised``)."""
    play_round(tb, rd, n, order, scripted)
    record(tb, rd, out_row, n)


@jitted(_nrt=False, nogil=True)
def run_chunk(tb, rd, order, n, seed, first_game, out, lo, hi):
    """Play games ``first_game + lo .. first_game + hi - 1`` into ``out[lo:hi]`` in the
    work arrays ``rd`` (a ``state.Round``, one per thread, never one per game), each by
    a call of the round that matches and traces share (``play_and_record``)."""
    zero = np.int64(0)  # not the literal 0: see ``jit.py``
    for i in range(lo, hi):
        seed_streams(rd.streams, seed, first_game + i, zero, S_SEAT0 + n)
        play_and_record(tb, rd, n, order, zero, out[i])


@jitted(_nrt=False, nogil=True)
def run_chunk_specialised(tb, rd, order, n, seed, first_game, out, lo, hi):
    """``run_chunk`` for a table of ``family`` constants, with the round inlined: no other
    driver plays such a table, so a shared round would save no compile, and its call
    cost 3.5% a turn."""
    zero = np.int64(0)  # not the literal 0: see ``jit.py``
    for i in range(lo, hi):
        seed_streams(rd.streams, seed, first_game + i, zero, S_SEAT0 + n)
        play_round(tb, rd, n, order, zero)
        record(tb, rd, out[i], n)


def in_chunks(play, count, chunk):
    """``play(lo, hi)`` over ``[0, count)`` in chunks of ``chunk`` on
    ``numba.get_num_threads()`` threads (one thread: one call for the whole range)."""
    bounds = [(lo, min(count, lo + chunk)) for lo in range(0, count, chunk)]
    threads = min(numba.get_num_threads(), len(bounds))
    if threads <= 1:
        play(0, count)
        return
    with ThreadPoolExecutor(max_workers=threads) as pool:
        for f in [pool.submit(play, lo, hi) for lo, hi in bounds]:
            f.result()


def run_rounds(
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
    constants=None,
):
    """Play ``count`` single rounds (games ``first_game ..``) in chunks of ``chunk`` on
    numba's thread count; the same games on any number of threads, and in the general
    kernel as in one specialised for ``constants``.

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
        The first game's number (each game's streams come from seed and number).
    count : int
        Games to play.
    chunk : int
        Games per task.
    constants : family.RuleConstants or None
        Play in a kernel specialised for these rules (``rules`` must be of its family:
        equal outside ``family.HOUSE``); None, the general kernel.

    Returns
    -------
    int32[count, N_COLS]
        One record per round (``layout.C_*``).
    """
    out = np.zeros((count, N_COLS), dtype=np.int32)
    tb = Table(rules, strategy_ids, strategy_params, deck, points, constants)
    # the Python functions behind the two: NumPy alone builds these arrays, and
    # compiling them (with numba's np.zeros) took about 1.5 s of a cold start
    order = deck_order.py_func(deck)

    chunk_of = run_chunk if constants is None else run_chunk_specialised

    def play(lo, hi):
        chunk_of(tb, new_round.py_func(order.size, 0), order, n, seed, first_game, out, lo, hi)

    in_chunks(play, count, chunk)
    return out


@jitted()
def run_one(
    rules, strategy_ids, strategy_params, deck, points, n, seed, game, order, scripted, capacity
):
    """One round with its final state and its trace, for tests and replays.

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
        ``scripted`` 0: any arrangement of the deck (game ``game`` is played exactly as
        ``run_rounds`` plays it); 1: the draw pile, its last card dealt first
        (``round.setup``).
    scripted : int
        0 or 1, as above.
    capacity : int
        Trace rows kept; ``rd.trace_flags[TR_EVENTS]`` counts every event, also those past it.

    Returns
    -------
    tuple
        The record int32[N_COLS]; the final ``state.Round``; of it the hands
        int16[MAX_PLAYERS, N_KINDS], hinfo int32[MAX_PLAYERS, N_H], the draw pile's
        cards int8[G_PILE_N], disc int16[N_KINDS]; the trace's rows int32[events, EV_W]
        (``EV_W_DECL`` with declared cards).
    """
    tb = Table(rules, strategy_ids, strategy_params, deck, points, None)
    rd = new_round(order.size, capacity)
    if capacity > 0 and rules[DC_N] > 0:  # declared cards: their hands in the trace too
        rd = with_trace(rd, np.zeros((capacity, EV_W_DECL), dtype=np.int32))
    out = np.zeros(N_COLS, dtype=np.int32)
    seed_streams(rd.streams, seed, game, np.int64(0), S_SEAT0 + n)
    play_and_record(tb, rd, n, order, scripted, out)
    n_ev = min(rd.trace_flags[TR_EVENTS], capacity)
    return (
        out,
        rd,
        rd.hands,
        rd.hand_summary,
        rd.pile[: rd.game_state[G_PILE_N]].copy(),
        rd.disc,
        rd.trace[:n_ev].copy(),
    )
