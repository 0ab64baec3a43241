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
    CHALLENGE_SMART,
    G_COLOUR,
    G_DECK_N,
    G_DIR,
    G_DISC_N,
    G_N,
    G_PEND_BY,
    G_PREV_COLOUR,
    G_TOP,
    H_TOTAL,
    H_WILD,
    MAX_PLAYERS,
    N_PARAMS,
    P_BLUFF,
    P_CHALLENGE,
    P_FORGET_UNO,
    P_JUMP,
    P_STACK,
    R_BLANK_SWAP,
    R_SEVEN_ZERO,
    S_SEAT0,
)
from .kernel.legal import can_stack, is_legal, wd4_allowed
from .kernel.rng import below, chance
from .kernel.seats import seat

RANDOM, HEURISTIC = 0, 1
NAMES = ("random", "heuristic")
PARAM_NAMES = ("bluff", "challenge", "forget_uno", "stack", "jump")
DEFAULTS = {
    "random": (0.0, 0.0, 0.0, 1.0, 1.0),
    "heuristic": (0.0, CHALLENGE_SMART, 0.0, 1.0, 1.0),
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


@kernel
def _heuristic_score(g, rules, hands, hinfo, points, p, k, danger):
    """Higher is better; only called for legal cards."""
    n = g[G_N]
    mine = hinfo[p, H_TOTAL] - 1  # cards left after this play
    fewest = 1000
    others = 0
    for q in range(n):
        if q != p:
            others += hinfo[q, H_TOTAL]
            fewest = min(fewest, hinfo[q, H_TOTAL])
    if k >= N_COLOURED:
        base = -1000.0  # a plain wild is kept for when nothing else fits
        if k == WILD_DRAW_FOUR or k == SNORLAX or k == GRENINJA or k == GRAYSKULL:
            base = -900.0 + (3000.0 if danger else 0.0)
        elif k == SHUFFLE_HANDS and mine * (n - 1) > others + (n - 1):
            base = 600.0  # more cards than the average opponent: even the hands out
        elif k == CUSTOMIZABLE and rules[R_BLANK_SWAP] == 1 and fewest < mine:
            base = 600.0  # swap with the opponent holding fewest cards
        return base
    r = RANK[k]
    s = 100.0 + 10.0 * hinfo[p, COLOUR[k]] + points[k] / 10.0
    if danger and (r == DRAW_TWO or r == SKIP or (r == REVERSE and n == 2)):
        s += 1000.0 + (500.0 if r == DRAW_TWO else 0.0)
    if r == 7 and rules[R_SEVEN_ZERO] == 1 and fewest < mine:
        s += 300.0
    return s


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
    n = g[G_N]
    nxt = seat(p, g[G_DIR], n)
    danger = hinfo[nxt, H_TOTAL] <= 2
    best = -1
    best_s = -1e18
    for k in range(N_KINDS):
        if hands[p, k] > 0 and is_legal(g, rules, hinfo, p, k):
            sc = _heuristic_score(g, rules, hands, hinfo, points, p, k, danger)
            if sc > best_s:
                best_s = sc
                best = k
    return best


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
    if sid[p] == HEURISTIC and total > 0:
        n4 = 0  # a Draw Two before a Wild Draw Four
    x = below(st, s, total + n4)
    for c in range(N_COLOURS):
        k = c * N_RANKS + DRAW_TWO
        if hands[p, k] > 0 and can_stack(g, rules, k):
            x -= hands[p, k]
            if x < 0:
                return k
    return WILD_DRAW_FOUR


@hot
def choose_colour(sid, sp, g, hinfo, st, p):
    """The colour seat ``p`` names after a wild-type card."""
    s = S_SEAT0 + p
    if sid[p] == RANDOM:
        return below(st, s, N_COLOURS)
    best = 0
    ties = 0
    for c in range(N_COLOURS):
        if hinfo[p, c] > best:
            best = hinfo[p, c]
            ties = 1
        elif hinfo[p, c] == best:
            ties += 1
    x = below(st, s, ties)
    for c in range(N_COLOURS):
        if hinfo[p, c] == best:
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
    if not 0.0 <= v <= 1.0:
        raise StrategyError(f"strategy parameter {name!r} must be a probability, got {text!r}")
    return v


def parse_one(text: str) -> tuple[int, np.ndarray, str]:
    """``"heuristic:bluff=0.3;challenge=smart"`` -> (id, params, canonical label)."""
    name, _, rest = text.strip().partition(":")
    name = name.strip()
    if name not in NAMES:
        raise StrategyError(f"unknown strategy {name!r} (known: {', '.join(NAMES)})")
    params = np.array(DEFAULTS[name], dtype=np.float64)
    for item in filter(None, (s.strip() for s in rest.replace(";", ",").split(","))):
        key, eq, val = item.partition("=")
        key = key.strip()
        if not eq or key not in PARAM_NAMES:
            raise StrategyError(f"unknown strategy parameter {item!r} for {name!r} "
                                f"(known: {', '.join(PARAM_NAMES)})")
        params[PARAM_NAMES.index(key)] = _param_value(key, val)
    return NAMES.index(name), params, label(NAMES.index(name), params)


def label(sid: int, params: np.ndarray) -> str:
    """Canonical text of a strategy: its name plus the parameters that differ."""
    name = NAMES[sid]
    extra = []
    for i, (v, d) in enumerate(zip(params, DEFAULTS[name])):
        if v != d:
            val = "smart" if v == CHALLENGE_SMART else f"{v:g}"
            extra.append(f"{PARAM_NAMES[i]}={val}")
    return name + (":" + ";".join(extra) if extra else "")


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
    items = spec if isinstance(spec, list) else spec.split(",")
    seats: list[str] = []
    for item in (s.strip() for s in items):
        if not item:
            raise StrategyError(f"empty strategy in {spec!r}")
        if "=" in item and ":" not in item and seats:
            seats[-1] += (";" if ":" in seats[-1] else ":") + item
        else:
            seats.append(item)
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
