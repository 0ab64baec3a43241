"""One round: setup (RULES.md 3), the turn loop (4, 8) and its record (5, 6).

Like every kernel function, these take the round's ``state.Table`` ``tb`` and
``state.Round`` ``rd`` (their fields' shapes and dtypes: ``state``), then scalars.
"""

import numpy as np

from ..compile.jit import called, inlined
from ..core.index import ix
from ..core.kinds import (
    COLOUR,
    DRAW_TWO,
    DRAW_TWO_PENALTY,
    N_KINDS,
    RANK,
    REVERSE,
    SKIP,
    WILD_DRAW_FOUR,
)
from ..core.layout import (
    C_BLUFFS,
    C_CARDS_DRAWN,
    C_CARDS_PLAYED,
    C_CHALLENGES,
    C_FIRST,
    C_HAND_POINTS,
    C_HAND_SIZE,
    C_MAX_STACK,
    C_PENALTY_POINTS,
    C_POINTS,
    C_RESHUFFLES,
    C_TRUNCATED,
    C_TURNS,
    C_UNO_PENALTIES,
    C_WINNER,
    E_COLOUR,
    E_DEAL,
    E_RETURN,
    E_SKIPPED,
    E_START,
    E_TRUNCATED,
    E_WIN,
    G_COLOUR,
    G_DECK_N,
    G_DIR,
    G_DISC_N,
    G_DRAWN,
    G_FIRST,
    G_N,
    G_OVER,
    G_PEND_DRAW,
    G_PEND_SKIP,
    G_PEND_SPECIAL,
    G_PILE_N,
    G_SKIPS,
    G_TOP,
    G_WINNER,
    H_TOTAL,
    K_BLUFFS,
    K_CARDS_DRAWN,
    K_CARDS_PLAYED,
    K_CHALLENGES,
    K_MAX_STACK,
    K_RESHUFFLES,
    K_TURNS,
    K_UNO_PENALTIES,
    MEM_DECK_C,
    MEM_DISC_C,
    MEM_SHORT,
    N_G,
    N_H,
    N_K,
    N_MEM,
    N_TR,
    PLAY_DRAWN,
    PLAY_HAND,
    PLAY_STACK,
    R_HAND_SIZE,
    R_MAX_TURNS,
    S_DEAL,
    TR_SCRIPTED,
)
from ..core.piles import deal, draw_n, hand_points, take
from ..core.rng import below
from ..core.seats import seat
from ..core.trace import trace_event
from ..rules.effects import play
from ..rules.family import fixed_rules
from ..rules.legal import wd4_allowed
from ..rules.outcome import OVER_WON, take_turn
from ..rules.pending import (
    FORCE_KEEP,
    FORCE_NONE,
    FORCE_POLICY,
    NEXT_SEAT,
    NO_CARD,
    _draw_turn,
    _facing_penalty,
    _special,
    draw_lacks,
)
from ..strategies.decide import FIRST_WEIGHTED, choose_card, choose_colour


