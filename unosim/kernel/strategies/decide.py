"""Every strategy's decisions, inside the kernel (numba only).

The decision rules are documented, with the strategies' names, parameters and defaults,
in ``unosim/players/strategies.py`` (which holds no kernel code: editing it never forces a
recompile). Every decision function takes the round's ``state.Table`` ``tb`` and
``state.Round`` ``rd`` and the seat ``p``; it reads the seat's strategy id
``tb.strategy_ids[p]`` and parameters ``tb.strategy_params[p]`` (``layout.P_*``) and draws its
randomness
from the seat's own stream ``S_SEAT0 + p`` of ``rd.streams``. Legality comes from
``legal.py`` only; how a normal turn's cards are scored, ``scoring.py``. Every strategy
plays a legal card it has just drawn when ``after_draw = play`` (RULES.md 4.2, 8.9).
"""

import numpy as np

from ..compile.jit import called, inlined
from ..core.index import ix
from ..core.kinds import (
    COLOUR,
    DRAW_TWO,
    KIND_AT,
    N_ALL_RANKS,
    N_COLOURS,
    N_KINDS,
    N_NUMBERS,
    N_RANKS,
    RANK,
    WILD_DRAW_FOUR,
)
from ..core.layout import (
    CHALLENGE_SMART,
    DC_STACKS,
    G_DECK_N,
    G_DIR,
    G_DISC_N,
    G_N,
    G_PEND_BY,
    G_PREV_COLOUR,
    H_TOTAL,
    MEM_SHORT,
    P_BLUFF,
    P_CHALLENGE,
    P_FORGET_UNO,
    P_JUMP,
    P_STACK,
    R_CHALLENGE_PENALTY,
    R_WD4_RESTRICTION,
    S_SEAT0,
    WD4_NONE,
)
from ..core.rng import below, chance
from ..core.seats import seat
from ..outside import decisions as outside_ask
from ..outside import protocol as outside
from ..rules.family import fixed_rules
from ..rules.legal import can_stack, lone_card_blocked, wd4_allowed
from .pick import _random_legal
from .scoring import (  # noqa: F401  (the features' slots F_*, published here)
    F_ACTION,
    F_ATTACK,
    F_COLOUR,
    F_NAME_SCARCE,
    F_NAME_SHORT,
    F_POINTS,
    F_SCARCE,
    F_SHORT,
    F_SWAP,
    F_SWITCH,
    F_WILD,
    _heuristic_card,
    _name_score,
    _only_legal,
    _unseen_inverse,
    _weighted_card,
)

# strategy ids (unosim/players/strategies.py NAMES, in this order)
RANDOM, HEURISTIC, POINTS_DUMPER, AGGRESSIVE, COLOUR_COUNTER, WEIGHTED = range(6)
N_STRATEGIES = 6
OUTSIDE = outside.OUTSIDE  # a seat decided outside the kernel (``outside``): checked only
# off the ``random`` paths and on rare decisions; the checks inlined into the turn loop
# (``will_jump``, ``forgets_uno``, ``may_add``) also take ``outside``, 0 in the loop of
# the built-in rounds (``round.play_turns``), which then compiles without them
FIRST_WEIGHTED = POINTS_DUMPER  # ids from here on play by weights over the features


@inlined
def choose_card(tb, rd, p):
    """The card seat ``p`` plays on a normal turn, or -1 to draw.

    May return an illegal Wild Draw Four (a bluff) when the ``bluff`` parameter fires.
    """
    strategy_ids = tb.strategy_ids
    strategy_params = tb.strategy_params
    hands = rd.hands
    st = rd.streams
    s = S_SEAT0 + p
    if lone_card_blocked(tb, rd, p):  # 8.8: no legal play
        return -1
    if (
        hands[ix(p), WILD_DRAW_FOUR] > 0
        and strategy_params[ix(p), P_BLUFF] > 0.0
        and not wd4_allowed(tb, rd, p)
    ):
        if chance(st, s, strategy_params[ix(p), P_BLUFF]):
            return WILD_DRAW_FOUR
    if strategy_ids[ix(p)] == RANDOM:
        return _random_legal(tb, rd, p)
    only = _only_legal(tb, rd, p)
    if only != -2:
        return only
    if strategy_ids[ix(p)] == HEURISTIC:
        return _heuristic_card(tb, rd, p)
    return _weighted_card(tb, rd, p)


