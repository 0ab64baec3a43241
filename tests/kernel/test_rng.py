"""The random streams: exact uniform integers, probabilities, shuffles."""

from __future__ import annotations

import numpy as np
from numba import njit
from scipy import stats

from unosim.kernel.core.layout import N_STREAMS
from unosim.kernel.core.piles import shuffle
from unosim.kernel.core.rng import below, chance, seed_streams


@njit
def _draw_below(n, count, seed):
    st = np.zeros((N_STREAMS, 4), dtype=np.uint64)
    seed_streams(st, seed, 0, 0, N_STREAMS)
    out = np.zeros(n, dtype=np.int64)
    for _ in range(count):
        out[below(st, 0, n)] += 1
    return out


@njit
def _draw_chance(p, count, seed):
    st = np.zeros((N_STREAMS, 4), dtype=np.uint64)
    seed_streams(st, seed, 0, 0, N_STREAMS)
    k = 0
    for _ in range(count):
        k += chance(st, 1, p)
    return k


@njit
def _shuffle_positions(n, count, seed):
    """How often each item lands in each position."""
    st = np.zeros((N_STREAMS, 4), dtype=np.uint64)
    seed_streams(st, seed, 0, 0, N_STREAMS)
    arr = np.zeros(n, dtype=np.int8)
    out = np.zeros((n, n), dtype=np.int64)
    for _ in range(count):
        for i in range(n):
            arr[i] = i
        shuffle(arr, n, st, 0)
        for i in range(n):
            out[arr[i], i] += 1
    return out


def test_below_is_uniform():
    for n in (2, 3, 7, 52, 108):
        counts = _draw_below(n, 2000 * n, 5)
        assert counts.sum() == 2000 * n
        # chi-square at p > 1e-6: a biased generator fails, a fair one never at this seed
        assert stats.chisquare(counts).pvalue > 1e-6, n


def test_below_one_is_zero():
    assert _draw_below(1, 1000, 1)[0] == 1000


def test_chance_matches_probability():
    for p in (0.0, 0.1, 0.5, 0.9, 1.0):
        k = _draw_chance(p, 100_000, 3)
        sd = np.sqrt(100_000 * p * (1 - p)) or 1e-9
        assert abs(k - 100_000 * p) <= 5 * sd, p


def test_shuffle_is_uniform_over_positions():
    n, count = 6, 60_000
    m = _shuffle_positions(n, count, 9)
    assert stats.chisquare(m.ravel()).pvalue > 1e-6
