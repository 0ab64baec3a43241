"""A seat's turn before or instead of a normal play (RULES.md 4.2-4.3, 8.1, 8.9, section
2): a pending Snorlax or Greninja, a pending Draw Two / Wild Draw Four penalty
(challenge, stack or take it), and drawing when it plays no card. The turn loop
(``round``) calls these; ``FORCE_*`` are its ``force`` codes.

Like every kernel function, these take the round's ``state.Table`` ``tb`` and
``state.Round`` ``rd`` (their fields' shapes and dtypes: ``state``), then scalars.
"""

import numpy as np

from ..compile.jit import called, inlined
from ..core.index import ix
from ..core.kinds import COLOUR, KIND_AT, N_ALL_RANKS, SNORLAX, SPECIAL_DRAW, WILD_DRAW_FOUR_PENALTY
from ..core.layout import (
    AFTER_DRAW_PLAY,
    DRAW_ONE,
    E_CHALLENGE,
    E_COLOUR,
    E_DISCARD,
    E_DRAW,
    E_GRENINJA,
    E_PENALTY,
    E_SNORLAX,
    F_CAUGHT,
    G_BLUFF,
    G_CHALLENGEABLE,
    G_COLOUR,
    G_DISC_N,
    G_PEND_BY,
    G_PEND_DRAW,
    G_PEND_SPECIAL,
    G_TOP,
    H_MASK,
    H_TOTAL,
    K_CARDS_DRAWN,
    K_CARDS_PLAYED,
    K_CHALLENGES,
    MEM_DISC_C,
    MEM_SHORT,
    R_AFTER_DRAW,
    R_CHALLENGE_PENALTY,
    R_DRAW_RULE,
    R_STACKING,
    S_SEAT0,
    STACK_NONE,
)
from ..core.piles import draw_cards, draw_n, draw_one
from ..core.rng import below
from ..core.trace import trace_event
from ..strategies.decide import choose_colour, choose_stack, will_challenge
from .family import fixed_rules, table_rules
from .legal import is_legal, no_play_lacks
from .outcome import penalise, uno_check, win


@called
def _special(tb, rd, p):
    """Seat ``p``'s turn under a pending Snorlax or Greninja (section 2)."""
    g = rd.game_state
    count = rd.counters
    mem = rd.memory
    hands = rd.hands
    hinfo = rd.hand_summary
    disc = rd.disc
    st = rd.streams
    c = g[G_COLOUR]
    if g[G_PEND_SPECIAL] == SNORLAX:
        trace_event(rd, E_SNORLAX, p, -1, 0, 0)
        draw_n(rd, p, np.int64(SPECIAL_DRAW))
        m = np.int64(hinfo[p, c])
        if m > 0:  # discard every card of the named colour; a random one ends on top
            x = below(st, S_SEAT0 + p, m)
            top = -1
            for r in range(N_ALL_RANKS):
                k = KIND_AT[c, r]
                cnt = hands[p, k]
                if cnt > 0:
                    if top < 0 and x < cnt:
                        top = k
                    x -= cnt
                    disc[k] += cnt
                    hands[p, k] = 0
            hinfo[p, c] = 0
            hinfo[p, H_MASK + c] = 0
            hinfo[p, H_TOTAL] -= m
            g[G_DISC_N] += m
            mem[MEM_DISC_C + c] += m
            count[K_CARDS_PLAYED] += m
            g[G_TOP] = top  # its rank counts; the colour stays the named one
            trace_event(rd, E_DISCARD, p, top, 0, m)
            if hinfo[p, H_TOTAL] == 0:
                win(rd, p)
            else:  # 4.4: discarding down to one card is a play: call UNO
                uno_check(tb, rd, p, np.int64(1))
    else:  # Greninja: draw until a card of the named colour, then its player renames
        trace_event(rd, E_GRENINJA, p, -1, 0, 0)
        while True:
            d = draw_one(rd, p)
            if d < 0 or COLOUR[d] == c:
                break
        mem[MEM_SHORT + p] = 0
        g[G_COLOUR] = choose_colour(tb, rd, g[G_PEND_BY], np.int64(1))
        trace_event(rd, E_COLOUR, g[G_PEND_BY], g[G_COLOUR], 0, 0)
    g[G_PEND_SPECIAL] = -1


NO_CARD = -1  # no card chosen (yet): the seat takes a normal turn
NEXT_SEAT = -2  # the seat's part is over: the next seat acts


@called
def _challenge(tb, rd, p):
    """4.3: seat ``p`` challenges the pending Wild Draw Four. Returns True when it was a
    bluff (its player draws 4; ``p`` plays on normally), False when it was legal (``p``
    draws 4 + challenge_penalty and loses its turn). The named colour stands."""
    g = rd.game_state
    count = rd.counters
    rules = fixed_rules(tb)
    count[K_CHALLENGES] += 1
    g[G_CHALLENGEABLE] = 0
    g[G_PEND_DRAW] = 0
    caught = g[G_BLUFF] == 1
    trace_event(rd, E_CHALLENGE, p, -1, F_CAUGHT if caught else 0, 0)
    if caught:
        b = g[G_PEND_BY]
        penalise(tb, rd, b)
        draw_n(rd, b, np.int64(WILD_DRAW_FOUR_PENALTY))
    else:
        draw_n(rd, p, WILD_DRAW_FOUR_PENALTY + rules[R_CHALLENGE_PENALTY])
    return caught


