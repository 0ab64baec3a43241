"""What a played card does (RULES.md 2, 4.3-4.6, 5, 8.1-8.3, 8.6).

``play`` moves the card(s) from a hand to the discard pile, names a colour, checks the
UNO call and the end of the round, applies each card's effect and lets players jump
in. Pending effects (skips, draw penalties, Snorlax, Greninja) stay in ``g`` and are
resolved by the turn loop when the next player would act.
"""
import numpy as np

from .decide import (
    choose_colour,
    choose_target,
    forgets_uno,
    next_extra,
    will_jump,
)
from .jit import hot, kernel
from .kinds import (
    COLOUR,
    CUSTOMIZABLE,
    DRAW_TWO,
    DRAW_TWO_PENALTY,
    GRAYSKULL,
    GRENINJA,
    N_COLOURED,
    N_KINDS,
    RANK,
    REVERSE,
    SEVEN,
    SHUFFLE_HANDS,
    SKIP,
    SNORLAX,
    SPECIAL_DRAW,
    WILD_DRAW_FOUR,
    WILD_DRAW_FOUR_PENALTY,
    ZERO,
)
from .layout import (
    BLANK_SWAP_HANDS,
    E_COLOUR,
    E_DRAWN,
    E_EFFECT,
    E_EXTRA,
    E_JUMP,
    E_PENALTY,
    E_PLAY,
    E_ROTATE,
    E_SHUFFLE,
    E_STACK,
    E_SWAP,
    E_UNO,
    F_BLUFF,
    G_BLUFF,
    G_CARDS_PLAYED,
    G_CHALLENGEABLE,
    G_COLOUR,
    G_DIR,
    G_MAX_STACK,
    G_N,
    G_OVER,
    G_PEND_BY,
    G_PEND_DRAW,
    G_PEND_SKIP,
    G_PEND_SPECIAL,
    G_PREV_COLOUR,
    G_SHORT,
    G_TURNS,
    G_UNO_PENALTIES,
    G_WINNER,
    H_TOTAL,
    N_H,
    PLAY_DRAWN,
    PLAY_HAND,
    PLAY_STACK,
    R_BLANK_CARD,
    R_CATCH_UNO,
    R_CHALLENGE,
    R_JUMP_IN,
    R_MAX_TURNS,
    R_MULTI_PLAY,
    R_SEVEN_ZERO,
    R_UNO_PENALTY,
    S_TABLE,
)
from .legal import may_empty_hand, may_go_out_with
from .piles import add_card, discard, draw_n, hand_points, remove_card, shuffle
from .rng import chance32
from .seats import seat
from .trace import trace_event

OVER_WON, OVER_TRUNCATED = 1, 2


@kernel
def swap_hands(g, hands, hinfo, a, b):
    """Seats ``a`` and ``b`` exchange hands (and what the table knows they lack)."""
    t = g[G_SHORT + a]
    g[G_SHORT + a] = g[G_SHORT + b]
    g[G_SHORT + b] = t
    for k in range(N_KINDS):
        t = hands[a, k]
        hands[a, k] = hands[b, k]
        hands[b, k] = t
    for j in range(N_H):
        t = hinfo[a, j]
        hinfo[a, j] = hinfo[b, j]
        hinfo[b, j] = t


@kernel
def rotate_hands(g, hands, hinfo):
    """8.2 Seven-Zero's 0: every hand passes to the next player in the direction of play."""
    n = g[G_N]
    d = g[G_DIR]
    # a chain of swaps along the direction of play moves each hand one seat onward
    q = 0
    for _ in range(n - 1):
        nxt = seat(q, -d, n)
        swap_hands(g, hands, hinfo, q, nxt)
        q = nxt


@kernel
def shuffle_all_hands(g, hands, hinfo, scratch, st, p):
    """Wild Shuffle Hands: collect, shuffle, deal one at a time from the next player."""
    n = g[G_N]
    m = 0
    for q in range(n):
        for k in range(N_KINDS):
            for _ in range(hands[q, k]):
                scratch[m] = k
                m += 1
            hands[q, k] = 0
        for j in range(N_H):
            hinfo[q, j] = 0
        g[G_SHORT + q] = 0
    shuffle(scratch, m, st, S_TABLE)
    d = g[G_DIR]
    for i in range(m):
        add_card(hands, hinfo, (p + d * (1 + i % n)) % n, np.int64(scratch[i]))


@kernel
def penalise(hands, hinfo, points, pen, p):
    """7: a penalised player's hand points go to their penalty total (for matches)."""
    pen[p] += hand_points(hands, points, p)


@hot
def uno_check(g, rules, sid, sp, hands, hinfo, pile, disc, points, pen, st, trace, p):
    """4.4: a player left with one card after a play may forget UNO and be caught."""
    if hinfo[p, H_TOTAL] == 1 and forgets_uno(sid, sp, st, p):
        if chance32(st, S_TABLE, rules[R_CATCH_UNO]):
            g[G_UNO_PENALTIES] += 1
            trace_event(g, trace, hands, E_UNO, p, -1, 0, rules[R_UNO_PENALTY])
            penalise(hands, hinfo, points, pen, p)
            draw_n(g, hands, hinfo, pile, disc, st, trace, p, rules[R_UNO_PENALTY])