@called
def setup(tb, rd, n, order, scripted):
    """3: shuffle, deal, turn the first card and apply its setup effect.

    ``order`` holds every card of the deck (``deck`` counts them per kind). Unscripted,
    its order does not matter (draws are random, see ``piles``); scripted, its last
    element is dealt first. Returns the seat that takes the first turn.

    A call, not inlined (``called``): once a round, it costs no measurable speed per
    turn and inlining its tree took a third of the cold compile (docs/performance.md)."""
    g = rd.game_state
    count = rd.counters
    mem = rd.memory
    tr = rd.trace_flags
    hands = rd.hands
    hinfo = rd.hand_summary
    pile = rd.pile
    disc = rd.disc
    st = rd.streams
    rules = fixed_rules(tb)
    strategy_ids = tb.strategy_ids
    deck = tb.deck
    for i in range(N_G):
        g[i] = 0
    for i in range(N_K):
        count[i] = 0
    for i in range(N_MEM):
        mem[i] = 0
    for i in range(N_TR):
        tr[i] = 0
    g[G_N] = n
    g[G_DIR] = 1
    g[G_PEND_SPECIAL] = -1
    g[G_WINNER] = -1
    tr[TR_SCRIPTED] = scripted
    m = order.size
    for i in range(m):
        pile[i] = order[i]
    for k in range(N_KINDS):
        disc[k] = 0
    g[G_DECK_N] = m
    g[G_PILE_N] = m
    for q in range(n):
        if strategy_ids[q] >= FIRST_WEIGHTED:  # card counters know the colours of the deck
            for k in range(N_KINDS):
                if COLOUR[k] >= 0:
                    mem[MEM_DECK_C + COLOUR[k]] += deck[k]
            break
    for q in range(n):
        for k in range(N_KINDS):
            hands[q, k] = 0
        for j in range(N_H):
            hinfo[q, j] = 0
    h = rules[R_HAND_SIZE]
    deal(rd, n, h)
    trace_event(rd, E_DEAL, -1, -1, 0, 0)
    # turn the top card; a Wild Draw Four goes back at a uniformly random position
    while True:
        k = take(rd)
        if k != WILD_DRAW_FOUR:
            break
        m = g[G_PILE_N]
        j = m  # unscripted piles have no order: back anywhere is back at random
        if scripted == 1:
            j = below(st, S_DEAL, m + 1)  # position among the m + 1 slots
        for i in range(m, j, -1):
            pile[i] = pile[i - 1]
        pile[j] = k
        g[G_PILE_N] = m + 1
        trace_event(rd, E_RETURN, -1, k, 0, j)
    disc[k] = 1
    g[G_DISC_N] = 1
    if COLOUR[k] >= 0:
        mem[MEM_DISC_C + COLOUR[k]] = 1
    g[G_TOP] = k
    if COLOUR[k] < 0:  # wild-type: seat 0 names the colour; no other effect
        g[G_COLOUR] = choose_colour(tb, rd, np.int64(0), np.int64(1))
        trace_event(rd, E_COLOUR, 0, g[G_COLOUR], 0, 0)
        return 0
    g[G_COLOUR] = COLOUR[k]
    r = RANK[k]  # a coloured declared card: no effect at setup (docs/cards.md)
    if r == SKIP:
        return 1
    if r == REVERSE:
        if n == 2:
            return 1  # acts as Skip: the dealer plays first
        g[G_DIR] = -1
        return n - 1
    if r == DRAW_TWO:  # seat 0 draws 2 and is skipped, at once
        draw_n(rd, np.int64(0), np.int64(DRAW_TWO_PENALTY))
        count[K_MAX_STACK] = DRAW_TWO_PENALTY
        return 1
    return 0


@inlined
def play_round(tb, rd, n, order, scripted):
    """Play one round to its end or to ``max_turns``; the outcome stays in ``rd``.

    The loop: a pending penalty (``_facing_penalty``: challenge 4.3, stack 8.1, draw
    4.6), a skip (4.6), the turn limit (``take_turn``, 6), Snorlax / Greninja turns
    (``_special``, 2), a normal turn (``decide.choose_card``, 4.1-4.3, 8.8, 8.10) or a
    draw (``_draw_turn``, 4.2, 8.4, 8.9), then the play and all it sets off
    (``effects.play``: multi-play 8.6, UNO 4.4, end of round 5, effects, jump-ins 8.3).

    Parameters
    ----------
    tb : state.Table, what the round is played with (rules, strategies, deck, points)
    rd : state.Round, every array the round writes; its game state, counters, memory and
        flags are reset here (shapes and dtypes: ``state``)
    n : players; order : int8[deck size], the deck (see ``setup``); scripted : 0 or 1
    """
    p = start_round(tb, rd, n, order, scripted)
    p = play_turns(tb, rd, n, p)
    end_round(rd, p)


