"""The expert's fitted cut-off value (``kernel/expert/value.py``, ``value=fit``): the
kernel's share against the model written out here from its documented terms, and what
the model must say of plain positions."""

from __future__ import annotations

import math

import numpy as np
import pytest

from unosim.game.cards import parse_kind
from unosim.game.rules import OFFICIAL
from unosim.kernel.core import layout as L
from unosim.kernel.core.piles import add_card
from unosim.kernel.core.state import new_round
from unosim.kernel.expert import value as V


def _round(hands: dict[int, str], colour: int = 0, direction: int = 1):
    rd = new_round(np.int64(OFFICIAL.deck_counts().sum()), np.int64(0))
    for q, text in hands.items():
        for t in text.split():
            add_card(rd, np.int64(q), np.int64(parse_kind(t)))
    rd.game_state[L.G_N], rd.game_state[L.G_DIR], rd.game_state[L.G_COLOUR] = (
        len(hands),
        direction,
        colour,
    )
    return rd


def _expected(hands: dict[int, str], p: int, nxt: int, colour: int, direction: int) -> float:
    """The model from its terms, over the cards as written (R7, G+2, W, W+4...)."""
    n = len(hands)
    us = []
    for q in range(n):
        cards = hands[q].split()
        d = min(3, ((q - nxt) * direction) % n)
        wd4 = sum(c == "W+4" for c in cards)
        wild = sum(c == "W" for c in cards)
        colours = {c[0] for c in cards if c[0] in "RYGB"}
        u = V.CUT_HAND[d, min(V.CUT_MAX_HAND, len(cards)) - 1]
        u += V.CUT_WILD[min(3, wild)] + V.CUT_WD4[min(2, wd4)] + V.CUT_COLOURS[len(colours)]
        if wild + wd4 > 0 or "RYGB"[colour] in colours:
            u += V.CUT_MATCH[d]
        u += V.CUT_D2 * any(c.endswith("+2") for c in cards)
        u += V.CUT_SR * any(c[1:] in ("S", "R") for c in cards)
        u += V.CUT_SELF * (q == p)
        us.append(u)
    e = [math.exp(u) for u in us]
    return e[p] / sum(e)


POSITIONS = [
    ({0: "R7", 1: "B1 B2 G3 Y4 W", 2: "G+2 GS R5", 3: "Y0 Y1 Y2 Y3 Y4 Y5 Y6"}, 0, 0, 0, 1),
    ({0: "R7", 1: "B1 B2 G3 Y4 W", 2: "G+2 GS R5", 3: "Y0 Y1 Y2 Y3 Y4 Y5 Y6"}, 0, 1, 2, -1),
    ({0: "W+4 W+4 W W W B9", 1: "GR", 2: "R1 R2", 3: "B1 B2 B3"}, 0, 3, 3, 1),
    (
        {0: "B5 B6", 1: "G1", 2: "R1 R2 R3 R4 R5 R6 R7 R8 R9 G9 G8 G7 G6 G5 G4 G3 G2 G1"},
        2,
        1,
        1,
        -1,
    ),
    ({0: "R1", 1: "G2"}, 1, 1, 1, 1),
]


@pytest.mark.parametrize("hands,p,nxt,colour,direction", POSITIONS)
def test_fitted_share_is_the_documented_model(hands, p, nxt, colour, direction):
    rd = _round(hands, colour, direction)
    got = V.fitted_share(rd, np.int64(p), np.int64(len(hands)), np.int64(nxt))
    assert got == pytest.approx(_expected(hands, p, nxt, colour, direction), rel=1e-12)
    assert 0.0 < got < 1.0


def test_fitted_share_reads_the_position():
    """One card and the move beats seven cards; a Wild Draw Four is worth keeping; the
    seat to move is better placed than the one after it, other things equal."""
    seven = "R1 R2 G3 G4 B5 B6 Y7"

    def share(hands, p=0, nxt=0):
        return V.fitted_share(_round(hands), np.int64(p), np.int64(len(hands)), np.int64(nxt))

    base = {0: seven, 1: seven, 2: seven, 3: seven}
    assert share(base) > 0.25
    assert share({**base, 0: "R1"}) > 0.5 > share(base)
    assert share({**base, 0: "R1 W+4"}) > share({**base, 0: "R1 R2"})
    assert share({**base, 0: "R1"}, nxt=0) > share({**base, 0: "R1"}, nxt=1)
