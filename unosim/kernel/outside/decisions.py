"""The decisions of an outside seat made inside ``effects.play`` and ``round._special``
(``decide`` calls these for a seat whose strategy id is ``outside.OUTSIDE``): each asks
the seat (``outside.ask``), which stops the round when the answer is not in its log.
"""

import numpy as np

from ..compile.jit import called
from ..core.layout import G_TOP
from .protocol import (
    A_COLOUR,
    A_PASS,
    A_PLAY,
    A_SEAT,
    D_COLOUR,
    D_EXTRA,
    D_JUMP,
    D_TARGET,
    D_UNO,
    ask,
)


@called
def colour(tb, rd, p):
    """The colour ``p`` names outside its own play (setup, Greninja's second colour)."""
    a = ask(tb, rd, p, np.int64(D_COLOUR), np.int64(-1), np.int64(-1), np.int64(0))
    return a - A_COLOUR if a >= 0 else np.int64(0)


@called
def target(tb, rd, p):
    """The seat ``p`` swaps hands with."""
    a = ask(tb, rd, p, np.int64(D_TARGET), np.int64(-1), np.int64(-1), np.int64(0))
    if a < 0:
        return np.int64(1) if p == 0 else np.int64(0)
    return a - A_SEAT


@called
def jumps(tb, rd, q):
    """Does ``q`` jump in (8.3) with its copy of the card just played (the top card)?"""
    k = rd.game_state[G_TOP]
    a = ask(tb, rd, q, np.int64(D_JUMP), k, np.int64(-1), np.int64(0))
    return a == A_PLAY + k


@called
def forgets(tb, rd, p):
    """Does ``p`` stay silent instead of saying UNO (4.4)?"""
    a = ask(tb, rd, p, np.int64(D_UNO), np.int64(-1), np.int64(-1), np.int64(0))
    return a == A_PASS


@called
def extra(tb, rd, p, first, last, step):
    """The next card ``p`` adds to its multi-card play (8.6), or -1."""
    a = ask(tb, rd, p, np.int64(D_EXTRA), last, first, step)
    if a < 0 or a == A_PASS:
        return np.int64(-1)
    return a - A_PLAY