@hot
def take_turn(g, rules):
    """6: the max_turns limit is checked before every turn (jump-ins included); True
    when the turn may be taken (and is counted)."""
    if g[G_TURNS] >= rules[R_MAX_TURNS]:
        g[G_OVER] = OVER_TRUNCATED
        return False
    g[G_TURNS] += 1
    return True


@hot
def add_penalty(g, amount):
    g[G_PEND_DRAW] += amount
    if g[G_PEND_DRAW] > g[G_MAX_STACK]:
        g[G_MAX_STACK] = g[G_PEND_DRAW]


@hot
def win(g, hands, hinfo, pile, disc, st, trace, p):
    """5: ``p`` has no cards; the next player first draws any pending penalty."""
    if g[G_PEND_DRAW] > 0:
        nxt = seat(p, g[G_DIR], g[G_N])
        amount = g[G_PEND_DRAW]
        g[G_PEND_DRAW] = 0
        trace_event(g, trace, hands, E_PENALTY, nxt, -1, 0, amount)
        draw_n(g, hands, hinfo, pile, disc, st, trace, nxt, amount)
    g[G_OVER] = OVER_WON
    g[G_WINNER] = p


@hot
def effect(g, rules, sid, sp, hands, hinfo, pile, disc, scratch, st, trace, p, k, stacked, bluff):
    """Apply the effect of card ``k`` just played by ``p`` (4.6, 8.2, section 2)."""
    n = g[G_N]
    if k < N_COLOURED:
        r = RANK[k]
        if r == SKIP or (r == REVERSE and n == 2):  # 4.5: Reverse acts as Skip
            g[G_PEND_SKIP] += 1
            trace_event(g, trace, hands, E_EFFECT, p, k, 0, 0)
        elif r == REVERSE:
            g[G_DIR] = -g[G_DIR]
            trace_event(g, trace, hands, E_EFFECT, p, k, 0, 0)
        elif r == DRAW_TWO:
            add_penalty(g, DRAW_TWO_PENALTY)
            g[G_CHALLENGEABLE] = 0
            trace_event(g, trace, hands, E_EFFECT, p, k, 0, 0)
        elif r == SEVEN and rules[R_SEVEN_ZERO] == 1:
            q = choose_target(sid, sp, g, hinfo, st, p)
            swap_hands(g, hands, hinfo, p, q)
            trace_event(g, trace, hands, E_SWAP, p, -1, 0, q)
        elif r == ZERO and rules[R_SEVEN_ZERO] == 1:
            rotate_hands(g, hands, hinfo)
            trace_event(g, trace, hands, E_ROTATE, p, -1, 0, 0)
        return
    if k == WILD_DRAW_FOUR:
        add_penalty(g, WILD_DRAW_FOUR_PENALTY)
        g[G_CHALLENGEABLE] = 1 if (rules[R_CHALLENGE] == 1 and not stacked) else 0
        g[G_BLUFF] = 1 if bluff else 0
        g[G_PEND_BY] = p
        trace_event(g, trace, hands, E_EFFECT, p, k, 0, 0)
    elif k == SHUFFLE_HANDS:
        shuffle_all_hands(g, hands, hinfo, scratch, st, p)
        trace_event(g, trace, hands, E_SHUFFLE, p, -1, 0, 0)
    elif k == CUSTOMIZABLE:
        if rules[R_BLANK_CARD] == BLANK_SWAP_HANDS:
            q = choose_target(sid, sp, g, hinfo, st, p)
            swap_hands(g, hands, hinfo, p, q)
            trace_event(g, trace, hands, E_SWAP, p, -1, 0, q)
    elif k == SNORLAX or k == GRENINJA:
        g[G_PEND_SPECIAL] = k
        g[G_PEND_BY] = p
        trace_event(g, trace, hands, E_EFFECT, p, k, 0, 0)
    elif k == GRAYSKULL:  # every other player draws 3, from the next player on
        trace_event(g, trace, hands, E_EFFECT, p, k, 0, 0)
        for i in range(1, n):
            draw_n(g, hands, hinfo, pile, disc, st, trace, seat(p, i * g[G_DIR], n),
                   np.int64(SPECIAL_DRAW))


