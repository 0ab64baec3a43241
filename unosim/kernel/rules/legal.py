"""Which cards may be played (RULES.md 4.1, 4.3, 8.1, 8.8, 8.10).

The one home of legality in the kernel: the turn code and every strategy ask here.
Functions take the round's ``state.Table`` ``tb`` (the rules) and ``state.Round``
``rd`` (the game state ``rd.game_state`` and the hand summaries ``rd.hand_summary``,
``layout.H_*``).
"""

import numpy as np

from ..compile.jit import called, inlined
from ..core.index import ix
from ..core.kinds import (
    COLOUR,
    DRAW_TWO,
    N_ALL_RANKS,
    N_BUILTIN_KINDS,
    N_COLOURED,
    N_COLOURS,
    N_KINDS,
    N_NUMBERS,
    N_RANKS,
    RANK,
    SKIP,
    WILD_DRAW_FOUR,
)
from ..core.layout import (
    DC_ANYWHERE,
    DC_COLOUR_ONLY,
    DC_N,
    G_COLOUR,
    G_TOP,
    H_MASK,
    H_TOTAL,
    H_WILD,
    H_WILD_MASK,
    LAST_ANY,
    R_LAST_CARD,
    R_STACKING,
    R_WD4_RESTRICTION,
    SHORT_RANK,
    SHORT_WILD,
    STACK_NONE,
    STACK_PROGRESSIVE,
    WD4_COLOUR,
    WD4_NONE,
)
from .declared import legal_declared, slot_of, stacks
from .family import fixed_rules, table_rules

WD4_BIT = 1 << (WILD_DRAW_FOUR - N_COLOURED)  # its bit in hinfo[p, H_WILD_MASK]
# bits of Skip, Reverse, Draw Two and the declared ranks in H_MASK
ACTION_RANKS = (1 << N_ALL_RANKS) - (1 << SKIP)


@inlined
def wd4_allowed(tb, rd, p):
    """4.3: may ``p`` play a Wild Draw Four from the hand? `colour`: only without a card
    of the current colour; `none`: always; `strict` (8.10): only without any other
    legal card but Wild Draw Fours."""
    mode = fixed_rules(tb)[R_WD4_RESTRICTION]
    if mode == WD4_COLOUR:  # the default first: this is on every turn's path
        return rd.hand_summary[ix(p), ix(rd.game_state[G_COLOUR])] == 0
    if mode == WD4_NONE:
        return True
    return rd.hand_summary[p, rd.game_state[G_COLOUR]] == 0 and _no_other_legal(tb, rd, p)


@called
def _no_other_legal(tb, rd, p):
    """8.10: ``p`` (holding no card of the current colour) holds no card of the top
    card's rank/symbol and no wild-type card but Wild Draw Fours."""
    if fixed_rules(tb)[DC_N] > 0:  # declared cards: ask each kind held
        for k in range(N_KINDS):
            if k != WILD_DRAW_FOUR and rd.hands[p, k] > 0 and is_legal(tb, rd, p, k):
                return False
        return True
    if rd.hand_summary[p, H_WILD_MASK] & ~WD4_BIT:
        return False
    r = RANK[rd.game_state[G_TOP]]
    if r < 0:
        return True
    for c in range(N_COLOURS):
        if rd.hand_summary[p, H_MASK + c] & (1 << r):
            return False
    return True


@inlined
def is_number(k):
    return k < N_COLOURED and RANK[ix(k)] < N_NUMBERS


@inlined
def may_go_out_with(tb, k):
    """8.8: may a single card ``k`` be played as the last card of a hand (a stack or a
    jump-in with one's last card)?"""
    return fixed_rules(tb)[R_LAST_CARD] == LAST_ANY or is_number(k)


@inlined
def lone_card_blocked(tb, rd, p):
    """8.8: with `last_card = number`, ``p`` holds one card, which is not a number card:
    playing it would empty the hand, so ``p`` has no legal play and must draw."""
    hinfo = rd.hand_summary
    if hinfo[ix(p), H_TOTAL] != 1 or fixed_rules(tb)[R_LAST_CARD] == LAST_ANY:
        return False
    if hinfo[p, H_WILD] > 0:
        return True
    for c in range(N_COLOURS):
        if hinfo[p, H_MASK + c] & ACTION_RANKS:
            return True
    return False


@inlined
def may_empty_hand(tb, rd, m, e):
    """8.8: may a play of ``rd.seq[:m]`` and then ``e`` (which empties the hand) be made?
    With `last_card = number` only if every card of it is a number card."""
    seq = rd.seq
    if fixed_rules(tb)[R_LAST_CARD] == LAST_ANY:
        return True
    if not is_number(e):
        return False
    for i in range(m):
        if not is_number(seq[i]):
            return False
    return True


@inlined
def is_legal(tb, rd, p, k):
    """4.1: matches the current colour, or the top card's rank/symbol, or is wild-type."""
    c = COLOUR[ix(k)]
    if c < 0:
        if k == WILD_DRAW_FOUR:
            return wd4_allowed(tb, rd, p)
        return True
    if c == rd.game_state[G_COLOUR]:
        return True
    if k >= N_BUILTIN_KINDS:
        return legal_declared(tb, rd, k)
    r = RANK[ix(rd.game_state[G_TOP])]
    return r >= 0 and RANK[ix(k)] == r


