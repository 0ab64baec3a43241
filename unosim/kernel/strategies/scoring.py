"""How the built-in strategies score the cards they may play (numba only): the only
legal card, the ``heuristic``'s tiers and the weighted family's ``weights . features``,
with the colour scores they share (``choose_colour``); ``random``'s pick is ``pick.py``.
A declared card is scored from its declaration's summary (``declared.props``).

The rules are documented, with the strategies' names, parameters and defaults, in
``unosim/players/strategies.py``; ``decide`` calls these for a seat's normal turn. They
take the round's ``state.Table`` ``tb`` and ``state.Round`` ``rd`` and the seat ``p``.
"""

from ..compile.jit import called, inlined
from ..core.kinds import (
    ATTACK_HEADS_UP,
    ATTACK_NEXT,
    ATTACK_NONE,
    ATTACK_OTHERS,
    KIND_AT,
    N_BUILTIN_KINDS,
    N_COLOURED,
    N_COLOURS,
    RANK,
    SWAP_ALL,
    SWAP_ONE,
    SWAP_ROTATE,
)
from ..core.layout import (
    BLANK_SWAP_HANDS,
    G_COLOUR,
    G_DIR,
    G_N,
    G_TOP,
    H_TOTAL,
    MEM_DECK_C,
    MEM_DISC_C,
    MEM_SHORT,
    N_WEIGHTS,
    P_W,
    R_BLANK_CARD,
    R_SEVEN_ZERO,
)
from ..core.seats import seat
from ..rules.declared import props
from ..rules.family import fixed_rules, table_rules
from ..rules.legal import legal_ranks, legal_wilds
from .pick import BIT_INDEX

# feature indices of the weighted family (unosim/players/strategies.py FEATURES, in this order)
(
    F_POINTS,
    F_COLOUR,
    F_WILD,
    F_ACTION,
    F_ATTACK,
    F_SWITCH,
    F_SHORT,
    F_SCARCE,
    F_SWAP,
    F_NAME_SHORT,
    F_NAME_SCARCE,
) = range(N_WEIGHTS)

# scores of the heuristic (strategies.py rules 2-3): tiers that keep the order of
# preference whatever the tie-breaks add
H_BASE = 100.0  # a coloured card
H_PER_HELD = 10.0  # per card of its colour held
H_ATTACK = 1000.0  # Draw Two / Skip (/ Reverse with 2 players) against a next player on <= 2
H_ATTACK_D2 = 500.0  # more for a Draw Two
H_SEVEN = 300.0  # a 7 under Seven-Zero when an opponent holds fewer cards
H_PLAIN_WILD = -1000.0  # a plain wild: kept for when nothing else fits
H_ATTACK_WILD = -900.0  # Wild Draw Four, Snorlax, Greninja, Grayskull
H_ATTACK_WILD_DANGER = 3000.0  # ... first of all against a next player on <= 2
H_SWAP_WILD = 600.0  # Shuffle Hands / Customizable when they even out the hands
DANGER = 2  # cards of the next player at which the heuristic attacks


@inlined
def _only_legal(tb, rd, p):
    """The kind of ``p``'s only legal card (copies aside); -1 if none, -2 if several.
    Then no scoring is needed: every strategy plays it."""
    g = rd.game_state
    cur = g[G_COLOUR]
    r_top = RANK[g[G_TOP]]
    found = -1
    for c in range(N_COLOURS):
        m = legal_ranks(tb, rd, p, c, cur, r_top)
        if m != 0:
            if found != -1 or (m & (m - 1)) != 0:
                return -2
            found = KIND_AT[c, BIT_INDEX[m]]
    m = legal_wilds(tb, rd, p)
    if m != 0:
        if found != -1 or (m & (m - 1)) != 0:
            return -2
        found = N_COLOURED + BIT_INDEX[m]
    return found


