"""Player strategies: integer ids and parameter arrays, decided inside the kernel.

Every decision function takes the seat's strategy id ``sid[p]`` and its parameters
``sp[p]`` (``layout.P_*``) and draws its randomness from the seat's own stream
``S_SEAT0 + p``.

``random`` (RULES.md section 10, to the letter): plays a legal card chosen uniformly
among the legal cards in its hand, each physical card equally likely, and only that card
(also under ``multi_play``); facing a penalty under stacking, the same among its
stackable cards; never draws voluntarily; always plays a legal drawn card; names a colour
uniformly among the four; swaps with an opponent chosen uniformly; always jumps in;
never bluffs, challenges or forgets UNO. Its parameters (``random:bluff=0.2`` ...) can
add bluffs, challenges and forgotten calls on top of that; its defaults are the spec.

``heuristic`` (a human-like player):
  1. Facing a penalty it can stack on: stacks (probability ``stack``), a Draw Two before
     a Wild Draw Four.
  2. Otherwise it plays a legal card, never drawing while it has one. Coloured cards
     come before wild-type cards, which it keeps for when nothing else fits. Among
     coloured cards it prefers the colour it holds most (so it keeps control of the
     colour), then the higher points (dumping value). When the next player holds two
     cards or fewer it attacks first: Draw Two, then Skip (and Reverse with 2 players),
     then a legal Wild Draw Four and the attacking special wilds. Under Seven-Zero it
     plays a 7 early when an opponent holds fewer cards than it will.
  3. Wild-type cards: Wild Shuffle Hands when it holds more cards than the average
     opponent, Wild Customizable (``swap_hands``) when an opponent holds fewer cards than
     it will, otherwise both are kept like a plain Wild; Wild Draw Four (when legal),
     Snorlax, Greninja and Powers of Grayskull before a plain Wild, and first of all
     when the next player is close to going out. (Playing Grayskull at once made rounds
     of 5 players loop: every reshuffle handed the last Grayskull back to be played
     again, and a quarter of the rounds reached max_turns.) After Greninja it names
     again the colour it holds most.
  4. It names the colour it holds most (ties broken uniformly), and swaps hands with the
     opponent holding the fewest cards (the first in the direction of play on ties).
  5. It always plays a legal drawn card, always jumps in (probability ``jump``), and
     with ``multi_play`` adds every identical copy, then a same-colour run upward (or,
     if none, downward) from a number.
  6. Challenge policy ``smart`` by default: challenge when the chance that the player
     of the Wild Draw Four still held a card of the previous colour is above 1/3,
     where challenging costs 6 against 4 (estimated from the cards it cannot see).

The weighted family (``points-dumper``, ``aggressive``, ``colour-counter``, ``weighted``)
plays by one rule: every legal card is scored ``sum(weight[f] * feature[f])`` over the
``FEATURES`` below and the best-scored card is played (the first in kind order on
ties); it draws only with no legal card. The four differ only in their default weights,
and every weight is a parameter (``weighted:scarce=3;attack=5``) or comes from a file
that ``unosim tune`` writes (``weighted:FILE``). Features of playing card ``k``
(``left`` = cards in hand after it, ``next`` = the next player, ``named`` = the colour it
would name after a wild-type card):

  points  points of ``k`` / 50 (the value got rid of);
  colour  share of ``left`` in the colour in play after ``k`` (keeps control of it);
  wild    1 for a wild-type card that attacks nobody (Wild, Shuffle Hands, Customizable);
  action  1 for Skip, Reverse, Draw Two and the attacking wilds (Wild Draw Four,
          Snorlax, Greninja, Powers of Grayskull);
  attack  1 / cards of ``next`` for a card that hits ``next`` (Skip, Draw Two, Reverse
          with 2 players, Wild Draw Four, Snorlax, Greninja; Grayskull: 1 / the fewest
          cards of any opponent): large when ``next`` is about to go out;
  switch  1 when the colour in play changes;
  short   1 when the table has seen ``next`` draw on the colour in play after ``k``
          (so ``next`` holds none of it: it drew on it, and since then has kept no
          drawn card, drawn no penalty, and not swapped or been dealt new cards);
  scarce  1/4 minus that colour's share of the coloured cards the player cannot see
          (deck minus own hand minus the discard pile: card counting);
  swap    cards a hand exchange would win, / 7 (a 7 under Seven-Zero and Customizable
          ``swap_hands``: against the opponent with fewest cards; a 0: against the hand
          received; Shuffle Hands: against the average hand);
  name_short, name_scarce  after a wild-type card it names the colour of highest
          ``share in hand + name_short * short + name_scarce * scarce`` (ties uniform).

  ``points-dumper`` gets rid of high-value cards first: weight on points only (a wild,
     50 points, goes first), colour share as the tie-break.
  ``aggressive`` saves its action cards for when the next player is close to going out:
     numbers by colour held most; action cards are worth -3, plus 8 / cards of the next
     player, so they go first when that player holds 2 cards or fewer, and last but
     before plain wilds otherwise.
  ``colour-counter`` remembers the cards played: plays into and names the colours the
     next player is known to lack (short) and the colours the unseen cards are short of.
  ``weighted`` starts from a blend of the above; ``unosim tune`` searches its weights.
  The family stacks like the heuristic (a Draw Two before a Wild Draw Four), swaps with
  the opponent holding fewest cards, plays a legal drawn card, multi-plays like the
  heuristic and challenges ``smart`` by default.

Parameters of every strategy: ``bluff`` (probability of playing a Wild Draw Four
illegally when that is possible, on a turn's choice from the hand), ``challenge``
(``never`` = 0, ``always`` = 1, a probability, or ``smart``), ``forget_uno``
(probability of forgetting the UNO call; the rule ``catch_uno`` decides if it is
caught), ``stack`` and ``jump`` (probabilities of stacking / jumping in when able).
"""
from __future__ import annotations

