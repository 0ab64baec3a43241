"""What a played card does (RULES.md 2, 4.3-4.6, 5, 8.1-8.3, 8.6).

``play`` moves the card(s) from a hand to the discard pile, names a colour, checks the
UNO call and the end of the round, applies each card's effect and lets players jump
in. Pending effects (skips, draw penalties, Snorlax, Greninja) stay in the game state
``rd.game_state`` and are resolved by the turn loop when the next player would act. Functions take
the round's ``state.Table`` ``tb`` and ``state.Round`` ``rd``, then scalars.
"""

import numpy as np

from ..compile.jit import called, inlined
from ..core.hands import rotate_hands, shuffle_all_hands, swap_hands
from ..core.index import ix
from ..core.kinds import (
    COLOUR,
    CUSTOMIZABLE,
    DRAW_PENALTY,
    DRAW_TWO,
    DRAW_TWO_PENALTY,
    GRAYSKULL,
    N_BUILTIN_KINDS,
    N_COLOURED,
    N_COLOURS,
    PENDING,
    RANK,
    REVERSE,
    SEVEN,
    SHUFFLE_HANDS,
    SKIP,
    SPECIAL_DRAW,
    WILD_DRAW_FOUR,
    WILD_DRAW_FOUR_PENALTY,
    ZERO,
)
from ..core.layout import (
    BLANK_SWAP_HANDS,
    E_COLOUR,
    E_DRAWN,
    E_EFFECT,
    E_EXTRA,
    E_JUMP,
    E_PLAY,
    E_ROTATE,
    E_SHUFFLE,
    E_STACK,
    E_SWAP,
    F_BLUFF,
    G_BLUFF,
    G_CHALLENGEABLE,
    G_COLOUR,
    G_DIR,
    G_N,
    G_PEND_BY,
    G_PEND_SKIP,
    G_PEND_SPECIAL,
    G_PREV_COLOUR,
    G_TOP,
    H_TOTAL,
    K_CARDS_PLAYED,
    MAX_PLAYERS,
    MEM_NAMED,
    MEM_PLAYED,
    PLAY_DRAWN,
    PLAY_HAND,
    PLAY_STACK,
    PLAYED_DEPTH,
    R_BLANK_CARD,
    R_CHALLENGE,
    R_JUMP_IN,
    R_MULTI_PLAY,
    R_SEVEN_ZERO,
    TR_WATCH,
)
from ..core.packed import pack_named, pack_played
from ..core.piles import discard, draw_n, kinds_in_play, remove_card
from ..core.seats import seat
from ..core.trace import trace_event
from ..strategies.decide import choose_colour, choose_target, may_add, next_extra, will_jump
from .declared import chosen_target, names_colour, penalty
from .declared_effects import declared_effect
from .family import fixed_rules, table_rules
from .legal import may_empty_hand, may_go_out_with, rank_lacks
from .outcome import add_penalty, take_turn, uno_check, win

ALONE = -2  # ``play``'s ``colour`` for a coloured card: no extra cards with it (8.6)