@inlined
def _heuristic_card(tb, rd, p):
    """The heuristic's play (rules 2-3 of strategies.py's docstring), or -1.

    Inlined (as ``_weighted_card``): a call that is not passes both state records whole,
    which made heuristic and weighted turns 12-20% slower than the layout before them.

    Scores the legal cards in kind order and keeps the first best, visiting only the
    kinds held that can be legal (``legal_ranks``, then the wild-type kinds held)."""
    g = rd.game_state
    rules = fixed_rules(tb)
    hinfo = rd.hand_summary
    points = tb.points
    n = g[G_N]
    nxt = seat(p, g[G_DIR], n)
    danger = hinfo[nxt, H_TOTAL] <= DANGER
    mine = hinfo[p, H_TOTAL] - 1  # cards left after this play
    fewest = -1  # opponents' fewest and total cards, counted when first needed
    others = 0
    cur = g[G_COLOUR]
    r_top = RANK[g[G_TOP]]
    best = -1
    best_s = -1e18
    for c in range(N_COLOURS):
        m = legal_ranks(tb, rd, p, c, cur, r_top)
        held = hinfo[p, c]
        while m != 0:
            low = m & -m
            m ^= low
            r = BIT_INDEX[low]
            k = KIND_AT[c, r]
            sc = H_BASE + H_PER_HELD * held + points[k] / 10.0
            a, drawn, swap = props(tb, k)
            if danger:
                if a == ATTACK_NEXT or a == ATTACK_OTHERS or (a == ATTACK_HEADS_UP and n == 2):
                    sc += H_ATTACK + (H_ATTACK_D2 if drawn > 0 else 0.0)
            if swap == SWAP_ONE and (table_rules(tb)[R_SEVEN_ZERO] == 1 or k >= N_BUILTIN_KINDS):
                if fewest < 0:
                    fewest, others = _others(rd, p)
                if fewest < mine:
                    sc += H_SEVEN
            if sc > best_s:
                best_s = sc
                best = k
    m = legal_wilds(tb, rd, p)
    while m != 0:
        low = m & -m
        m ^= low
        k = N_COLOURED + BIT_INDEX[low]
        sc = H_PLAIN_WILD  # a plain wild is kept for when nothing else fits
        a, drawn, swap = props(tb, k)
        if a != ATTACK_NONE:
            sc = H_ATTACK_WILD + (H_ATTACK_WILD_DANGER if danger else 0.0)
        elif swap == SWAP_ALL or (
            swap == SWAP_ONE and (rules[R_BLANK_CARD] == BLANK_SWAP_HANDS or k >= N_BUILTIN_KINDS)
        ):
            if fewest < 0:
                fewest, others = _others(rd, p)
            if swap == SWAP_ALL:
                if mine * (n - 1) > others + (n - 1):
                    sc = H_SWAP_WILD  # more cards than the average opponent: even them out
            elif fewest < mine:
                sc = H_SWAP_WILD  # swap with the opponent holding fewest cards
        if sc > best_s:
            best_s = sc
            best = k
    return best


@inlined
def _unseen(rd, p, c):
    """Cards of colour ``c`` that ``p`` cannot see: in other hands or the draw pile."""
    return rd.memory[MEM_DECK_C + c] - rd.hand_summary[p, c] - rd.memory[MEM_DISC_C + c]


@called
def _others(rd, p):
    """(fewest cards of an opponent, cards of all opponents)."""
    g = rd.game_state
    hinfo = rd.hand_summary
    fewest = 1000
    others = 0
    for q in range(g[G_N]):
        if q != p:
            others += hinfo[q, H_TOTAL]
            fewest = min(fewest, hinfo[q, H_TOTAL])
    return fewest, others


@called
def _unseen_inverse(tb, rd, p):
    """1 / the coloured cards ``p`` cannot see, for ``_scarce``; 0 when ``p`` gives
    scarcity no weight (then every ``_scarce`` is 0) or sees every card."""
    strategy_params = tb.strategy_params
    if strategy_params[p, P_W + F_SCARCE] == 0.0 and strategy_params[p, P_W + F_NAME_SCARCE] == 0.0:
        return 0.0
    t = 0
    for c in range(N_COLOURS):
        t += _unseen(rd, p, c)
    return 1.0 / t if t > 0 else 0.0


@inlined
def _scarce(rd, p, c, inv):
    """1/4 minus colour ``c``'s share of the coloured cards ``p`` cannot see (positive:
    the others are short of it); ``inv`` from ``_unseen_inverse``."""
    if inv == 0.0:
        return 0.0
    return 0.25 - _unseen(rd, p, c) * inv


@inlined
def _name_score(tb, rd, p, c, per_card, short, inv):
    """How much ``p`` wants to name colour ``c``; ``per_card`` = 1 / cards left in hand."""
    strategy_params = tb.strategy_params
    hinfo = rd.hand_summary
    return (
        hinfo[p, c] * per_card
        + strategy_params[p, P_W + F_NAME_SHORT] * ((short >> c) & 1)
        + strategy_params[p, P_W + F_NAME_SCARCE] * _scarce(rd, p, c, inv)
    )


