"""Determinizations for the ``expert`` search (``expert_search``): the cards the expert
cannot see dealt at random, consistently with what the table saw of each seat
(``MEM_SHORT``; ``MEM_NAMED`` and ``MEM_PLAYED``, read through ``packed``) and, with
``infer``, with what a ``heuristic`` or ``random`` seat would have played.
"""

import numpy as np

from ..compile.jit import called, inlined
from ..core.kinds import (
    ATTACK_NONE,
    COLOUR,
    N_BUILTIN_KINDS,
    N_COLOURS,
    N_KINDS,
    RANK,
    SWAP_ALL,
    SWAP_ONE,
    WILD_DRAW_FOUR,
)
from ..core.layout import (
    BLANK_SWAP_HANDS,
    G_COLOUR,
    G_N,
    G_PILE_N,
    G_TOP,
    H_TOTAL,
    MAX_PLAYERS,
    MEM_NAMED,
    MEM_PLAYED,
    MEM_SHORT,
    N_H,
    P_BLUFF,
    R_BLANK_CARD,
    R_MULTI_PLAY,
    SHORT_RANK,
    SHORT_WILD,
    TR_SCRIPTED,
    TR_WATCH,
)
from ..core.packed import (
    named_colour,
    named_kind,
    named_lack,
    named_next,
    named_size,
    played_colour,
    played_kind,
    played_size,
    played_top,
)
from ..core.piles import add_card, remove_card
from ..core.rng import below, below_state, chance
from ..core.state import copy_scalars
from ..rules.declared import props
from ..rules.family import fixed_rules
from ..rules.legal import is_legal, legal_copies
from ..strategies.decide import HEURISTIC, RANDOM
from ..strategies.scoring import DANGER, _heuristic_card
from .params import DEAL_OPEN, DEAL_VOIDS


@called
def may_hold(void, k):
    """May a seat whose known lacks are ``void`` (``MEM_SHORT`` bits) hold kind ``k``?"""
    c = COLOUR[k]
    if c < 0:
        return void & SHORT_WILD == 0
    return (void >> c) & 1 == 0 and (void >> (SHORT_RANK + RANK[k])) & 1 == 0


@called
def _heuristic_named(tb, named, q, size):
    """What the last play that named a colour of the ``heuristic`` seat ``q``
    (``MEM_NAMED`` ``named``), now holding ``size`` cards, tells: (the colour it named,
    the cards it has played since, ``MEM_SHORT`` bits it lacks); (-1, -1, 0) if nothing
    is known. A heuristic names the colour it holds most of, and plays a plain wild, or
    an attack wild when the next player holds more than ``DANGER`` cards, only with no
    legal coloured card (a Wild Draw Four only if it never bluffs; a declared wild-type
    card by its steps, ``declared.props``): ``scoring._heuristic_card``."""
    if named == 0:
        return -1, -1, 0
    slack = named_size(named) - size  # cards played since (it drew none)
    colour = named_colour(named)
    k = named_kind(named)
    if COLOUR[k] >= 0:  # a coloured declared card that names a colour: scored as coloured
        return colour, slack, 0
    danger = named_next(named) <= DANGER
    a, _, swap = props(tb, k)
    swapper = swap == SWAP_ALL or (
        swap == SWAP_ONE
        and (fixed_rules(tb)[R_BLANK_CARD] == BLANK_SWAP_HANDS or k >= N_BUILTIN_KINDS)
    )
    plain = a == ATTACK_NONE and not swapper
    attack = a != ATTACK_NONE and (k != WILD_DRAW_FOUR or tb.strategy_params[q, P_BLUFF] == 0.0)
    lack = 0
    if plain or (attack and not danger):
        lack = named_lack(named)
    return colour, slack, lack


@called
def _telling_play(tb, played, q, size):
    """``MEM_PLAYED`` ``played`` of seat ``q`` if its hand has changed since only by the
    plays after it (``size`` cards after it) and the play tells what the hand held (not
    a multi-card play, not a possible bluff); else 0."""
    k = played_kind(played)
    if (
        played == 0
        or played_size(played) != size
        or fixed_rules(tb)[R_MULTI_PLAY] == 1
        or (k == WILD_DRAW_FOUR and tb.strategy_params[q, P_BLUFF] > 0.0)
    ):
        return 0
    return played


