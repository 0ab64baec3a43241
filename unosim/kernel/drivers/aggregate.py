"""Streaming aggregates of round records: histograms and sums, added in place."""

import numpy as np

from ..compile.jit import jitted
from ..core import layout as L


@jitted(nogil=True)
def aggregate(out, n_players, wins, turns_hist, points_hist, sums, totals):
    """Add the round records ``out`` into the running aggregates, in place.

    Parameters
    ----------
    out : int32[rounds, N_COLS]
        Round records (``layout.C_*``).
    n_players : int
        Players (seats) of the records.
    wins : int64[n_players]
        Wins per seat.
    turns_hist, points_hist : int64[bins + 1]
        Histograms of turns and winner's points of completed rounds; the last bin
        takes every larger value.
    sums : int64[4]
        Turns, turns**2, points, points**2 of completed rounds.
    totals : int64[len(TOTAL_COLUMNS)]
        Sums of the ``TOTAL_COLUMNS`` over every round.

    Returns
    -------
    (truncated, max_stack, bad) : (int, int, int)
        Truncated rounds, the largest max_stack, 1 if a record is out of range.
    """
    turns_bins = turns_hist.size - 1
    points_bins = points_hist.size - 1
    truncated = 0
    max_stack = 0
    bad = 0
    for i in range(out.shape[0]):
        row = out[i]
        totals[0] += row[L.C_TURNS]  # in TOTAL_COLUMNS order
        totals[1] += row[L.C_CARDS_PLAYED]
        totals[2] += row[L.C_CARDS_DRAWN]
        totals[3] += row[L.C_RESHUFFLES]
        totals[4] += row[L.C_CHALLENGES]
        totals[5] += row[L.C_BLUFFS]
        totals[6] += row[L.C_UNO_PENALTIES]
        if row[L.C_MAX_STACK] > max_stack:
            max_stack = row[L.C_MAX_STACK]
        if row[L.C_TRUNCATED] != 0:
            truncated += 1
            continue
        w = row[L.C_WINNER]
        t = np.int64(row[L.C_TURNS])
        p = np.int64(row[L.C_POINTS])
        if w < 0 or w >= n_players or t < 0 or p < 0:
            bad = 1
            continue
        wins[w] += 1
        turns_hist[min(t, turns_bins)] += 1
        points_hist[min(p, points_bins)] += 1
        sums[0] += t
        sums[1] += t * t
        sums[2] += p
        sums[3] += p * p
    return truncated, max_stack, bad


# --------------------------------------------------------------------- statistics
