"""Effects that move whole hands (RULES.md 8.2 Seven-Zero, section 2 Wild Shuffle Hands and
Wild Customizable under ``blank_card = swap_hands``), called by ``effects.effect``.
They take the round's ``state.Round`` ``rd``, then seats.
"""

import numpy as np

from ..compile.jit import called, inlined
from .kinds import N_BUILTIN_KINDS, N_KINDS
from .layout import G_DIR, G_N, MEM_SHORT, N_H, S_TABLE
from .piles import add_card, forget_plays, shuffle
from .seats import seat


@inlined
def _swap_rows(arr, a, b, width):
    """Rows ``a`` and ``b`` of ``arr`` exchange their first ``width`` entries."""
    for k in range(width):
        t = arr[a, k]
        arr[a, k] = arr[b, k]
        arr[b, k] = t


@called
def swap_hands(rd, a, b, nk):
    """Seats ``a`` and ``b`` exchange hands (and what the table knows they lack); the
    hands hold no kind from ``nk`` on (``piles.kinds_in_play``)."""
    mem = rd.memory
    hands = rd.hands
    hinfo = rd.hand_summary
    t = mem[MEM_SHORT + a]
    mem[MEM_SHORT + a] = mem[MEM_SHORT + b]
    mem[MEM_SHORT + b] = t
    forget_plays(rd, a)
    forget_plays(rd, b)
    # constant widths: a loop to a bound known when compiling runs about 5% faster on
    # Seven-Zero rounds (notes/turn-loop-cost.md)
    if nk == N_BUILTIN_KINDS:
        _swap_rows(hands, a, b, N_BUILTIN_KINDS)
    else:
        _swap_rows(hands, a, b, N_KINDS)
    _swap_rows(hinfo, a, b, N_H)


@called
def rotate_hands(rd, nk):
    """8.2 Seven-Zero's 0: every hand passes to the next player in the direction of play
    (``nk``: ``swap_hands``'s)."""
    g = rd.game_state
    n = g[G_N]
    d = g[G_DIR]
    # a chain of swaps along the direction of play moves each hand one seat onward
    q = np.int64(0)  # not a literal: see ``shuffle_all_hands``
    for _ in range(n - 1):
        nxt = seat(q, -d, n)
        swap_hands(rd, q, nxt, nk)
        q = nxt


@called
def shuffle_all_hands(rd, p, nk):
    """Wild Shuffle Hands: collect, shuffle, deal one at a time from the next player
    (``nk``: ``swap_hands``'s)."""
    g = rd.game_state
    mem = rd.memory
    hands = rd.hands
    hinfo = rd.hand_summary
    st = rd.streams
    scratch = rd.scratch
    n = g[G_N]
    # int64, not a literal: numba types a call while inferring the types, and a
    # counter that starts at a literal compiled the callee a second time (jit.py)
    m = np.int64(0)
    for q in range(n):
        for k in range(nk):
            for _ in range(hands[q, k]):
                scratch[m] = k
                m += 1
            hands[q, k] = 0
        for j in range(N_H):
            hinfo[q, j] = 0
        mem[MEM_SHORT + q] = 0
        forget_plays(rd, q)
    shuffle(scratch, m, st, S_TABLE)
    d = g[G_DIR]
    for i in range(m):
        add_card(rd, (p + d * (1 + i % n)) % n, np.int64(scratch[i]))