@called
def choose_stack(tb, rd, p):
    """A card to stack on the pending penalty (8.1), or -1 to take it."""
    strategy_ids = tb.strategy_ids
    strategy_params = tb.strategy_params
    hands = rd.hands
    st = rd.streams
    s = S_SEAT0 + p
    if lone_card_blocked(tb, rd, p):
        return -1  # 8.8: stacking one's last card, never a number card
    if fixed_rules(tb)[DC_STACKS] != 0:
        return _choose_stack_declared(tb, rd, p)
    total = 0
    for c in range(N_COLOURS):
        k = c * N_RANKS + DRAW_TWO
        if hands[p, k] > 0 and can_stack(tb, rd, k):
            total += hands[p, k]
    n4 = 0
    if hands[p, WILD_DRAW_FOUR] > 0 and can_stack(tb, rd, np.int64(WILD_DRAW_FOUR)):
        n4 = hands[p, WILD_DRAW_FOUR]
    if total + n4 == 0 or not chance(st, s, strategy_params[p, P_STACK]):
        return -1
    if strategy_ids[p] != RANDOM and total > 0:
        n4 = 0  # a Draw Two before a Wild Draw Four
    x = below(st, s, total + n4)
    for c in range(N_COLOURS):
        k = c * N_RANKS + DRAW_TWO
        if hands[p, k] > 0 and can_stack(tb, rd, k):
            x -= hands[p, k]
            if x < 0:
                return k
    return WILD_DRAW_FOUR


@called
def _choose_stack_declared(tb, rd, p):
    """``choose_stack`` when declared cards stack (docs/cards.md): with the ``stack``
    probability, one of the cards that stack, each physical card equally likely."""
    hands = rd.hands
    st = rd.streams
    s = S_SEAT0 + p
    total = np.int64(0)
    for k in range(N_KINDS):
        if hands[p, k] > 0 and can_stack(tb, rd, k):
            total += hands[p, k]
    if total == 0 or not chance(st, s, tb.strategy_params[p, P_STACK]):
        return -1
    x = below(st, s, total)
    for k in range(N_KINDS):
        if hands[p, k] > 0 and can_stack(tb, rd, k):
            x -= hands[p, k]
            if x < 0:
                return k
    return -1


@inlined
def choose_colour(tb, rd, p, outside):
    """The colour seat ``p`` names after a wild-type card: the best-scored one, ties
    broken uniformly (random: uniformly among the four); ``outside``: 0 if no seat is
    an outside one."""
    if tb.strategy_ids[ix(p)] == RANDOM:  # inlined: no call on the path of the most played strategy
        return below(rd.streams, S_SEAT0 + p, N_COLOURS)
    if outside != 0 and tb.strategy_ids[p] == OUTSIDE:
        return outside_ask.colour(tb, rd, p)
    return _scored_colour(tb, rd, p)


@called
def _scored_colour(tb, rd, p):
    """``choose_colour`` of the strategies that score the colours."""
    strategy_ids = tb.strategy_ids
    g = rd.game_state
    hinfo = rd.hand_summary
    st = rd.streams
    s = S_SEAT0 + p
    per_card = 1.0 / max(1, hinfo[p, H_TOTAL])
    short = 0
    inv = 0.0
    if strategy_ids[p] >= FIRST_WEIGHTED:
        short = rd.memory[MEM_SHORT + seat(p, g[G_DIR], g[G_N])]
        inv = _unseen_inverse(tb, rd, p)
    best = -1e18
    ties = 0
    for c in range(N_COLOURS):
        v = _name_score(tb, rd, p, c, per_card, short, inv)
        if v > best:
            best = v
            ties = 1
        elif v == best:
            ties += 1
    x = below(st, s, ties)
    for c in range(N_COLOURS):
        if _name_score(tb, rd, p, c, per_card, short, inv) == best:
            if x == 0:
                return c
            x -= 1
    return 0


@called
def choose_target(tb, rd, p):
    """The opponent seat ``p`` swaps hands with (Seven-Zero 7, Wild Customizable)."""
    strategy_ids = tb.strategy_ids
    g = rd.game_state
    hinfo = rd.hand_summary
    st = rd.streams
    n = g[G_N]
    if strategy_ids[p] == RANDOM:
        q = below(st, S_SEAT0 + p, n - 1)
        return q if q < p else q + 1
    if strategy_ids[p] == OUTSIDE:
        return outside_ask.target(tb, rd, p)
    best = -1
    for i in range(1, n):
        q = seat(p, i * g[G_DIR], n)
        if best < 0 or hinfo[q, H_TOTAL] < hinfo[best, H_TOTAL]:
            best = q
    return best