@called
def _play_chance(tb, b, q, mem, d):
    """The chance that seat ``q``, a ``heuristic`` or ``random`` player, with its dealt
    hand in ``b`` made its last ``d`` plays (``MEM_PLAYED``, all since its hand last
    changed otherwise), each from the hand it then held (this hand, plus that card and
    the ones played after it) on the colour and top card it faced. A heuristic: 1 if it
    would have played each (``scoring._heuristic_card``; the other hand sizes are
    today's), else 0; ``random`` (RULES.md 10, uniform over the physical legal cards):
    the product of each card's copies over the legal cards in that hand."""
    g = b.game_state
    hands = b.hands
    colour = g[G_COLOUR]
    top = g[G_TOP]
    p = 1.0
    j = 0
    while j < d and p > 0.0:
        played = mem[MEM_PLAYED + j * MAX_PLAYERS + q]
        k = np.int64(played_kind(played))
        g[G_COLOUR] = played_colour(played)
        g[G_TOP] = played_top(played)
        add_card(b, q, k)
        j += 1
        if tb.strategy_ids[q] == HEURISTIC:
            if _heuristic_card(tb, b, q) != k:
                p = 0.0
        elif is_legal(tb, b, q, k):
            p *= hands[q, k] / legal_copies(tb, b, q)
        else:
            p = 0.0
    for i in range(j):
        remove_card(b, q, np.int64(played_kind(mem[MEM_PLAYED + i * MAX_PLAYERS + q])))
    g[G_COLOUR] = colour
    g[G_TOP] = top
    return p


@called
def _majority(hinfo, q, colour, slack):
    """Could ``q``, with ``slack`` more cards of ``colour``, hold no colour more?"""
    for c in range(N_COLOURS):
        if hinfo[q, c] > hinfo[q, colour] + slack:
            return False
    return True


@inlined
def _put_state(st, s0, s1, s2, s3):
    """Stream 0's state back into ``st`` after a loop that kept it in locals (the
    draws as ``rng.below`` makes them, without a load and a store of the state per
    draw on the loop's critical path)."""
    st[0, 0] = s0
    st[0, 1] = s1
    st[0, 2] = s2
    st[0, 3] = s3


@inlined
def _shuffle_part(a, lo, hi, m, st):
    """Fisher-Yates steps ``lo .. hi - 1`` over ``a[:m]`` (``a[j]`` swapped with a uniform
    ``a[j .. m - 1]``), from stream 0 of ``st``, its state kept in locals through the loop
    (as ``piles.deal`` keeps its own)."""
    s0, s1, s2, s3 = st[0, 0], st[0, 1], st[0, 2], st[0, 3]
    for j in range(lo, hi):
        x, s0, s1, s2, s3 = below_state(m - j, s0, s1, s2, s3)
        x += j
        t = a[j]
        a[j] = a[x]
        a[x] = t
    _put_state(st, s0, s1, s2, s3)


@inlined
def _pick_card(unseen, j, m, void, st):
    """Swap into ``unseen[j]`` a uniform one of ``unseen[j:m]``: of the cards a seat with
    the lacks ``void`` may hold if there are any (tried at random 8 times, then counted),
    else of all. The card a uniform shuffle would put first, without the shuffle
    (``X_PILE`` lazy); stream 0 of ``st``."""
    x = j + below(st, 0, m - j)
    if void != 0:
        tried = 1
        while tried < 8 and not may_hold(void, unseen[x]):
            x = j + below(st, 0, m - j)
            tried += 1
        if not may_hold(void, unseen[x]):
            e = 0
            for y in range(j, m):
                if may_hold(void, unseen[y]):
                    e += 1
            if e > 0:
                r = below(st, 0, e)
                for y in range(j, m):
                    if may_hold(void, unseen[y]):
                        if r == 0:
                            x = y
                            break
                        r -= 1
    t = unseen[j]
    unseen[j] = unseen[x]
    unseen[x] = t


@called
def reshuffle_pile(b, st):
    """Shuffle the draw pile of the determinized ``b`` anew (stream 0 of ``st``), its
    hands kept: given the hands, every order of the other unseen cards is equally likely,
    so this is a further determinization without dealing (``X_REUSE`` with the pile
    shuffled; a lazy pile needs nothing)."""
    m = b.game_state[G_PILE_N]
    _shuffle_part(b.pile, 0, m - 1, m, st)