import numpy as np

from .cards import (
    COLOUR,
    CUSTOMIZABLE,
    DRAW_TWO,
    GRAYSKULL,
    GRENINJA,
    N_COLOURED,
    N_COLOURS,
    N_KINDS,
    N_RANKS,
    RANK,
    REVERSE,
    SHUFFLE_HANDS,
    SKIP,
    SNORLAX,
    WILD_DRAW_FOUR,
)
from .kernel.jit import hot, kernel
from .kernel.layout import (
    BLANK_SWAP_HANDS,
    CHALLENGE_SMART,
    G_COLOUR,
    G_DECK_C,
    G_DECK_N,
    G_DIR,
    G_DISC_C,
    G_DISC_N,
    G_N,
    G_PEND_BY,
    G_PREV_COLOUR,
    G_SHORT,
    G_TOP,
    H_MASK,
    H_TOTAL,
    H_WILD,
    H_WILD_MASK,
    MAX_PLAYERS,
    N_PARAMS,
    N_WEIGHTS,
    P_BLUFF,
    P_CHALLENGE,
    P_FORGET_UNO,
    P_JUMP,
    P_STACK,
    P_W,
    R_BLANK_CARD,
    R_SEVEN_ZERO,
    S_SEAT0,
)
from .kernel.legal import can_stack, wd4_allowed
from .kernel.rng import below, chance
from .kernel.seats import seat

RANDOM, HEURISTIC, POINTS_DUMPER, AGGRESSIVE, COLOUR_COUNTER, WEIGHTED = range(6)
FIRST_WEIGHTED = POINTS_DUMPER  # ids from here on play by weights over FEATURES
NAMES = ("random", "heuristic", "points-dumper", "aggressive", "colour-counter", "weighted")
BEHAVIOUR = ("bluff", "challenge", "forget_uno", "stack", "jump")
FEATURES = ("points", "colour", "wild", "action", "attack", "switch", "short", "scarce",
            "swap", "name_short", "name_scarce")
