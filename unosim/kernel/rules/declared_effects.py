"""What a declared card does (docs/cards.md): its steps, read from the rule array
(``declared.block``) and applied in order. ``effects.effect`` calls ``declared_effect``
for every declared kind; a step that ends the round ends the effect.

A skip step leaves its skip waiting for the seat it names (``g[G_SKIPS + seat]``), not
for whoever acts next as a built-in Skip's does (``G_PEND_SKIP``): the turn loop
(``round._turns``) spends one of a seat's waiting skips each time that seat's turn
comes (docs/cards.md, "How the steps of one card combine").
"""

import numpy as np

from ..compile.jit import called
from ..core.hands import rotate_hands, shuffle_all_hands, swap_hands
from ..core.kinds import COLOUR, KIND_AT, N_ALL_RANKS
from ..core.layout import (
    D_N_STEPS,
    D_STEPS,
    DC_STACKS,
    E_COLOUR,
    E_DISCARD,
    E_EFFECT,
    E_ROTATE,
    E_SHUFFLE,
    E_SWAP,
    G_CHALLENGEABLE,
    G_COLOUR,
    G_DIR,
    G_DISC_N,
    G_N,
    G_OVER,
    G_SKIPS,
    G_TOP,
    H_MASK,
    H_TOTAL,
    K_CARDS_PLAYED,
    MEM_DISC_C,
    MEM_SHORT,
    OP_AGAIN,
    OP_DEAL,
    OP_DISCARD_OWN,
    OP_DISCARD_VICTIM,
    OP_DRAW_CHOSEN,
    OP_DRAW_NEXT,
    OP_DRAW_OTHERS,
    OP_DRAW_UNTIL_COLOUR,
    OP_NAME_AGAIN,
    OP_PASS,
    OP_REVERSE,
    OP_SKIP_ALL,
    OP_SKIP_NEXT,
    OP_SPEND_TURN,
    OP_SWAP,
    S_SEAT0,
)
from ..core.piles import draw_n, draw_one, kinds_in_play
from ..core.rng import below
from ..core.seats import seat
from ..core.trace import trace_event
from ..strategies.decide import choose_colour, choose_target
from .declared import block, slot_of
from .family import fixed_rules
from .outcome import add_penalty, take_turn, uno_check, win


@called
def declared_effect(tb, rd, p, k, target):
    """A declared card's steps in their order (docs/cards.md); its colour, if it names
    one, was named before (``play``). ``target`` >= 0: the opponent its first ``chosen``
    step picks (the expert's; -1: the strategy's). A step that ends the round ends the
    effect."""
    g = rd.game_state
    rules = fixed_rules(tb)
    b = block(k)
    trace_event(rd, E_EFFECT, p, k, 0, 0)
    for i in range(rules[b + D_N_STEPS]):
        if g[G_OVER] != 0:
            return
        op = rules[b + D_STEPS + 2 * i]
        x = rules[b + D_STEPS + 2 * i + 1]
        n = g[G_N]
        nxt = seat(p, g[G_DIR], n)
        if op == OP_DRAW_NEXT:
            if (rules[DC_STACKS] >> slot_of(k)) & 1:  # a waiting penalty (4.6, 8.1)
                add_penalty(rd, x)
                g[G_CHALLENGEABLE] = 0
            else:
                draw_n(rd, nxt, x)
        elif op == OP_DRAW_OTHERS:  # from the next player on
            for j in range(1, n):
                draw_n(rd, seat(p, j * g[G_DIR], n), x)
        elif op == OP_DRAW_CHOSEN:
            q = target if target >= 0 else choose_target(tb, rd, p)
            target = -1
            draw_n(rd, q, x)
        elif op == OP_SKIP_NEXT:  # a skip waits for this step's next player
            g[G_SKIPS + nxt] += 1
        elif op == OP_SKIP_ALL or op == OP_AGAIN:  # one for every other player: p is next
            for j in range(n):
                if j != p:
                    g[G_SKIPS + j] += 1
        elif op == OP_REVERSE:  # 4.5: a Skip with two players
            if n == 2:
                g[G_SKIPS + nxt] += 1
            else:
                g[G_DIR] = -g[G_DIR]
        elif op == OP_DISCARD_OWN:
            throw_colour(tb, rd, p)
        elif op == OP_DISCARD_VICTIM:
            throw_colour(tb, rd, nxt)
        elif op == OP_SWAP:
            q = target if target >= 0 else choose_target(tb, rd, p)
            target = -1
            swap_hands(rd, p, q, kinds_in_play(tb))
            trace_event(rd, E_SWAP, p, -1, 0, q)
        elif op == OP_PASS:
            rotate_hands(rd, kinds_in_play(tb))
            trace_event(rd, E_ROTATE, p, -1, 0, 0)
        elif op == OP_DEAL:
            shuffle_all_hands(rd, p, kinds_in_play(tb))
            trace_event(rd, E_SHUFFLE, p, -1, 0, 0)
        elif op == OP_SPEND_TURN:  # a turn taken (4.6, 6: max_turns first), then missed
            if take_turn(tb, rd):
                g[G_SKIPS + nxt] += 1
        elif op == OP_DRAW_UNTIL_COLOUR:  # as a Greninja victim: until the current colour
            c = g[G_COLOUR]
            while True:
                d = draw_one(rd, nxt)
                if d < 0 or COLOUR[d] == c:
                    break
            rd.memory[MEM_SHORT + nxt] = 0
        elif op == OP_NAME_AGAIN:  # a colour named again (as after a Greninja)
            g[G_COLOUR] = choose_colour(tb, rd, p, np.int64(1))
            trace_event(rd, E_COLOUR, p, g[G_COLOUR], 0, 0)


@called
def throw_colour(tb, rd, q):
    """Seat ``q`` throws away every card of the current colour, as a Snorlax victim does
    (section 2): a uniformly random one (``q``'s stream) ends on top, the colour stays,
    the cards count as played; an empty hand wins, one card left must call UNO."""
    g = rd.game_state
    hands = rd.hands
    hinfo = rd.hand_summary
    disc = rd.disc
    c = g[G_COLOUR]
    m = np.int64(hinfo[q, c])
    if m == 0:
        return
    x = below(rd.streams, S_SEAT0 + q, m)
    top = -1
    for r in range(N_ALL_RANKS):
        kk = KIND_AT[c, r]
        cnt = hands[q, kk]
        if cnt > 0:
            if top < 0 and x < cnt:
                top = kk
            x -= cnt
            disc[kk] += cnt
            hands[q, kk] = 0
    hinfo[q, c] = 0
    hinfo[q, H_MASK + c] = 0
    hinfo[q, H_TOTAL] -= m
    g[G_DISC_N] += m
    rd.memory[MEM_DISC_C + c] += m
    rd.counters[K_CARDS_PLAYED] += m
    g[G_TOP] = top
    trace_event(rd, E_DISCARD, q, top, 0, m)
    if hinfo[q, H_TOTAL] == 0:
        win(rd, q)
    else:
        uno_check(tb, rd, q, np.int64(1))
