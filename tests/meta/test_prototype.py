"""The stripped prototype (``benchmarks/prototype.py``) that ``make bench`` measures the
kernel against plays the same game: its official rounds agree with ``unosim.simulate``'s
for `random` players at 5 standard errors, on the means and on the shape of the
distributions of turns, points and cards drawn, on every seat's share of wins and on who
takes the first turn. A faster prototype that played a different game would be no measure
of the kernel's limit.

Checked by hand against altered prototypes, each failing here: a drawn legal card kept
instead of played, a Wild Draw Four playable while holding the colour, the colour named
always the same, a redraw favouring cards of the current colour (at 4 and 9 seats),
Reverse not acting as Skip at 2 players, the setup Draw Two not skipping seat 0, a first
Wild Draw Four kept as a Wild (at 2 and 9 seats), and the top card kept in a reshuffled
pile (the count). One passes: a first Reverse that does not turn the direction moves
about 0.4% of the wins of the 7% of rounds it concerns, below what 100,000 rounds see.
"""

import sys
from pathlib import Path

import numpy as np
import pytest

import unosim

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import prototype  # noqa: E402

N = 100_000
QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)


def _z(x, y):
    """|difference of the means| in standard errors (0 when both samples are constant
    and equal)."""
    se = np.sqrt(x.var() / x.size + y.var() / y.size)
    if se == 0:
        return 0.0 if x.mean() == y.mean() else np.inf
    return abs(x.mean() - y.mean()) / se


@pytest.mark.parametrize("players", [2, 4, 9])
def test_prototype_plays_official_like_the_kernel(players):
    proto = prototype.simulate(N, players, seed=5)
    df = unosim.simulate("official", n_games=N, n_players=players, strategies="random", seed=5)
    col = {name: proto[:, i] for i, name in enumerate(prototype.COLUMNS)}
    pairs = {}
    for name in ("turns", "points", "cards_drawn"):
        x, y = col[name], df[name].to_numpy()
        pairs[name] = (x, y)
        for q in QUANTILES:  # the shape: P(value <= the kernel's quantile)
            t = np.quantile(y, q)
            pairs[f"{name} <= {t:g}"] = ((x <= t) * 1.0, (y <= t) * 1.0)
    for s in range(players):
        pairs[f"seat {s} wins"] = ((col["winner"] == s) * 1.0, (df["winner"].to_numpy() == s) * 1.0)
        pairs[f"seat {s} first"] = (
            (col["first_player"] == s) * 1.0,
            (df["first_player"].to_numpy() == s) * 1.0,
        )
    for name, (x, y) in pairs.items():
        assert _z(x, y) < 5, (name, x.mean(), y.mean())
    assert (col["winner"] >= 0).all()  # official random rounds end well before 5,000 turns
    assert (col["cards_counted"] == prototype.DECK.size).all()  # no card lost or duplicated


def test_prototype_is_reproducible_and_chunk_free():
    whole = prototype.simulate(2_000, 4, seed=9)
    parts = np.vstack([prototype.simulate(1_000, 4, 9, 0), prototype.simulate(1_000, 4, 9, 1_000)])
    assert np.array_equal(whole, parts)
    assert not np.array_equal(whole, prototype.simulate(2_000, 4, seed=10))