@inlined
def can_stack(tb, rd, k):
    """8.1: may ``k`` be stacked on the pending penalty (whose card is the top card)?"""
    mode = table_rules(tb)[R_STACKING]
    if mode == STACK_NONE:
        return False
    if k >= N_BUILTIN_KINDS or rd.game_state[G_TOP] >= N_BUILTIN_KINDS:
        return _can_stack_declared(tb, rd, k, mode)
    if rd.game_state[G_TOP] == WILD_DRAW_FOUR:
        if k == WILD_DRAW_FOUR:
            return True
        # progressive: +2 on +4 when the +2 has the colour just named
        return (
            mode == STACK_PROGRESSIVE
            and RANK[ix(k)] == DRAW_TWO
            and COLOUR[ix(k)] == rd.game_state[G_COLOUR]
        )
    if RANK[ix(k)] == DRAW_TWO:
        return True
    return mode == STACK_PROGRESSIVE and k == WILD_DRAW_FOUR


@called
def _can_stack_declared(tb, rd, k, mode):
    """8.1 with a declared ``stack`` card as ``k`` or as the pending card (the top):
    `same`: on the same declared card only; `progressive`: any card that stacks on
    any pending penalty (docs/cards.md)."""
    if not stacks(tb, k):
        return False
    top = rd.game_state[G_TOP]
    if mode == STACK_PROGRESSIVE:
        return True
    return k >= N_BUILTIN_KINDS and top >= N_BUILTIN_KINDS and slot_of(k) == slot_of(top)


@called
def draw_two_kind(c):
    return c * N_RANKS + DRAW_TWO


@inlined
def legal_copies(tb, rd, p):
    """The legal cards in ``p``'s hand on a normal turn, each physical card counted
    (4.1, 4.3): the current colour's, the other colours' of the top card's rank, and
    the wild-type ones (Wild Draw Fours only as the restriction allows)."""
    hands = rd.hands
    hinfo = rd.hand_summary
    c = rd.game_state[G_COLOUR]
    r = RANK[ix(rd.game_state[G_TOP])]
    if fixed_rules(tb)[DC_N] > 0:
        return _declared_copies(tb, rd, p)
    total = np.int64(hinfo[ix(p), ix(c)]) + hinfo[ix(p), H_WILD]
    if r >= 0:
        for c2 in range(N_COLOURS):
            if c2 != c:
                total += hands[ix(p), ix(c2 * N_RANKS + r)]
    if not wd4_allowed(tb, rd, p):
        total -= hands[ix(p), WILD_DRAW_FOUR]
    return total


@called
def _declared_copies(tb, rd, p):
    """``legal_copies`` of a rule set with declared cards: each kind held, asked."""
    total = np.int64(0)
    for k in range(N_KINDS):
        if rd.hands[p, k] > 0 and is_legal(tb, rd, p, k):
            total += rd.hands[p, k]
    return total


@inlined
def legal_ranks(tb, rd, p, c, cur, r_top):
    """Bit mask of the ranks of colour ``c`` that ``p`` holds and may play (4.1): all
    of them in the current colour, else the top card's rank (unless a declared rank
    that matches by colour only) and the declared ranks that match anything."""
    m = np.int64(rd.hand_summary[ix(p), ix(H_MASK + c)])
    if c == cur:
        return m
    anywhere = fixed_rules(tb)[DC_ANYWHERE]
    if r_top < 0:
        return m & anywhere
    return m & (((1 << r_top) & ~fixed_rules(tb)[DC_COLOUR_ONLY]) | anywhere)


@inlined
def legal_wilds(tb, rd, p):
    """Bit mask of the wild-type kinds ``p`` holds and may play (4.3: Wild Draw Four
    only as the restriction allows); bit ``i`` is kind ``N_COLOURED + i``."""
    m = np.int64(rd.hand_summary[ix(p), H_WILD_MASK])
    if m != 0 and not wd4_allowed(tb, rd, p):
        m &= ~(1 << (WILD_DRAW_FOUR - N_COLOURED))
    return m


@inlined
def no_play_lacks(tb, rd, held):
    """``MEM_SHORT`` bits a seat holding ``held`` cards shows the table by having no legal
    card (4.1): none of the colour in play; nor, unless 8.8's `last_card = number` may
    block its lone card, a wild-type card or a card of another colour that could match
    (``rank_lacks``)."""
    g = rd.game_state
    lacks = 1 << g[G_COLOUR]
    if fixed_rules(tb)[R_LAST_CARD] == LAST_ANY or held > 1:
        lacks |= SHORT_WILD | rank_lacks(tb, g[G_TOP])
    return lacks


@inlined
def rank_lacks(tb, top):
    """``MEM_SHORT`` rank bits of a hand with no card of another colour legal on ``top``
    (4.1): the top card's rank (not a declared rank that matches by colour only) and the
    declared ranks that match anything."""
    rules = fixed_rules(tb)
    lacks = rules[DC_ANYWHERE] << SHORT_RANK
    r = RANK[ix(top)]
    if r >= 0 and (rules[DC_COLOUR_ONLY] >> r) & 1 == 0:
        lacks |= 1 << (SHORT_RANK + r)
    return lacks
