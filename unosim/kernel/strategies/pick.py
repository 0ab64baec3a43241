"""The ``random`` strategy's pick (RULES.md section 10): a legal card uniformly among the
physical legal cards in hand, and ``BIT_INDEX``, with which the strategies walk the bit
masks of the kinds held (``layout.H_MASK``, ``H_WILD_MASK``). They take the round's
``state.Table`` ``tb`` and ``state.Round`` ``rd`` and the seat ``p``.
"""

import numpy as np

from ..compile.jit import called, inlined
from ..core.index import ix
from ..core.kinds import (
    KIND_AT,
    N_ALL_RANKS,
    N_COLOURED,
    N_COLOURS,
    N_RANKS,
    N_WILD_END,
    RANK,
    WILD_DRAW_FOUR,
)
from ..core.layout import DC_N, G_COLOUR, G_TOP, S_SEAT0
from ..core.rng import below
from ..rules.family import fixed_rules
from ..rules.legal import legal_copies, legal_ranks, legal_wilds, wd4_allowed


@inlined
def _random_legal(tb, rd, p):
    """A legal card uniformly among the physical legal cards in hand, or -1."""
    g = rd.game_state
    hands = rd.hands
    hinfo = rd.hand_summary
    st = rd.streams
    s = S_SEAT0 + p
    c = g[G_COLOUR]
    r = RANK[ix(g[G_TOP])]
    if fixed_rules(tb)[DC_N] > 0:
        return _random_declared(tb, rd, p)
    total = legal_copies(tb, rd, p)
    if total == 0:
        return -1
    x = below(st, s, total)
    nc = np.int64(hinfo[ix(p), ix(c)])
    if x < nc:
        for k in range(c * N_RANKS, (c + 1) * N_RANKS):
            x -= hands[ix(p), ix(k)]
            if x < 0:
                return k
    x -= nc
    if r >= 0:
        for c2 in range(N_COLOURS):
            if c2 != c:
                x -= hands[ix(p), ix(c2 * N_RANKS + r)]
                if x < 0:
                    return c2 * N_RANKS + r
    wd4_ok = wd4_allowed(tb, rd, p)
    for k in range(N_COLOURED, N_WILD_END):
        if k == WILD_DRAW_FOUR and not wd4_ok:
            continue
        x -= hands[ix(p), k]
        if x < 0:
            return k
    return -1  # unreachable


BIT_INDEX = np.zeros(1 << N_ALL_RANKS, dtype=np.int8)  # BIT_INDEX[1 << i] = i
for _i in range(N_ALL_RANKS):
    BIT_INDEX[1 << _i] = _i
BIT_INDEX.flags.writeable = False


@called
def _random_declared(tb, rd, p):
    """``_random_legal`` of a rule set with declared cards: the kinds ``legal_ranks``
    and ``legal_wilds`` allow, each physical card equally likely."""
    g = rd.game_state
    hands = rd.hands
    cur = g[G_COLOUR]
    r_top = RANK[g[G_TOP]]
    total = np.int64(0)
    for c in range(N_COLOURS):
        m = legal_ranks(tb, rd, p, c, cur, r_top)
        while m != 0:
            low = m & -m
            m ^= low
            total += hands[p, KIND_AT[c, BIT_INDEX[low]]]
    w = legal_wilds(tb, rd, p)
    m = w
    while m != 0:
        low = m & -m
        m ^= low
        total += hands[p, N_COLOURED + BIT_INDEX[low]]
    if total == 0:
        return -1
    x = below(rd.streams, S_SEAT0 + p, total)
    for c in range(N_COLOURS):
        m = legal_ranks(tb, rd, p, c, cur, r_top)
        while m != 0:
            low = m & -m
            m ^= low
            k = KIND_AT[c, BIT_INDEX[low]]
            x -= hands[p, k]
            if x < 0:
                return k
    m = w
    while m != 0:
        low = m & -m
        m ^= low
        k = N_COLOURED + BIT_INDEX[low]
        x -= hands[p, k]
        if x < 0:
            return k
    return -1  # unreachable