@kernel
def _extra_cards(g, rules, sid, sp, hands, hinfo, disc, seq, trace, p, k):
    """8.6 multi-card play: after ``k`` (``seq[0]``), ``p`` adds identical copies and/or
    a same-colour run of numbers, as its strategy chooses; a play that would empty the
    hand stops early if 8.8 forbids it. Returns the number of cards in ``seq``."""
    m = 1
    step = 0
    while hinfo[p, H_TOTAL] > 0:
        e = next_extra(sid, sp, g, hands, p, k, seq[m - 1], step)
        if e < 0 or (hinfo[p, H_TOTAL] == 1 and not may_empty_hand(rules, seq, m, e)):
            break
        if e != seq[m - 1]:
            step = RANK[e] - RANK[seq[m - 1]]
        remove_card(hands, hinfo, p, e)
        discard(g, disc, e)
        g[G_COLOUR] = COLOUR[e]
        trace_event(g, trace, hands, E_EXTRA, p, e, 0, 0)
        seq[m] = e
        m += 1
    return m


@hot
def _last_card_penalties(g, seq, lo, m):
    """5: of the cards ``seq[lo:m]`` that emptied the hand, only the draw penalties
    still apply (the next player draws them before the score)."""
    for i in range(lo, m):
        if seq[i] == WILD_DRAW_FOUR:
            add_penalty(g, WILD_DRAW_FOUR_PENALTY)
        elif RANK[seq[i]] == DRAW_TWO:
            add_penalty(g, DRAW_TWO_PENALTY)


@hot
def _jumper(g, rules, sid, sp, hands, hinfo, st, p, last):
    """8.3: the first other player after ``p`` in the direction of play who holds a card
    identical to ``last`` and jumps in (8.8: not with a last card it may not go out on),
    or -1."""
    n = g[G_N]
    for i in range(1, n):
        c = seat(p, i * g[G_DIR], n)
        if hands[c, last] > 0 and (hinfo[c, H_TOTAL] > 1 or may_go_out_with(rules, last)) \
                and will_jump(sid, sp, st, c):
            return c
    return -1


@hot
def play(g, rules, sid, sp, hands, hinfo, pile, disc, points, pen, scratch, seq, st, trace,
         p, k, how, bluff, colour):
    """Seat ``p`` plays ``k`` (``how``: ``PLAY_HAND``, ``PLAY_DRAWN`` or ``PLAY_STACK``)
    and, with ``multi_play``, more; ``colour`` >= 0 is the colour named after a
    wild-type card (-1: the strategy names it); returns the seat that played last (a
    jumper, maybe), whose next player is the one to act."""
    stacked = how == PLAY_STACK
    # move the cards to the discard pile (8.6: identical copies and/or a same-colour run)
    remove_card(hands, hinfo, p, k)
    discard(g, disc, k)
    if k < N_COLOURED:
        g[G_COLOUR] = COLOUR[k]
    ev = E_PLAY if how == PLAY_HAND else (E_DRAWN if how == PLAY_DRAWN else E_STACK)
    trace_event(g, trace, hands, ev, p, k, F_BLUFF if bluff else 0, 0)
    seq[0] = k
    m = 1
    if how == PLAY_HAND and k < N_COLOURED and rules[R_MULTI_PLAY] == 1:
        m = _extra_cards(g, rules, sid, sp, hands, hinfo, disc, seq, trace, p, k)
    g[G_CARDS_PLAYED] += m
    g[G_CHALLENGEABLE] = 0
    last = seq[m - 1]
    if last >= N_COLOURED:
        g[G_PREV_COLOUR] = g[G_COLOUR]
        if colour >= 0:
            g[G_COLOUR] = colour
        else:
            g[G_COLOUR] = choose_colour(sid, sp, g, hinfo, st, p)
        trace_event(g, trace, hands, E_COLOUR, p, g[G_COLOUR], 0, 0)
    # the cards seq[lo:m] were just played by p: first the turn's own, then each jumper's
    # (one call site of each inlined helper below, which keeps the cold compile short)
    lo = 0
    while True:
        uno_check(g, rules, sid, sp, hands, hinfo, pile, disc, points, pen, st, trace, p)
        if hinfo[p, H_TOTAL] == 0:
            _last_card_penalties(g, seq, lo, m)
            win(g, hands, hinfo, pile, disc, st, trace, p)
            return p
        for i in range(lo, m):
            effect(g, rules, sid, sp, hands, hinfo, pile, disc, scratch, st, trace, p,
                   seq[i], stacked, bluff)
        # 8.3 jump-in: an identical coloured card, out of turn, first in direction of play
        if rules[R_JUMP_IN] == 0 or last >= N_COLOURED:
            return p
        q = _jumper(g, rules, sid, sp, hands, hinfo, st, p, last)
        if q < 0:
            return p
        if not take_turn(g, rules):  # a jump-in is a turn of the jumper (4.6)
            return p
        p = q
        remove_card(hands, hinfo, p, last)
        g[G_CARDS_PLAYED] += 1
        discard(g, disc, last)
        g[G_PEND_SKIP] = 0  # replaced by the jumper's own card's effect
        trace_event(g, trace, hands, E_JUMP, p, last, 0, 0)
        lo = m - 1  # seq[m - 1] is ``last``, the jumper's card
        stacked = False
        bluff = False
