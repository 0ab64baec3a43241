"""Declared cards (docs/cards.md): their entries in the rule array, read as data.

A rule set may declare up to ``kinds.MAX_DECLARED`` cards; ``RuleSet.to_array`` writes
each one's block at ``layout.DC0 + d * DC_W`` (``D_*`` fields: wild or coloured, names
a colour, its step table of ``OP_*`` codes and numbers) and a few summaries
(``DC_*``). Nothing here allocates; a rule set without declared cards never reaches
these functions on the built-in cards' paths.
"""

import numpy as np

from ..compile.jit import inlined
from ..core.kinds import (
    ATTACKS,
    DECLARED_COLOURED,
    DECLARED_WILD,
    DRAW_PENALTY,
    N_BUILTIN_KINDS,
    N_COLOURS,
    N_WILD_END,
    RANK,
    SWAPS,
)
from ..core.layout import (
    D_ATTACK,
    D_DRAWS,
    D_N_STEPS,
    D_NAMES,
    D_PENALTY,
    D_STEPS,
    D_SWAP,
    DC0,
    DC_ANYWHERE,
    DC_COLOUR_ONLY,
    DC_STACKS,
    DC_W,
    G_TOP,
    OP_DRAW_CHOSEN,
    OP_SWAP,
)
from .family import fixed_rules


@inlined
def slot_of(k):
    """The declared card (0 .. MAX_DECLARED - 1) of a declared kind ``k``."""
    if k < N_WILD_END:
        return k - DECLARED_WILD
    return (k - DECLARED_COLOURED) // N_COLOURS


@inlined
def block(k):
    """Where declared kind ``k``'s block starts in the rule array."""
    return DC0 + slot_of(k) * DC_W


@inlined
def names_colour(tb, k):
    """Does its player name a colour after ``k`` (every wild-type card does)?"""
    return k < N_BUILTIN_KINDS or fixed_rules(tb)[block(k) + D_NAMES] == 1


@inlined
def props(tb, k):
    """(attack, cards drawn, swap) of kind ``k`` for the players' scores: the built-in
    tables (``kinds.ATTACKS``, ``DRAW_PENALTY``, ``SWAPS``) or its declaration's."""
    if k < N_BUILTIN_KINDS:
        return np.int64(ATTACKS[k]), np.int64(DRAW_PENALTY[k]), np.int64(SWAPS[k])
    b = block(k)
    return fixed_rules(tb)[b + D_ATTACK], fixed_rules(tb)[b + D_DRAWS], fixed_rules(tb)[b + D_SWAP]


@inlined
def penalty(tb, k):
    """The waiting draw penalty ``k`` adds (RULES.md 4.6, 8.1): a Draw Two's 2, a Wild
    Draw Four's 4, a declared ``stack`` card's number, else 0."""
    if k < N_BUILTIN_KINDS:
        return np.int64(DRAW_PENALTY[k])
    return fixed_rules(tb)[block(k) + D_PENALTY]


@inlined
def legal_declared(tb, rd, k):
    """4.1 for a coloured declared kind not of the current colour: ``matches`` =
    anything, or the top card's rank when it matches by rank."""
    rules = fixed_rules(tb)
    r = RANK[k]
    if (rules[DC_ANYWHERE] >> r) & 1:
        return True
    return RANK[rd.game_state[G_TOP]] == r and (rules[DC_COLOUR_ONLY] >> r) & 1 == 0


@inlined
def stacks(tb, k):
    """Is ``k`` a card that stacks (a Draw Two, a Wild Draw Four, a ``stack`` card)?"""
    if k < N_BUILTIN_KINDS:
        return DRAW_PENALTY[k] > 0
    return (fixed_rules(tb)[DC_STACKS] >> slot_of(k)) & 1 == 1


@inlined
def choice(colour, target):
    """``effects.play``'s ``colour`` for a declared card: the colour it names (0 if it
    names none) and the opponent its first ``chosen`` step picks (-1: the strategy's)."""
    return colour + N_COLOURS * (target + 1)


@inlined
def chosen_target(colour):
    """The opponent of a declared card's ``choice`` (-1: the strategy's)."""
    return colour // N_COLOURS - 1 if colour >= 0 else -1


@inlined
def chooses(tb, k):
    """Does declared kind ``k`` have a ``chosen`` step (``draw N chosen``, ``swap
    chosen``)?"""
    b = block(k)
    for i in range(fixed_rules(tb)[b + D_N_STEPS]):
        op = fixed_rules(tb)[b + D_STEPS + 2 * i]
        if op == OP_DRAW_CHOSEN or op == OP_SWAP:
            return True
    return False