@inlined
def start_round(tb, rd, n, order, scripted):
    """Setup (3) and the round's start event; returns the first seat to act."""
    g = rd.game_state
    pen = rd.penalties
    p = setup(tb, rd, n, order, scripted)
    g[G_FIRST] = p
    trace_event(rd, E_START, p, g[G_TOP], 0, 0)
    for q in range(n):
        pen[q] = 0
    return p


@inlined
def end_round(rd, p):
    g = rd.game_state
    if g[G_OVER] == OVER_WON:
        trace_event(rd, E_WIN, g[G_WINNER], -1, 0, 0)
    else:
        trace_event(rd, E_TRUNCATED, p, -1, 0, 0)


@called
def turn_loop(tb, rd, n, p, stop, force, colour):
    """``_turns`` for the expert and the outside seats: its play-outs and its rounds'
    stops, with any seat maybe an outside one."""
    return _turns(tb, rd, n, p, stop, force, colour, np.int64(1))


@called
def play_turns(tb, rd, n, p):
    """``_turns`` without stops, forced choices or outside seats, for every round
    without an expert or an outside seat: ``_turns`` is inlined here with those
    arguments constant, and the compiler drops what serves only the expert (which made
    a ``random`` turn about 4% slower) and the outside seats' checks (which never fire
    here, yet cost Jump-In turns of ``heuristic`` players some 2-7%:
    notes/turn-loop-cost.md)."""
    return _turns(tb, rd, n, p, np.int64(0), np.int64(FORCE_NONE), np.int64(-1), np.int64(0))