(F_POINTS, F_COLOUR, F_WILD, F_ACTION, F_ATTACK, F_SWITCH, F_SHORT, F_SCARCE, F_SWAP,
 F_NAME_SHORT, F_NAME_SCARCE) = range(len(FEATURES))
assert len(FEATURES) == N_WEIGHTS and len(BEHAVIOUR) == P_W
PARAM_NAMES = BEHAVIOUR + FEATURES
_NO_WEIGHTS = (0.0,) * N_WEIGHTS
_SMART = (0.0, CHALLENGE_SMART, 0.0, 1.0, 1.0)
DEFAULTS = {
    "random": (0.0, 0.0, 0.0, 1.0, 1.0) + _NO_WEIGHTS,
    "heuristic": _SMART + _NO_WEIGHTS,
    #                   points colour wild action attack switch short scarce swap n_sh n_sc
    "points-dumper": _SMART + (1.0, 0.01, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
    "aggressive": _SMART + (0.005, 0.5, -5.0, -3.0, 8.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
    "colour-counter": _SMART + (0.02, 1.0, -2.0, 0.0, 2.0, 0.0, 1.5, 4.0, 0.5, 1.5, 4.0),
    "weighted": _SMART + (0.2, 1.0, -2.0, -0.5, 3.0, 0.0, 1.0, 2.0, 1.0, 1.0, 2.0),
}


# ----------------------------------------------------------------------------------
# kernel side
# ----------------------------------------------------------------------------------
@hot
def _random_legal(g, rules, hands, hinfo, p, st):
    """A legal card uniformly among the physical legal cards in hand, or -1."""
    s = S_SEAT0 + p
    c = g[G_COLOUR]
    r = RANK[g[G_TOP]]
    nc = np.int64(hinfo[p, c])
    nr = np.int64(0)
    if r >= 0:
        for c2 in range(N_COLOURS):
            if c2 != c:
                nr += hands[p, c2 * N_RANKS + r]
    nw = np.int64(hinfo[p, H_WILD])
    wd4_ok = wd4_allowed(g, rules, hinfo, p)
    if not wd4_ok:
        nw -= hands[p, WILD_DRAW_FOUR]
    total = nc + nr + nw
    if total == 0:
        return -1
    x = below(st, s, total)
    if x < nc:
        for k in range(c * N_RANKS, (c + 1) * N_RANKS):
            x -= hands[p, k]
            if x < 0:
                return k
    x -= nc
    if x < nr:
        for c2 in range(N_COLOURS):
            if c2 != c:
                x -= hands[p, c2 * N_RANKS + r]
                if x < 0:
                    return c2 * N_RANKS + r
    x -= nr
    for k in range(N_COLOURED, N_KINDS):
        if k == WILD_DRAW_FOUR and not wd4_ok:
            continue
        x -= hands[p, k]
        if x < 0:
            return k
    return -1  # unreachable


BIT_INDEX = np.zeros(1 << N_RANKS, dtype=np.int8)  # BIT_INDEX[1 << i] = i
for _i in range(N_RANKS):
    BIT_INDEX[1 << _i] = _i
BIT_INDEX.flags.writeable = False


@hot
def _legal_ranks(hinfo, p, c, cur, r_top):
    """Bit mask of the ranks of colour ``c`` that ``p`` holds and may play (4.1): all
    of them in the current colour, else only the top card's rank."""
    m = np.int64(hinfo[p, H_MASK + c])
    if c == cur:
        return m
    if r_top < 0:
        return np.int64(0)
    return m & (1 << r_top)


@hot
def _legal_wilds(g, rules, hinfo, p):
    """Bit mask of the wild-type kinds ``p`` holds and may play (4.3: Wild Draw Four
    only as the restriction allows); bit ``i`` is kind ``N_COLOURED + i``."""
    m = np.int64(hinfo[p, H_WILD_MASK])
    if m != 0 and not wd4_allowed(g, rules, hinfo, p):
        m &= ~(1 << (WILD_DRAW_FOUR - N_COLOURED))
    return m


@hot
def _only_legal(g, rules, hinfo, p):
    """The kind of ``p``'s only legal card (copies aside); -1 if none, -2 if several.
    Then no scoring is needed: every strategy plays it."""
    cur = g[G_COLOUR]
    r_top = RANK[g[G_TOP]]
    found = -1
    for c in range(N_COLOURS):
        m = _legal_ranks(hinfo, p, c, cur, r_top)
        if m != 0:
            if found != -1 or (m & (m - 1)) != 0:
                return -2
            found = c * N_RANKS + BIT_INDEX[m]
    m = _legal_wilds(g, rules, hinfo, p)
    if m != 0:
        if found != -1 or (m & (m - 1)) != 0:
            return -2
        found = N_COLOURED + BIT_INDEX[m]
    return found


@kernel
def _heuristic_card(g, rules, hinfo, points, p):
    """The heuristic's play (rules 2-3 of the module docstring), or -1.

    Scores the legal cards in kind order and keeps the first best, visiting only the
    kinds held that can be legal (``_legal_ranks``, then the wild-type kinds held)."""
    n = g[G_N]
    nxt = seat(p, g[G_DIR], n)
    danger = hinfo[nxt, H_TOTAL] <= 2
    mine = hinfo[p, H_TOTAL] - 1  # cards left after this play
    fewest = -1  # opponents' fewest and total cards, counted when first needed
    others = 0
    cur = g[G_COLOUR]
    r_top = RANK[g[G_TOP]]
    best = -1
    best_s = -1e18
    for c in range(N_COLOURS):
        m = _legal_ranks(hinfo, p, c, cur, r_top)
        held = hinfo[p, c]
        while m != 0:
            low = m & -m
            m ^= low
            r = BIT_INDEX[low]
            k = c * N_RANKS + r
            sc = 100.0 + 10.0 * held + points[k] / 10.0
            if danger and (r == DRAW_TWO or r == SKIP or (r == REVERSE and n == 2)):
                sc += 1000.0 + (500.0 if r == DRAW_TWO else 0.0)
            if r == 7 and rules[R_SEVEN_ZERO] == 1:
                if fewest < 0:
                    fewest, others = _others(g, hinfo, p)
                if fewest < mine:
                    sc += 300.0
            if sc > best_s:
                best_s = sc
                best = k
    m = _legal_wilds(g, rules, hinfo, p)
    while m != 0:
        low = m & -m
        m ^= low
        k = N_COLOURED + BIT_INDEX[low]
        sc = -1000.0  # a plain wild is kept for when nothing else fits
        if k == WILD_DRAW_FOUR or k == SNORLAX or k == GRENINJA or k == GRAYSKULL:
            sc = -900.0 + (3000.0 if danger else 0.0)
        elif k == SHUFFLE_HANDS or (k == CUSTOMIZABLE and rules[R_BLANK_CARD] == BLANK_SWAP_HANDS):
            if fewest < 0:
                fewest, others = _others(g, hinfo, p)
            if k == SHUFFLE_HANDS and mine * (n - 1) > others + (n - 1):
                sc = 600.0  # more cards than the average opponent: even the hands out
            elif k == CUSTOMIZABLE and fewest < mine:
                sc = 600.0  # swap with the opponent holding fewest cards
        if sc > best_s:
            best_s = sc
            best = k
    return best


@hot
def _unseen(g, hinfo, p, c):
    """Cards of colour ``c`` that ``p`` cannot see: in other hands or the draw pile."""
    return g[G_DECK_C + c] - hinfo[p, c] - g[G_DISC_C + c]


@kernel
def _others(g, hinfo, p):
    """(fewest cards of an opponent, cards of all opponents)."""
    fewest = 1000
    others = 0
    for q in range(g[G_N]):
        if q != p:
            others += hinfo[q, H_TOTAL]
            fewest = min(fewest, hinfo[q, H_TOTAL])
    return fewest, others


@kernel
def _unseen_inverse(sp, g, hinfo, p):
    """1 / the coloured cards ``p`` cannot see, for ``_scarce``; 0 when ``p`` gives
    scarcity no weight (then every ``_scarce`` is 0) or sees every card."""
    if sp[p, P_W + F_SCARCE] == 0.0 and sp[p, P_W + F_NAME_SCARCE] == 0.0:
        return 0.0
    t = 0
    for c in range(N_COLOURS):
        t += _unseen(g, hinfo, p, c)
    return 1.0 / t if t > 0 else 0.0


@hot
def _scarce(g, hinfo, p, c, inv):
    """1/4 minus colour ``c``'s share of the coloured cards ``p`` cannot see (positive:
    the others are short of it); ``inv`` from ``_unseen_inverse``."""
    if inv == 0.0:
        return 0.0
    return 0.25 - _unseen(g, hinfo, p, c) * inv


@hot
def _name_score(sp, g, hinfo, p, c, per_card, short, inv):
    """How much ``p`` wants to name colour ``c``; ``per_card`` = 1 / cards left in hand."""
    return (hinfo[p, c] * per_card + sp[p, P_W + F_NAME_SHORT] * ((short >> c) & 1)
            + sp[p, P_W + F_NAME_SCARCE] * _scarce(g, hinfo, p, c, inv))


@kernel
def _weighted_card(sp, g, rules, hinfo, points, p):
    """The weighted family's play: the legal card of highest ``weights . features``
    (``FEATURES``, module docstring), the first in kind order on ties; -1 if none.
    Divisions are hoisted out of the loops (a division costs ~5 multiplications)."""
    w = P_W
    n = g[G_N]
    d = g[G_DIR]
    nxt = seat(p, d, n)
    left = hinfo[p, H_TOTAL] - 1  # cards left after this play
    per_card = 1.0 / max(1, left)
    threat = 1.0 / max(1, hinfo[nxt, H_TOTAL])
    fewest = -1  # opponents' fewest and total cards, counted when first needed
    others = 0
    short = g[G_SHORT + nxt]
    inv = _unseen_inverse(sp, g, hinfo, p)
    w_points = sp[p, w + F_POINTS] * 0.02  # per point: points / 50
    w_colour = sp[p, w + F_COLOUR] * per_card
    w_swap = sp[p, w + F_SWAP] * (1.0 / 7.0)
    cur = g[G_COLOUR]
    r_top = RANK[g[G_TOP]]
    best = -1
    best_s = -1e18
    for c in range(N_COLOURS):
        m = _legal_ranks(hinfo, p, c, cur, r_top)
        if m == 0:
            continue
        same = (w_colour * (hinfo[p, c] - 1) + sp[p, w + F_SHORT] * ((short >> c) & 1)
                + sp[p, w + F_SCARCE] * _scarce(g, hinfo, p, c, inv))
        if c != cur:
            same += sp[p, w + F_SWITCH]
        while m != 0:
            low = m & -m
            m ^= low
            r = BIT_INDEX[low]
            k = c * N_RANKS + r
            sc = same + w_points * points[k]
            if r >= SKIP:
                sc += sp[p, w + F_ACTION]
                if r != REVERSE or n == 2:
                    sc += sp[p, w + F_ATTACK] * threat
            elif rules[R_SEVEN_ZERO] == 1:
                if r == 7:  # swaps with the opponent holding fewest cards
                    if fewest < 0:
                        fewest, others = _others(g, hinfo, p)
                    sc += w_swap * (left - fewest)
                elif r == 0:  # receives the hand of the player before
                    sc += w_swap * (left - hinfo[seat(p, -d, n), H_TOTAL])
            if sc > best_s:
                best_s = sc
                best = k
    m = _legal_wilds(g, rules, hinfo, p)
    if m == 0:
        return best
    named = 0  # the colour it would name (choose_colour, without its random tie-break)
    top = -1e18
    for c in range(N_COLOURS):
        v = _name_score(sp, g, hinfo, p, c, per_card, short, inv)
        if v > top:
            top = v
            named = c
    same = (w_colour * hinfo[p, named] + sp[p, w + F_SHORT] * ((short >> named) & 1)
            + sp[p, w + F_SCARCE] * _scarce(g, hinfo, p, named, inv))
    if named != cur:
        same += sp[p, w + F_SWITCH]
    while m != 0:
        low = m & -m
        m ^= low
        k = N_COLOURED + BIT_INDEX[low]
        sc = same + w_points * points[k]
        if k == WILD_DRAW_FOUR or k == SNORLAX or k == GRENINJA:
            sc += sp[p, w + F_ACTION] + sp[p, w + F_ATTACK] * threat
        elif k == GRAYSKULL:
            if fewest < 0:
                fewest, others = _others(g, hinfo, p)
            sc += sp[p, w + F_ACTION] + sp[p, w + F_ATTACK] / max(1, fewest)
        else:
            sc += sp[p, w + F_WILD]
            if k == SHUFFLE_HANDS or (k == CUSTOMIZABLE and rules[R_BLANK_CARD] == BLANK_SWAP_HANDS):
                if fewest < 0:
                    fewest, others = _others(g, hinfo, p)
                if k == SHUFFLE_HANDS:  # everyone ends with about the average hand
                    sc += w_swap * (left - (others + left) / n)
                else:
                    sc += w_swap * (left - fewest)
        if sc > best_s:
            best_s = sc
            best = k
    return best


@hot
def choose_card(sid, sp, g, rules, hands, hinfo, points, st, p):
    """The card seat ``p`` plays on a normal turn, or -1 to draw.

    May return an illegal Wild Draw Four (a bluff) when the ``bluff`` parameter fires.
    """
    s = S_SEAT0 + p
    if hands[p, WILD_DRAW_FOUR] > 0 and sp[p, P_BLUFF] > 0.0 \
            and not wd4_allowed(g, rules, hinfo, p):
        if chance(st, s, sp[p, P_BLUFF]):
            return WILD_DRAW_FOUR
    if sid[p] == RANDOM:
        return _random_legal(g, rules, hands, hinfo, p, st)
    only = _only_legal(g, rules, hinfo, p)
    if only != -2:
        return only
    if sid[p] == HEURISTIC:
        return _heuristic_card(g, rules, hinfo, points, p)
    return _weighted_card(sp, g, rules, hinfo, points, p)


@kernel
def choose_stack(sid, sp, g, rules, hands, hinfo, st, p):
    """A card to stack on the pending penalty (8.1), or -1 to take it."""
    s = S_SEAT0 + p
    total = 0
    for c in range(N_COLOURS):
        k = c * N_RANKS + DRAW_TWO
        if hands[p, k] > 0 and can_stack(g, rules, k):
            total += hands[p, k]
    n4 = 0
    if hands[p, WILD_DRAW_FOUR] > 0 and can_stack(g, rules, WILD_DRAW_FOUR):
        n4 = hands[p, WILD_DRAW_FOUR]
    if total + n4 == 0 or not chance(st, s, sp[p, P_STACK]):
        return -1
    if sid[p] != RANDOM and total > 0:
        n4 = 0  # a Draw Two before a Wild Draw Four
    x = below(st, s, total + n4)
    for c in range(N_COLOURS):
        k = c * N_RANKS + DRAW_TWO
        if hands[p, k] > 0 and can_stack(g, rules, k):
            x -= hands[p, k]
            if x < 0:
                return k
    return WILD_DRAW_FOUR


@kernel
def choose_colour(sid, sp, g, hinfo, st, p):
    """The colour seat ``p`` names after a wild-type card: the best-scored one, ties
    broken uniformly (random: uniformly among the four)."""
    s = S_SEAT0 + p
    if sid[p] == RANDOM:
        return below(st, s, N_COLOURS)
    per_card = 1.0 / max(1, hinfo[p, H_TOTAL])
    short = 0
    inv = 0.0
    if sid[p] >= FIRST_WEIGHTED:
        short = g[G_SHORT + seat(p, g[G_DIR], g[G_N])]
        inv = _unseen_inverse(sp, g, hinfo, p)
    best = -1e18
    ties = 0
    for c in range(N_COLOURS):
        v = _name_score(sp, g, hinfo, p, c, per_card, short, inv)
        if v > best:
            best = v
            ties = 1
        elif v == best:
            ties += 1
    x = below(st, s, ties)
    for c in range(N_COLOURS):
        if _name_score(sp, g, hinfo, p, c, per_card, short, inv) == best:
            if x == 0:
                return c
            x -= 1
    return 0


@kernel
def choose_target(sid, sp, g, hinfo, st, p):
    """The opponent seat ``p`` swaps hands with (Seven-Zero 7, Wild Customizable)."""
    n = g[G_N]
    if sid[p] == RANDOM:
        q = below(st, S_SEAT0 + p, n - 1)
        return q if q < p else q + 1
    best = -1
    for i in range(1, n):
        q = seat(p, i * g[G_DIR], n)
        if best < 0 or hinfo[q, H_TOTAL] < hinfo[best, H_TOTAL]:
            best = q
    return best


@kernel
def play_drawn(sid, sp, g, p, k):
    """Does seat ``p`` play the legal card it just drew? Both strategies always do."""
    return True


@hot
def will_jump(sid, sp, st, q):
    return chance(st, S_SEAT0 + q, sp[q, P_JUMP])


@hot
def forgets_uno(sid, sp, st, p):
    return chance(st, S_SEAT0 + p, sp[p, P_FORGET_UNO])


@kernel
def will_challenge(sid, sp, g, hands, hinfo, disc, deck, st, p):
    """Does seat ``p`` challenge the pending Wild Draw Four (4.3)?"""
    pc = sp[p, P_CHALLENGE]
    if pc != CHALLENGE_SMART:
        return chance(st, S_SEAT0 + p, pc)
    # smart: P(player held a card of the previous colour) from the unseen cards
    prev = g[G_PREV_COLOUR]
    unseen_c = 0
    for k in range(prev * N_RANKS, (prev + 1) * N_RANKS):
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
    return 1.0 - p_none > 1.0 / 3.0


@kernel
def next_extra(sid, sp, g, hands, p, first, last, step):
    """8.6 multi-card play: the next card seat ``p`` adds after ``last``, or -1.

    ``first`` is the turn's first card; ``step`` the run direction so far (0 if none).
    Returns the kind; the caller derives the new step from it.
    """
    if sid[p] == RANDOM:
        return -1  # random plays only one card (RULES.md section 10)
    if step == 0 and hands[p, first] > 0:
        return first  # identical copies first
    r = RANK[last]
    if r >= 10:
        return -1
    c = COLOUR[last]
    if step >= 0 and r + 1 <= 9 and hands[p, c * N_RANKS + r + 1] > 0:
        return c * N_RANKS + r + 1
    if step <= 0 and r - 1 >= 0 and hands[p, c * N_RANKS + r - 1] > 0:
        return c * N_RANKS + r - 1
    return -1


# ----------------------------------------------------------------------------------
# Python side
# ----------------------------------------------------------------------------------
class StrategyError(ValueError):
    """An unknown strategy or parameter; the message names it."""


def _param_value(name: str, text: str) -> float:
    t = text.strip().lower()
    if name == "challenge":
        named = {"never": 0.0, "always": 1.0, "smart": CHALLENGE_SMART}
        if t in named:
            return named[t]
    try:
        v = float(t)
    except ValueError:
        raise StrategyError(f"strategy parameter {name!r}: {text!r} is not a number") from None
    if name in FEATURES:
        if not np.isfinite(v):
            raise StrategyError(f"weight {name!r} must be a finite number, got {text!r}")
        return v
    if not 0.0 <= v <= 1.0:
        raise StrategyError(f"strategy parameter {name!r} must be a probability, got {text!r}")
    return v


def _load_file(name: str, path: str) -> dict[str, float]:
    """Weights (and behaviour parameters) from a strategy file written by ``unosim tune``."""
    import tomllib
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise StrategyError(f"strategy {name!r}: no file {path!r} (and {path!r} is not "
                            "a parameter: parameters are name=value)") from None
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise StrategyError(f"strategy file {path!r}: {e}") from None
    if data.get("strategy", name) != name:
        raise StrategyError(f"strategy file {path!r} is for {data['strategy']!r}, not {name!r}")
    out = {}
    for table in ("weights", "params"):
        for key, val in data.get(table, {}).items():
            if key not in PARAM_NAMES:
                raise StrategyError(f"strategy file {path!r}: unknown parameter {key!r}")
            out[key] = val
    return out


def parse_one(text: str) -> tuple[int, np.ndarray, str]:
    """``"heuristic:bluff=0.3;challenge=smart"`` -> (id, params, canonical label).

    An item without ``=`` is a strategy file (``weighted:best.toml``)."""
    name, _, rest = text.strip().partition(":")
    name = name.strip()
    if name == "expert":  # a search over a rollout policy (unosim/expert.py)
        from .expert import parse_expert
        return parse_expert(rest)
    if name not in NAMES:
        raise StrategyError(f"unknown strategy {name!r} (known: {', '.join(NAMES)}, "
                            "expert)")
    sid = NAMES.index(name)
    params = np.array(DEFAULTS[name], dtype=np.float64)
    allowed = PARAM_NAMES if sid >= FIRST_WEIGHTED else BEHAVIOUR
    for item in filter(None, (s.strip() for s in rest.replace(";", ",").split(","))):
        key, eq, val = item.partition("=")
        key = key.strip()
        if not eq and sid >= FIRST_WEIGHTED:
            for fkey, fval in _load_file(name, key).items():
                params[PARAM_NAMES.index(fkey)] = _param_value(fkey, str(fval))
            continue
        if not eq or key not in allowed:
            raise StrategyError(f"unknown strategy parameter {item!r} for {name!r} "
                                f"(known: {', '.join(allowed)})")
        params[PARAM_NAMES.index(key)] = _param_value(key, val)
    return sid, params, label(sid, params)


def label(sid: int, params: np.ndarray) -> str:
    """Canonical text of a strategy: its name plus the parameters that differ."""
    name = NAMES[sid]
    extra = []
    for i, (v, d) in enumerate(zip(params, DEFAULTS[name])):
        if v != d:
            val = "smart" if (i == 1 and v == CHALLENGE_SMART) else f"{v:.6g}"
            extra.append(f"{PARAM_NAMES[i]}={val}")
    return name + (":" + ";".join(extra) if extra else "")


def split(spec: "str | list[str]") -> list[str]:
    """The strategy items of a ``--strategies`` text, as written (see ``parse``)."""
    items = spec if isinstance(spec, list) else spec.split(",")
    seats: list[str] = []
    for item in (s.strip() for s in items):
        if not item:
            raise StrategyError(f"empty strategy in {spec!r}")
        if "=" in item and ":" not in item and seats:
            seats[-1] += (";" if ":" in seats[-1] else ":") + item
        else:
            seats.append(item)
    return seats


def parse(spec: "str | list[str]", n_players: int) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Strategies for every seat.

    ``spec`` is one strategy for all seats or a comma list, one per seat; a strategy's
    parameters follow a colon and are separated by ``;`` (or by commas, when the item
    has no colon: ``heuristic:bluff=0.3,challenge=0.5,random``).

    Returns
    -------
    ids : int64[MAX_PLAYERS]
    params : float64[MAX_PLAYERS, N_PARAMS]
    labels : canonical label of each seat's strategy
    """
    seats = split(spec)
    if len(seats) == 1:
        seats = seats * n_players
    if len(seats) != n_players:
        raise StrategyError(f"{len(seats)} strategies given for {n_players} players")
    ids = np.zeros(MAX_PLAYERS, dtype=np.int64)
    params = np.zeros((MAX_PLAYERS, N_PARAMS), dtype=np.float64)
    labels = []
    for s, text in enumerate(seats):
        ids[s], params[s], lab = parse_one(text)
        labels.append(lab)
    return ids, params, labels
