"""Which cards may be played (RULES.md 4.1, 4.3, 8.1)."""

from ..cards import COLOUR, DRAW_TWO, N_RANKS, RANK, WILD_DRAW_FOUR
from .jit import hot, kernel
from .layout import (
    G_COLOUR,
    G_TOP,
    R_STACKING,
    R_WD4_RESTRICTION,
    STACK_NONE,
    STACK_PROGRESSIVE,
    WD4_NONE,
)


@hot
def wd4_allowed(g, rules, hinfo, p):
    """4.3: with `wd4_restriction = colour`, only without a card of the current colour."""
    return rules[R_WD4_RESTRICTION] == WD4_NONE or hinfo[p, g[G_COLOUR]] == 0


@hot
def is_legal(g, rules, hinfo, p, k):
    """4.1: matches the current colour, or the top card's rank/symbol, or is wild-type."""
    c = COLOUR[k]
    if c < 0:
        if k == WILD_DRAW_FOUR:
            return wd4_allowed(g, rules, hinfo, p)
        return True
    if c == g[G_COLOUR]:
        return True
    r = RANK[g[G_TOP]]
    return r >= 0 and RANK[k] == r


@kernel
def can_stack(g, rules, k):
    """8.1: may ``k`` be stacked on the pending penalty (whose card is the top card)?"""
    mode = rules[R_STACKING]
    if mode == STACK_NONE:
        return False
    if g[G_TOP] == WILD_DRAW_FOUR:
        if k == WILD_DRAW_FOUR:
            return True
        # progressive: +2 on +4 when the +2 has the colour just named
        return mode == STACK_PROGRESSIVE and RANK[k] == DRAW_TWO and COLOUR[k] == g[G_COLOUR]
    if RANK[k] == DRAW_TWO:
        return True
    return mode == STACK_PROGRESSIVE and k == WILD_DRAW_FOUR


@kernel
def draw_two_kind(c):
    return c * N_RANKS + DRAW_TWO