@inlined
def _turns(tb, rd, n, p, stop, force, colour, outside):
    """The turns of a round from seat ``p``'s, in any state a turn starts from, until the
    round is over (``rd.game_state[G_OVER]`` set) or a stop; returns the seat to act next.

    ``stop``: bit mask of seats whose decisions stop the loop before they are made,
    returning that seat with ``rd.game_state[G_OVER] == 0`` (the ``expert`` searches there,
    ``kernel/expert/rounds.py``): a normal turn (nothing pending, 4.2), a pending Draw Two /
    Wild Draw Four (``G_PEND_DRAW`` > 0: challenge, stack or take it, 4.3, 8.1), a legal
    card just drawn (``G_DRAWN`` = the card + 1: play or keep it, 4.2). ``force``: the
    first decision's choice: on a normal turn a card (``colour``: the colour named after
    it if wild-type, the seat a 7 swaps with under Seven-Zero, -1: the strategy's) or
    -1 to draw; facing a penalty ``FORCE_CHALLENGE``, a card to stack (``colour`` as
    above) or -1 to take it; after a stop on a drawn card ``FORCE_DRAWN`` (play it,
    ``colour`` as above) or ``FORCE_KEEP``; ``FORCE_POLICY`` the strategy's choice,
    ``FORCE_NONE`` no first choice. ``outside``: 0 if no seat is an outside one
    (``decide.OUTSIDE``; its checks then compile away), 1 if any may be."""
    g = rd.game_state
    count = rd.counters
    mem = rd.memory
    hinfo = rd.hand_summary
    rules = fixed_rules(tb)
    while g[G_OVER] == 0:
        if (
            force == FORCE_NONE
            and stop != 0
            and (stop >> p) & 1 == 1
            and g[G_PEND_SKIP] == 0
            and g[G_PEND_SPECIAL] < 0
            and g[ix(G_SKIPS + p)] == 0
            and count[K_TURNS] < rules[R_MAX_TURNS]
        ):
            return p
        k = NO_CARD  # the card played this turn; one call site of ``play`` (it is inlined)
        how = PLAY_STACK
        bluff = False
        if g[G_PEND_DRAW] > 0:
            k = _facing_penalty(tb, rd, p, force)
            force = FORCE_NONE
            if k == NEXT_SEAT:
                p = seat(p, g[G_DIR], n)
                continue
            if k == NO_CARD and (stop >> p) & 1 == 1:
                continue  # a caught bluff: the stopping seat's normal turn stops first
        if k < 0 and g[G_PEND_SKIP] > 0:  # 4.6: a skipped player takes no turn
            g[G_PEND_SKIP] -= 1
            trace_event(rd, E_SKIPPED, p, -1, 0, 0)
            p = seat(p, g[G_DIR], n)
            continue
        # a skip a declared card left for p (docs/cards.md), after the penalty, Snorlax or
        # Greninja waiting for p, which p meets first
        if k < 0 and g[ix(G_SKIPS + p)] > 0 and g[G_PEND_SPECIAL] < 0:
            g[ix(G_SKIPS + p)] -= 1
            trace_event(rd, E_SKIPPED, p, -1, 0, 0)
            p = seat(p, g[G_DIR], n)
            continue
        if force <= FORCE_KEEP:  # the turn stopped on a legal card drawn goes on
            k = g[G_DRAWN] - 1
            g[G_DRAWN] = 0
            how = PLAY_DRAWN
            if force == FORCE_KEEP:  # the table takes the kept card for an unplayable one
                mem[MEM_SHORT + p] = draw_lacks(tb, rd, hinfo[p, H_TOTAL] - 1)
                k = NO_CARD
            force = FORCE_NONE
            if k < 0:
                p = seat(p, g[G_DIR], n)
                continue
        elif not take_turn(tb, rd):
            break
        if k < 0:  # not a stack (8.1, the penalty passes on grown): a normal turn
            if g[G_PEND_SPECIAL] >= 0:
                _special(tb, rd, p)
                p = seat(p, g[G_DIR], n)
                continue
            if force == FORCE_NONE or force == FORCE_POLICY:
                k = choose_card(tb, rd, p)  # 4.2
            else:
                k = force
            force = FORCE_NONE
            if k >= 0:
                bluff = k == WILD_DRAW_FOUR and not wd4_allowed(tb, rd, p)
                if bluff:
                    count[K_BLUFFS] += 1
                how = PLAY_HAND
            else:
                how = PLAY_DRAWN
                k = _draw_turn(tb, rd, p)
                if k < 0:
                    p = seat(p, g[G_DIR], n)
                    continue
                if (stop >> p) & 1 == 1:  # the stopping seat decides on the card drawn
                    g[G_DRAWN] = k + 1
                    return p
        p = play(tb, rd, p, k, how, bluff, colour, outside)
        colour = -1
        p = seat(p, g[G_DIR], n)
    return p


@inlined
def record(tb, rd, out_row, n):
    """Write the RULES.md section 6 row of the finished round into ``out_row``."""
    g = rd.game_state
    count = rd.counters
    hinfo = rd.hand_summary
    pen = rd.penalties
    won = g[G_OVER] == OVER_WON
    w = g[G_WINNER] if won else -1
    out_row[C_WINNER] = w
    out_row[C_FIRST] = g[G_FIRST]
    out_row[C_TURNS] = count[K_TURNS]
    out_row[C_CARDS_PLAYED] = count[K_CARDS_PLAYED]
    out_row[C_CARDS_DRAWN] = count[K_CARDS_DRAWN]
    out_row[C_RESHUFFLES] = count[K_RESHUFFLES]
    out_row[C_MAX_STACK] = count[K_MAX_STACK]
    out_row[C_CHALLENGES] = count[K_CHALLENGES]
    out_row[C_BLUFFS] = count[K_BLUFFS]
    out_row[C_UNO_PENALTIES] = count[K_UNO_PENALTIES]
    out_row[C_TRUNCATED] = 0 if won else 1
    total = 0
    for q in range(n):
        hp = hand_points(tb, rd, q)
        out_row[C_HAND_POINTS + q] = hp
        out_row[C_HAND_SIZE + q] = hinfo[q, H_TOTAL]
        out_row[C_PENALTY_POINTS + q] = pen[q]
        if q != w:
            total += hp
    out_row[C_POINTS] = total if won else 0