@inlined
def _facing_penalty(tb, rd, p, force):
    """4.3, 4.6, 8.1: seat ``p`` faces a pending Draw Two / Wild Draw Four penalty: it
    challenges (a Wild Draw Four), stacks, or draws the whole penalty and loses its turn
    (which is not a turn taken). Returns the card it stacks, NO_CARD after a caught
    bluff (``p`` plays on normally), or NEXT_SEAT. ``force`` (``turn_loop``): the
    strategy decides (``FORCE_NONE``, ``FORCE_POLICY``), or ``FORCE_CHALLENGE``, a card
    to stack, -1 to take the penalty."""
    g = rd.game_state
    policy = force == FORCE_NONE or force == FORCE_POLICY
    if g[G_CHALLENGEABLE] == 1 and (
        force == FORCE_CHALLENGE or (policy and will_challenge(tb, rd, p))
    ):
        return NO_CARD if _challenge(tb, rd, p) else NEXT_SEAT
    k = NO_CARD
    if table_rules(tb)[R_STACKING] != STACK_NONE:
        k = choose_stack(tb, rd, p) if policy else max(force, NO_CARD)
    if k >= 0:
        return k
    amount = g[G_PEND_DRAW]
    g[G_PEND_DRAW] = 0
    g[G_CHALLENGEABLE] = 0
    trace_event(rd, E_PENALTY, p, -1, 0, amount)
    draw_cards(rd, p, amount)
    return NEXT_SEAT


@inlined
def draw_lacks(tb, rd, held):
    """``MEM_SHORT`` bits the table learns when a seat holding ``held`` cards draws for
    want of a play (4.2, 8.9): under ``after_draw = play`` all that having no legal card
    shows (``legal.no_play_lacks``: the cards it keeps after drawing cannot be played
    either); under ``pass`` only that it holds none of the colour in play."""
    if fixed_rules(tb)[R_AFTER_DRAW] == AFTER_DRAW_PLAY:
        return no_play_lacks(tb, rd, held)
    return 1 << rd.game_state[G_COLOUR]


@called
def _draw_until_playable(tb, rd, p):
    """8.4: ``p``, whose first card drawn was not playable, draws until one is. Returns
    the card it plays, or NO_CARD (none left, or kept under ``after_draw = pass``)."""
    while True:
        d = draw_one(rd, p)
        if d < 0:
            return NO_CARD
        if is_legal(tb, rd, p, d):
            return d if fixed_rules(tb)[R_AFTER_DRAW] == AFTER_DRAW_PLAY else NO_CARD


@inlined
def _draw_turn(tb, rd, p):
    """4.2, 8.4, 8.9: seat ``p`` draws instead of playing. Returns the drawn card it
    plays (every strategy plays a legal drawn card), or NO_CARD: the turn ends."""
    count = rd.counters
    mem = rd.memory
    hinfo = rd.hand_summary
    rules = fixed_rules(tb)
    k = NO_CARD
    trace_event(rd, E_DRAW, p, -1, 0, 0)
    drawn = count[K_CARDS_DRAWN]
    lacks = draw_lacks(tb, rd, hinfo[ix(p), H_TOTAL])
    d = draw_one(rd, p)
    if d >= 0:
        if is_legal(tb, rd, p, d):
            if rules[R_AFTER_DRAW] == AFTER_DRAW_PLAY:  # 8.9: pass keeps it
                k = d
        elif table_rules(tb)[R_DRAW_RULE] != DRAW_ONE:
            k = _draw_until_playable(tb, rd, p)
    # a card drawn and kept is unknown: under ``play`` it was not playable (``lacks``
    # still holds, what was known before no longer does); under ``pass`` it may be any
    # card, the colour in play too; if none was kept, what was known before still holds
    kept = count[K_CARDS_DRAWN] - drawn - (1 if k >= 0 else 0)
    if kept > 0:
        mem[ix(MEM_SHORT + p)] = lacks if rules[R_AFTER_DRAW] == AFTER_DRAW_PLAY else 0
    else:
        mem[ix(MEM_SHORT + p)] |= lacks
    return k


# ``turn_loop``'s ``force`` codes besides a card (>= 0) and -1 (draw; take the penalty;
# keep the card drawn)
FORCE_NONE = -3  # every seat decides by its strategy (and may stop)
FORCE_POLICY = -2  # the first decision is the strategy's, without stopping
FORCE_CHALLENGE = -4  # challenge the pending Wild Draw Four (4.3)
FORCE_KEEP = -5  # after a stop on a legal card drawn: keep it (4.2)
FORCE_DRAWN = -6  # ... play it (``colour``: its colour or swap target, -1: the strategy's)
