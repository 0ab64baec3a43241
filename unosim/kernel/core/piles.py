"""Hands, the draw pile and the discard pile (RULES.md sections 3 and 4.2).

A hand is a count per kind, ``hands[seat, kind]`` (int16), with ``hinfo[seat]`` holding
its colour counts, wild-type count and total, and bit masks of the kinds held (per
colour, and of the wild-type kinds) so that strategies visit only the cards held. The
discard pile is a count per kind plus its top kind ``rd.game_state[G_TOP]``: its order never
matters, because a reshuffle shuffles it.

The draw pile is an int8 array of the kinds it holds, ``pile[:g[G_PILE_N]]``, kept in
no particular order: drawing takes a uniformly random one of them (deal stream). That is
the same, card for card in distribution, as drawing the top card of a pile shuffled
uniformly, and it spares shuffling cards nobody draws. A scripted round (tests) keeps
the order instead: it draws ``pile[g[G_PILE_N] - 1]`` and shuffles on a reshuffle.
"""

import numpy as np

from ..compile.jit import called, inlined
from ..rules.family import fixed_rules
from .index import ix
from .kinds import COLOUR, N_BUILTIN_KINDS, N_COLOURED, N_COLOURS, N_KINDS, RANK
from .layout import (
    DC_N,
    E_DREW,
    E_RESHUFFLE,
    G_DISC_N,
    G_PILE_N,
    G_TOP,
    H_MASK,
    H_TOTAL,
    H_WILD,
    H_WILD_MASK,
    K_CARDS_DRAWN,
    K_RESHUFFLES,
    MEM_DISC_C,
    MEM_NAMED,
    MEM_PLAYED,
    MEM_SHORT,
    S_DEAL,
    S_TABLE,
    TR_SCRIPTED,
    TR_WATCH,
)
from .rng import below, below_state
from .trace import trace_event


@inlined
def _bit(k):
    """(hinfo column, bit) of kind ``k`` in the masks of kinds held."""
    c = COLOUR[ix(k)]
    if c >= 0:
        return H_MASK + c, 1 << RANK[ix(k)]
    return H_WILD_MASK, 1 << (k - N_COLOURED)


@inlined
def add_card(rd, p, k):
    """Card ``k`` into seat ``p``'s hand (``rd``: a ``state.Round``)."""
    hands = rd.hands
    hinfo = rd.hand_summary
    hands[ix(p), ix(k)] += 1
    c = COLOUR[ix(k)]
    hinfo[ix(p), ix(c if c >= 0 else H_WILD)] += 1
    hinfo[ix(p), H_TOTAL] += 1
    if hands[ix(p), ix(k)] == 1:
        col, bit = _bit(k)
        hinfo[ix(p), ix(col)] |= bit


@inlined
def remove_card(rd, p, k):
    """Card ``k`` out of seat ``p``'s hand."""
    hands = rd.hands
    hinfo = rd.hand_summary
    hands[ix(p), ix(k)] -= 1
    c = COLOUR[ix(k)]
    hinfo[ix(p), ix(c if c >= 0 else H_WILD)] -= 1
    hinfo[ix(p), H_TOTAL] -= 1
    if hands[ix(p), ix(k)] == 0:
        col, bit = _bit(k)
        hinfo[ix(p), ix(col)] &= ~bit


@inlined
def shuffle(arr, n, st, s):
    """Fisher-Yates shuffle of ``arr[:n]`` with stream ``s`` of ``st`` (``uint64[N_STREAMS,
    4]``)."""
    for i in range(n - 1, 0, -1):
        j = below(st, s, i + 1)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t


@inlined
def discard(rd, k):
    """Put ``k`` on the discard pile as its new top card."""
    rd.disc[ix(k)] += 1
    c = COLOUR[ix(k)]
    if c >= 0:
        rd.memory[ix(MEM_DISC_C + c)] += 1
    rd.game_state[G_DISC_N] += 1
    rd.game_state[G_TOP] = k


@inlined
def _to_end(pile, j, m):
    """Swap ``pile[j]`` and ``pile[m]``: the random card drawn goes where the pile ends."""
    t = pile[ix(j)]
    pile[ix(j)] = pile[ix(m)]
    pile[ix(m)] = t


@inlined
def take(rd):
    """Take a card from the (non-empty) draw pile; see the module's docstring."""
    g = rd.game_state
    pile = rd.pile
    m = g[G_PILE_N] - 1
    if rd.trace_flags[TR_SCRIPTED] == 0:
        _to_end(pile, below(rd.streams, S_DEAL, m + 1), m)
    g[G_PILE_N] = m
    return np.int64(pile[ix(m)])