@called
def determinize(tb, rd, p, b, unseen, st, scripted, deal, infer, depth, tries, lazy):
    """Copy the state into ``b*`` with the opponents' hands and the draw pile dealt
    anew from the cards seat ``p`` cannot see (stream 0 of ``st``), hand sizes kept.
    ``infer`` 1: a ``heuristic`` opponent's hand is dealt again (up to ``tries`` times;
    the last deal is kept if none agrees) until it agrees with the colour it last named
    and holds none of the cards its last wild-type play showed it lacked
    (``_heuristic_named``); 2: also until it would have made its last ``depth`` plays
    (those that were its last actions, ``_telling_play``); 3: also a ``random``
    opponent's deal is kept with the chance that it made those plays (rejection
    sampling: the hands then follow the posterior given them, ``_play_chance``).

    ``scripted`` 1 keeps the pile in its dealt order (a uniform shuffle) for the
    rollouts' draws, so that every candidate meets the same sequence of cards drawn.
    ``lazy`` 1 (``X_PILE``; with ``scripted`` 0) deals each hand's cards one by one from
    the cards not yet dealt (``_pick_card``) and leaves the pile unshuffled: the rollouts
    draw its cards at random, as the game does."""
    g, hands, hinfo, pile = rd.game_state, rd.hands, rd.hand_summary, rd.pile
    bhands, bhinfo, bpile = b.hands, b.hand_summary, b.pile
    n = g[G_N]
    copy_scalars(rd, b)
    b.trace_flags[TR_SCRIPTED] = scripted  # 1: draws take the pile in its dealt order
    b.trace_flags[TR_WATCH] = 0  # rollouts need not keep what the table saw
    m = 0
    for q in range(n):
        for j in range(N_H):
            bhinfo[q, j] = hinfo[q, j]
        for k in range(N_KINDS):
            bhands[q, k] = hands[q, k]
            if q != p:
                for _ in range(hands[q, k]):
                    unseen[m] = k
                    m += 1
    hidden = m
    for j in range(g[G_PILE_N]):
        unseen[m] = pile[j]
        m += 1
    # Fisher-Yates: opponents' cards first, then the pile's order; seeing every hand
    # (``DEAL_OPEN``), only the true pile's order is unknown; ``lazy``: none here
    if lazy == 0:
        _shuffle_part(unseen, hidden if deal == DEAL_OPEN else 0, m - 1, m, st)
    if deal == DEAL_OPEN:
        for i in range(m - hidden):
            bpile[i] = unseen[hidden + i]
        return
    j = 0
    for q in range(n):
        if q == p:
            continue
        size = hinfo[q, H_TOTAL]
        void = rd.memory[MEM_SHORT + q] if deal == DEAL_VOIDS else 0
        # a heuristic names the colour it holds most of (``decide._scored_colour``): its
        # hand then, less the cards played since (``slack``), had no colour more
        colour = -1
        slack = -1
        if infer >= 1 and tb.strategy_ids[q] == HEURISTIC:
            colour, slack, lack = _heuristic_named(tb, rd.memory[MEM_NAMED + q], q, size)
            if deal == DEAL_VOIDS:
                void |= lack
        d = 0  # its last plays that tell what it held (``_play_chance``)
        if (infer >= 2 and tb.strategy_ids[q] == HEURISTIC) or (
            infer == 3 and tb.strategy_ids[q] == RANDOM
        ):
            while (
                d < depth
                and _telling_play(tb, rd.memory[MEM_PLAYED + d * MAX_PLAYERS + q], q, size + d) != 0
            ):
                d += 1
        j0 = j
        for attempt in range(tries):
            j = j0
            for k in range(N_KINDS):
                bhands[q, k] = 0
            for c in range(N_H):
                bhinfo[q, c] = 0
            if attempt > 0 and lazy == 0:  # deal its hand anew from the cards not yet dealt
                _shuffle_part(unseen, j0, j0 + size, m, st)
            for _ in range(size):
                if lazy == 1:
                    _pick_card(unseen, j, m, void, st)
                elif void != 0:  # the next card it may hold; none left: any card (the
                    # cards skipped stay just after this hand, where the next is dealt
                    # from: it gets too many of them; ``lazy`` deals without that bias)
                    for x in range(j, m):
                        if may_hold(void, unseen[x]):
                            t = unseen[j]
                            unseen[j] = unseen[x]
                            unseen[x] = t
                            break
                add_card(b, q, np.int64(unseen[j]))
                j += 1
            if (colour < 0 or _majority(bhinfo, q, colour, slack)) and (
                d == 0 or chance(st, 0, _play_chance(tb, b, q, rd.memory, d))
            ):
                break
    for i in range(m - hidden):
        bpile[i] = unseen[hidden + i]