@inlined
def will_jump(tb, rd, q, outside):
    """Does seat ``q`` jump in (8.3)? ``outside``: 0 if no seat is an outside one."""
    if outside != 0 and tb.strategy_ids[ix(q)] == OUTSIDE:
        return outside_ask.jumps(tb, rd, q)
    return chance(rd.streams, S_SEAT0 + q, tb.strategy_params[ix(q), P_JUMP])


@inlined
def forgets_uno(tb, rd, p, outside):
    """Does seat ``p`` stay silent instead of saying UNO (4.4)? ``outside``: 0 if no
    seat is an outside one."""
    if outside != 0 and tb.strategy_ids[ix(p)] == OUTSIDE:
        return outside_ask.forgets(tb, rd, p)
    return chance(rd.streams, S_SEAT0 + p, tb.strategy_params[ix(p), P_FORGET_UNO])


@inlined
def will_challenge(tb, rd, p):
    """Does seat ``p`` challenge the pending Wild Draw Four (4.3)?"""
    strategy_params = tb.strategy_params
    g = rd.game_state
    rules = fixed_rules(tb)
    hands = rd.hands
    hinfo = rd.hand_summary
    disc = rd.disc
    deck = tb.deck
    st = rd.streams
    pc = strategy_params[ix(p), P_CHALLENGE]
    if pc != CHALLENGE_SMART:
        return chance(st, S_SEAT0 + p, pc)
    # smart (rule 6 of the strategies docstring): challenge when the expected cards won
    # beat the expected cards lost, given the bluff rate of the player of the card
    b = strategy_params[g[G_PEND_BY], P_BLUFF]
    if b <= 0.0 or rules[R_WD4_RESTRICTION] == WD4_NONE:
        return False  # it never bluffs, or no play of it is illegal
    # q = P(it held a card of the previous colour), from the cards p cannot see
    prev = g[G_PREV_COLOUR]
    unseen_c = 0
    for r in range(N_ALL_RANKS):
        k = KIND_AT[prev, r]
        unseen_c += deck[k] - hands[p, k] - disc[k]
    unseen = g[G_DECK_N] - hinfo[p, H_TOTAL] - g[G_DISC_N]
    if unseen <= 0 or unseen_c <= 0:
        return False
    h = hinfo[g[G_PEND_BY], H_TOTAL]
    p_none = 1.0
    for i in range(h):  # hypergeometric: none of h unseen cards has the colour
        if unseen - i <= 0:
            break
        p_none *= max(0.0, (unseen - unseen_c - i) / (unseen - i))
    # P(bluff | it played the card) = q b / (q b + (1 - q)): a legal one taken as always
    # played (a lower bound of the bluff probability; under `strict` a lower one still,
    # since other legal cards also forbid it)
    q_b = (1.0 - p_none) * b
    bluff = q_b / (q_b + p_none)
    return 4.0 * bluff > rules[R_CHALLENGE_PENALTY] * (1.0 - bluff)


@inlined
def may_add(tb, rd, p, k, outside):
    """8.6: may seat ``p`` add a card after playing ``k`` alone so far? Exactly when
    ``next_extra`` would give one, which uses no random draw; an outside seat is always
    asked (``outside``: 0 if no seat is one). ``effects.play`` calls the multi-card
    loop, a call that is not inlined and costs a third of a turn, only then (``random``
    never adds one)."""
    if outside != 0 and tb.strategy_ids[p] == OUTSIDE:
        return True
    return next_extra(tb, rd, p, k, k, np.int64(0), outside) >= 0


@inlined
def next_extra(tb, rd, p, first, last, step, outside):
    """8.6 multi-card play: the next card seat ``p`` adds after ``last``, or -1.

    ``first`` is the turn's first card; ``step`` the run direction so far (0 if none);
    ``outside``: 0 if no seat is an outside one. Returns the kind; the caller derives
    the new step from it.
    """
    strategy_ids = tb.strategy_ids
    hands = rd.hands
    if strategy_ids[p] == RANDOM:
        return -1  # random plays only one card (RULES.md section 10)
    if outside != 0 and strategy_ids[p] == OUTSIDE:
        return outside_ask.extra(tb, rd, p, first, last, step)
    if step == 0 and hands[p, first] > 0:
        return first  # identical copies first
    r = RANK[last]
    if r >= N_NUMBERS:
        return -1
    c = COLOUR[last]
    if step >= 0 and r + 1 < N_NUMBERS and hands[p, c * N_RANKS + r + 1] > 0:
        return c * N_RANKS + r + 1
    if step <= 0 and r - 1 >= 0 and hands[p, c * N_RANKS + r - 1] > 0:
        return c * N_RANKS + r - 1
    return -1
