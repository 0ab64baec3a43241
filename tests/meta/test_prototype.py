"""The stripped prototype (``benchmarks/prototype.py``) that ``make bench`` measures the
kernel against plays the same game: its official rounds agree with ``unosim.simulate``'s
for `random` players at 5 standard errors. A faster prototype that played a different
game would be no measure of the kernel's limit."""

import sys
from pathlib import Path

import numpy as np
import pytest

import unosim

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import prototype  # noqa: E402

N = 20_000


def _z(x, y):
    se = np.sqrt(x.var() / x.size + y.var() / y.size)
    return abs(x.mean() - y.mean()) / se


@pytest.mark.parametrize("players", [2, 4, 9])
def test_prototype_plays_official_like_the_kernel(players):
    proto = prototype.simulate(N, players, seed=5)
    df = unosim.simulate("official", n_games=N, n_players=players, strategies="random", seed=5)
    pairs = {
        "turns": (proto[:, 1], df["turns"].to_numpy()),
        "points": (proto[:, 2], df["points"].to_numpy()),
        "cards_drawn": (proto[:, 3], df["cards_drawn"].to_numpy()),
        "seat 0 wins": ((proto[:, 0] == 0) * 1.0, (df["winner"].to_numpy() == 0) * 1.0),
        "last seat wins": (
            (proto[:, 0] == players - 1) * 1.0,
            (df["winner"].to_numpy() == players - 1) * 1.0,
        ),
    }
    for name, (x, y) in pairs.items():
        assert _z(x, y) < 5, (name, x.mean(), y.mean())
    assert (proto[:, 0] >= 0).all()  # official random rounds end well before 5,000 turns


def test_prototype_is_reproducible_and_chunk_free():
    whole = prototype.simulate(2_000, 4, seed=9)
    parts = np.vstack([prototype.simulate(1_000, 4, 9, 0), prototype.simulate(1_000, 4, 9, 1_000)])
    assert np.array_equal(whole, parts)
    assert not np.array_equal(whole, prototype.simulate(2_000, 4, seed=10))
