"""Same seed, same frame: whatever the threads, chunk size, block size or offset."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import unosim
from unosim.kernel.core import layout as L
from unosim.kernel.core.rng import seed_streams

ARGS = dict(
    rules="official",
    n_games=6000,
    n_players=4,
    strategies="random,heuristic",
    seed=11,
    house="stacking=progressive,jump_in=true,seven_zero=true",
)


def _sim(**kw):
    a = dict(ARGS)
    strategies = a.pop("strategies")
    a.update(kw)
    return unosim.simulate(strategies=",".join((strategies.split(",") * 4)[:4]), **a)


def test_same_seed_same_frame():
    pd.testing.assert_frame_equal(_sim(), _sim())


def test_threads_do_not_change_results():
    pd.testing.assert_frame_equal(_sim(threads=1), _sim(threads=2))


@pytest.mark.parametrize("chunk,block", [(1, 6000), (7, 1000), (1000, 777), (4096, 6000)])
def test_chunking_does_not_change_results(chunk, block):
    pd.testing.assert_frame_equal(_sim(threads=2), _sim(threads=2, chunk=chunk, block=block))


def test_a_game_depends_only_on_seed_and_index():
    from unosim.sim.simulate import make_job, run_block

    job = make_job("official", 10, 4, "random", seed=11)
    whole = run_block(job, 0, 3000)
    part = run_block(job, 1234, 500)
    np.testing.assert_array_equal(whole[1234:1734], part)


def test_other_seed_other_results_not_shifted():
    a = _sim()["turns"].to_numpy()
    b = _sim(seed=12)["turns"].to_numpy()
    assert not np.array_equal(a, b)
    for shift in range(1, 50):  # adjacent seeds are not shifted copies of one stream
        assert (a[shift:] == b[:-shift]).mean() < 0.2


def test_stream_keys_unrelated():
    """The streams the kernel seeds (``seed_streams``, as ``run_chunk`` and matches call
    it) differ for every seed, game, round and purpose: no state word repeats."""
    words = set()
    st = np.zeros((L.N_STREAMS, 4), dtype=np.uint64)
    for s in range(4):
        for g in range(50):
            for rnd in range(2):
                seed_streams(st, s, g, rnd, L.N_STREAMS)
                words.update(st.ravel().tolist())
    assert len(words) == 4 * 50 * 2 * L.N_STREAMS * 4
    st1 = np.zeros((L.N_STREAMS, 4), dtype=np.uint64)
    st2 = np.zeros((L.N_STREAMS, 4), dtype=np.uint64)
    seed_streams(st1, 1, 0, 0, L.N_STREAMS)
    seed_streams(st2, 1, 1, 0, L.N_STREAMS)
    # no state word of game 1 appears anywhere in game 0's states
    assert not set(st1.ravel().tolist()) & set(st2.ravel().tolist())