@inlined
def effect(tb, rd, p, k, stacked, bluff, target):
    """Apply the effect of card ``k`` just played by ``p`` (4.6, 8.2, section 2);
    ``target`` >= 0: the seat a 7 swaps with, or the opponent a declared card's first
    ``chosen`` step picks (-1: the strategy's choice)."""
    g = rd.game_state
    rules = fixed_rules(tb)
    n = g[G_N]
    if k < N_COLOURED:
        r = RANK[ix(k)]
        if r == SKIP or (r == REVERSE and n == 2):  # 4.5: Reverse acts as Skip
            g[G_PEND_SKIP] += 1
            trace_event(rd, E_EFFECT, p, k, 0, 0)
        elif r == REVERSE:
            g[G_DIR] = -g[G_DIR]
            trace_event(rd, E_EFFECT, p, k, 0, 0)
        elif r == DRAW_TWO:
            add_penalty(rd, DRAW_TWO_PENALTY)
            g[G_CHALLENGEABLE] = 0
            trace_event(rd, E_EFFECT, p, k, 0, 0)
        elif r == SEVEN and table_rules(tb)[R_SEVEN_ZERO] == 1:
            q = target if target >= 0 else choose_target(tb, rd, p)
            swap_hands(rd, p, q, kinds_in_play(tb))
            trace_event(rd, E_SWAP, p, -1, 0, q)
        elif r == ZERO and table_rules(tb)[R_SEVEN_ZERO] == 1:
            rotate_hands(rd, kinds_in_play(tb))
            trace_event(rd, E_ROTATE, p, -1, 0, 0)
        return
    if k == WILD_DRAW_FOUR:
        add_penalty(rd, WILD_DRAW_FOUR_PENALTY)
        g[G_CHALLENGEABLE] = 1 if (table_rules(tb)[R_CHALLENGE] == 1 and not stacked) else 0
        g[G_BLUFF] = 1 if bluff else 0
        g[G_PEND_BY] = p
        trace_event(rd, E_EFFECT, p, k, 0, 0)
    elif k == SHUFFLE_HANDS:
        shuffle_all_hands(rd, p, kinds_in_play(tb))
        trace_event(rd, E_SHUFFLE, p, -1, 0, 0)
    elif k == CUSTOMIZABLE:
        if rules[R_BLANK_CARD] == BLANK_SWAP_HANDS:
            q = choose_target(tb, rd, p)
            swap_hands(rd, p, q, kinds_in_play(tb))
            trace_event(rd, E_SWAP, p, -1, 0, q)
    elif PENDING[ix(k)] == 1:  # Snorlax, Greninja
        g[G_PEND_SPECIAL] = k
        g[G_PEND_BY] = p
        trace_event(rd, E_EFFECT, p, k, 0, 0)
    elif k == GRAYSKULL:  # every other player draws 3, from the next player on
        trace_event(rd, E_EFFECT, p, k, 0, 0)
        for i in range(1, n):
            draw_n(rd, seat(p, i * g[G_DIR], n), np.int64(SPECIAL_DRAW))
    elif k >= N_BUILTIN_KINDS:
        declared_effect(tb, rd, p, k, target)


@called
def _extra_cards(tb, rd, p, k, outside):
    """8.6 multi-card play: after ``k`` (``seq[0]``), ``p`` adds identical copies and/or
    a same-colour run of numbers, as its strategy chooses; a play that would empty the
    hand stops early if 8.8 forbids it (``outside``: ``play``'s). Returns the number of
    cards in ``seq``."""
    g = rd.game_state
    hinfo = rd.hand_summary
    seq = rd.seq
    m = np.int64(1)  # not literals: see ``shuffle_all_hands``
    step = np.int64(0)
    while hinfo[p, H_TOTAL] > 0:
        e = next_extra(tb, rd, p, k, seq[m - 1], step, outside)
        if e < 0 or (hinfo[p, H_TOTAL] == 1 and not may_empty_hand(tb, rd, m, e)):
            break
        if e != seq[m - 1]:
            step = RANK[e] - RANK[seq[m - 1]]
        remove_card(rd, p, e)
        discard(rd, e)
        g[G_COLOUR] = COLOUR[e]
        trace_event(rd, E_EXTRA, p, e, 0, 0)
        seq[m] = e
        m += 1
    return m


@inlined
def _last_card_penalties(tb, rd, lo, m):
    """5: of the cards ``seq[lo:m]`` that emptied the hand, only the draw penalties
    still apply (the next player draws them before the score)."""
    seq = rd.seq
    for i in range(lo, m):
        if seq[i] >= N_BUILTIN_KINDS:
            add_penalty(rd, penalty(tb, seq[i]))
        elif DRAW_PENALTY[seq[i]] > 0:
            add_penalty(rd, DRAW_PENALTY[seq[i]])


@inlined
def _jumper(tb, rd, p, last, outside):
    """8.3: the first other player after ``p`` in the direction of play who holds a card
    identical to ``last`` and jumps in (8.8: not with a last card it may not go out on),
    or -1 (``outside``: ``play``'s)."""
    g = rd.game_state
    hands = rd.hands
    hinfo = rd.hand_summary
    n = g[G_N]
    for i in range(1, n):
        c = seat(p, i * g[G_DIR], n)
        if (
            hands[ix(c), ix(last)] > 0
            and (hinfo[ix(c), H_TOTAL] > 1 or may_go_out_with(tb, last))
            and will_jump(tb, rd, c, outside)
        ):
            return c
    return -1