@inlined
def _weighted_card(tb, rd, p):
    """The weighted family's play: the legal card of highest ``weights . features``
    (``FEATURES``, module docstring), the first in kind order on ties; -1 if none.
    Divisions are hoisted out of the loops (a division costs ~5 multiplications)."""
    strategy_params = tb.strategy_params
    g = rd.game_state
    rules = fixed_rules(tb)
    hinfo = rd.hand_summary
    points = tb.points
    w = P_W
    n = g[G_N]
    d = g[G_DIR]
    nxt = seat(p, d, n)
    left = hinfo[p, H_TOTAL] - 1  # cards left after this play
    per_card = 1.0 / max(1, left)
    threat = 1.0 / max(1, hinfo[nxt, H_TOTAL])
    fewest = -1  # opponents' fewest and total cards, counted when first needed
    others = 0
    short = rd.memory[MEM_SHORT + nxt]
    inv = _unseen_inverse(tb, rd, p)
    w_points = strategy_params[p, w + F_POINTS] * 0.02  # per point: points / 50
    w_colour = strategy_params[p, w + F_COLOUR] * per_card
    w_swap = strategy_params[p, w + F_SWAP] * (1.0 / 7.0)
    cur = g[G_COLOUR]
    r_top = RANK[g[G_TOP]]
    best = -1
    best_s = -1e18
    for c in range(N_COLOURS):
        m = legal_ranks(tb, rd, p, c, cur, r_top)
        if m == 0:
            continue
        same = (
            w_colour * (hinfo[p, c] - 1)
            + strategy_params[p, w + F_SHORT] * ((short >> c) & 1)
            + strategy_params[p, w + F_SCARCE] * _scarce(rd, p, c, inv)
        )
        if c != cur:
            same += strategy_params[p, w + F_SWITCH]
        while m != 0:
            low = m & -m
            m ^= low
            r = BIT_INDEX[low]
            k = KIND_AT[c, r]
            sc = same + w_points * points[k]
            a, drawn, swap = props(tb, k)
            if a != ATTACK_NONE:  # the action cards
                sc += strategy_params[p, w + F_ACTION]
                if a == ATTACK_NEXT or n == 2:
                    sc += strategy_params[p, w + F_ATTACK] * threat
                elif a == ATTACK_OTHERS:  # a declared card against others or a chosen one
                    if fewest < 0:
                        fewest, others = _others(rd, p)
                    sc += strategy_params[p, w + F_ATTACK] / max(1, fewest)
            elif table_rules(tb)[R_SEVEN_ZERO] == 1 or k >= N_BUILTIN_KINDS:
                if swap == SWAP_ONE:  # a 7 swaps with the opponent holding fewest cards
                    if fewest < 0:
                        fewest, others = _others(rd, p)
                    sc += w_swap * (left - fewest)
                elif swap == SWAP_ROTATE:  # a 0: receives the hand of the player before
                    sc += w_swap * (left - hinfo[seat(p, -d, n), H_TOTAL])
            if sc > best_s:
                best_s = sc
                best = k
    m = legal_wilds(tb, rd, p)
    if m == 0:
        return best
    named = 0  # the colour it would name (choose_colour, without its random tie-break)
    top = -1e18
    for c in range(N_COLOURS):
        v = _name_score(tb, rd, p, c, per_card, short, inv)
        if v > top:
            top = v
            named = c
    same = (
        w_colour * hinfo[p, named]
        + strategy_params[p, w + F_SHORT] * ((short >> named) & 1)
        + strategy_params[p, w + F_SCARCE] * _scarce(rd, p, named, inv)
    )
    if named != cur:
        same += strategy_params[p, w + F_SWITCH]
    while m != 0:
        low = m & -m
        m ^= low
        k = N_COLOURED + BIT_INDEX[low]
        sc = same + w_points * points[k]
        a, drawn, swap = props(tb, k)
        if a == ATTACK_NEXT or a == ATTACK_HEADS_UP:
            sc += strategy_params[p, w + F_ACTION] + strategy_params[p, w + F_ATTACK] * threat
        elif a == ATTACK_OTHERS:
            if fewest < 0:
                fewest, others = _others(rd, p)
            sc += strategy_params[p, w + F_ACTION] + strategy_params[p, w + F_ATTACK] / max(
                1, fewest
            )
        else:
            sc += strategy_params[p, w + F_WILD]
            if swap == SWAP_ALL or (
                swap == SWAP_ONE
                and (rules[R_BLANK_CARD] == BLANK_SWAP_HANDS or k >= N_BUILTIN_KINDS)
            ):
                if fewest < 0:
                    fewest, others = _others(rd, p)
                if swap == SWAP_ALL:  # everyone ends with about the average hand
                    sc += w_swap * (left - (others + left) / n)
                else:
                    sc += w_swap * (left - fewest)
        if sc > best_s:
            best_s = sc
            best = k
    return best