@inlined
def deal(rd, n, h):
    """3: ``h`` cards to each of the ``n`` seats in turn, each taken as ``take`` takes it.
    Unscripted, the deal stream's state and the pile's size stay in local variables
    (``rng.below_state``) rather than memory: the deal was most of a round's fixed cost."""
    if rd.trace_flags[TR_SCRIPTED] == 1:
        for q in range(n):
            for _ in range(h):
                add_card(rd, q, take(rd))
        return
    g = rd.game_state
    pile = rd.pile
    st = rd.streams
    s0, s1, s2, s3 = st[S_DEAL, 0], st[S_DEAL, 1], st[S_DEAL, 2], st[S_DEAL, 3]
    m = g[G_PILE_N]
    for q in range(n):
        for _ in range(h):
            j, s0, s1, s2, s3 = below_state(m, s0, s1, s2, s3)
            m -= 1
            _to_end(pile, j, m)
            add_card(rd, q, np.int64(pile[ix(m)]))
    st[S_DEAL, 0] = s0
    st[S_DEAL, 1] = s1
    st[S_DEAL, 2] = s2
    st[S_DEAL, 3] = s3
    g[G_PILE_N] = m


@called
def reshuffle(rd):
    """4.2: keep the discard pile's top card; the rest becomes the new draw pile."""
    g = rd.game_state
    disc = rd.disc
    pile = rd.pile
    top = g[G_TOP]
    disc[top] -= 1
    n = np.int64(0)  # not a literal: see ``jit.py``
    for k in range(N_KINDS):
        for _ in range(disc[k]):
            pile[n] = k
            n += 1
        disc[k] = 0
    disc[top] = 1
    g[G_DISC_N] = 1
    for c in range(N_COLOURS):
        rd.memory[MEM_DISC_C + c] = 0
    if COLOUR[top] >= 0:
        rd.memory[MEM_DISC_C + COLOUR[top]] = 1
    if rd.trace_flags[TR_SCRIPTED] == 1:
        shuffle(pile, n, rd.streams, S_TABLE)
    g[G_PILE_N] = n
    if n > 0:
        rd.counters[K_RESHUFFLES] += 1
        trace_event(rd, E_RESHUFFLE, -1, -1, 0, n)


@inlined
def forget_plays(rd, p):
    """Seat ``p``'s hand changed otherwise than by playing (a draw, a swap): what its
    last plays showed of it (``MEM_NAMED``, ``MEM_PLAYED``) no longer holds."""
    if rd.trace_flags[TR_WATCH] != 0:
        rd.memory[ix(MEM_NAMED + p)] = 0
        rd.memory[ix(MEM_PLAYED + p)] = 0


@inlined
def draw_one(rd, p):
    """Seat ``p`` draws one card (reshuffling if needed); the kind, or -1 if none exists."""
    if rd.game_state[G_PILE_N] == 0:
        if rd.game_state[G_DISC_N] <= 1:
            return -1
        reshuffle(rd)
    k = take(rd)
    add_card(rd, p, k)
    rd.counters[K_CARDS_DRAWN] += 1
    forget_plays(rd, p)
    trace_event(rd, E_DREW, p, k, 0, 0)
    return k


@inlined
def draw_cards(rd, p, count):
    """Seat ``p`` draws up to ``count`` cards; stops when nothing is left to draw.

    Cards drawn for a penalty are unseen: what the table knew ``p`` lacked is void.
    Inlined where penalties are drawn on every other turn (``round._facing_penalty``);
    ``draw_n`` elsewhere."""
    rd.memory[ix(MEM_SHORT + p)] = 0
    for _ in range(count):
        if draw_one(rd, p) < 0:
            return


@called
def draw_n(rd, p, count):
    """``draw_cards``, not inlined."""
    draw_cards(rd, p, count)


@inlined
def kinds_in_play(tb):
    """The kinds of the rule set of ``tb`` (a ``state.Table``) are below this: the
    built-in ones without declared cards, so that loops over a hand skip the kinds
    reserved for them."""
    return N_KINDS if fixed_rules(tb)[DC_N] > 0 else N_BUILTIN_KINDS


@inlined
def hand_points(tb, rd, p):
    """Points of seat ``p``'s hand (``tb``: a ``state.Table``)."""
    s = 0
    for k in range(kinds_in_play(tb)):
        s += rd.hands[p, k] * tb.points[k]
    return s