@inlined
def play(tb, rd, p, k, how, bluff, colour, outside):
    """Seat ``p`` plays ``k`` (``how``: ``PLAY_HAND``, ``PLAY_DRAWN`` or ``PLAY_STACK``)
    and, with ``multi_play``, more; ``colour`` >= 0 is the colour named after a
    wild-type card, or the seat a 7 (``k``) swaps with under Seven-Zero, or for a
    declared ``k`` the colour it names and the opponent its first ``chosen`` step picks
    (``declared.choice``) (-1: the strategy chooses), or ``ALONE``: a coloured ``k``
    without extra cards; ``outside``: 0 if no seat is an outside one (``decide.OUTSIDE``),
    1 if any may be. Returns the seat that played last (a jumper, maybe), whose next
    player is the one to act."""
    g = rd.game_state
    count = rd.counters
    hinfo = rd.hand_summary
    seq = rd.seq
    rules = fixed_rules(tb)
    stacked = how == PLAY_STACK
    top = g[G_TOP]
    cur = g[G_COLOUR]
    # move the cards to the discard pile (8.6: identical copies and/or a same-colour run)
    remove_card(rd, p, k)
    discard(rd, k)
    if COLOUR[ix(k)] >= 0:
        g[G_COLOUR] = COLOUR[ix(k)]
    ev = E_PLAY if how == PLAY_HAND else (E_DRAWN if how == PLAY_DRAWN else E_STACK)
    trace_event(rd, ev, p, k, F_BLUFF if bluff else 0, 0)
    seq[0] = k
    m = 1
    if (
        how == PLAY_HAND
        and k < N_COLOURED
        and rules[R_MULTI_PLAY] == 1
        and colour != ALONE
        and may_add(tb, rd, p, k, outside)
    ):
        m = _extra_cards(tb, rd, p, k, outside)
    count[K_CARDS_PLAYED] += m
    g[G_CHALLENGEABLE] = 0
    watch = rd.trace_flags[TR_WATCH] != 0  # an expert's real round: keep what the table saw
    if how == PLAY_HAND and watch:  # seen by all, for the expert (``MEM_PLAYED``)
        for j in range(
            MEM_PLAYED + (PLAYED_DEPTH - 1) * MAX_PLAYERS + p, MEM_PLAYED + p, -MAX_PLAYERS
        ):  # the older plays move one slot down
            rd.memory[j] = rd.memory[j - MAX_PLAYERS]
        rd.memory[MEM_PLAYED + p] = pack_played(k, cur, top, hinfo[p, H_TOTAL])
    last = seq[m - 1]
    if last >= N_COLOURED and names_colour(tb, last):
        g[G_PREV_COLOUR] = g[G_COLOUR]
        if colour >= 0:
            g[G_COLOUR] = colour % N_COLOURS  # a declared card's also says its target
        else:
            g[G_COLOUR] = choose_colour(tb, rd, p, outside)
        trace_event(rd, E_COLOUR, p, g[G_COLOUR], 0, 0)
        # seen by all, for the expert (``MEM_NAMED``): the colour named, the cards p then
        # held, what a card from its hand could not match, the card, the next one's cards
        if watch:
            lack = 0
            if how == PLAY_HAND:
                lack = (1 << g[G_PREV_COLOUR]) | rank_lacks(tb, top)
            nxt = hinfo[seat(p, g[G_DIR], g[G_N]), H_TOTAL]
            rd.memory[MEM_NAMED + p] = pack_named(g[G_COLOUR], hinfo[p, H_TOTAL], lack, last, nxt)
    # the cards seq[lo:m] were just played by p: first the turn's own, then each jumper's
    # (one call site of each inlined helper below, which keeps the cold compile short)
    lo = 0
    while True:
        uno_check(tb, rd, p, outside)
        if hinfo[ix(p), H_TOTAL] == 0:
            _last_card_penalties(tb, rd, lo, m)
            win(rd, p)
            return p
        for i in range(lo, m):
            target = -1
            if i == 0:
                target = colour if k < N_COLOURED else chosen_target(colour)
            effect(tb, rd, p, seq[i], stacked, bluff, target)
        colour = -1  # a jumper's 7 swaps by its strategy
        # 8.3 jump-in: an identical coloured card, out of turn, first in direction of play
        if rules[R_JUMP_IN] == 0 or last >= N_COLOURED:
            return p
        q = _jumper(tb, rd, p, last, outside)
        if q < 0:
            return p
        if not take_turn(tb, rd):  # a jump-in is a turn of the jumper (4.6)
            return p
        p = q
        remove_card(rd, p, last)
        count[K_CARDS_PLAYED] += 1
        discard(rd, last)
        g[G_PEND_SKIP] = 0  # replaced by the jumper's own card's effect
        trace_event(rd, E_JUMP, p, last, 0, 0)
        lo = m - 1  # seq[m - 1] is ``last``, the jumper's card
        stacked = False
        bluff = False
