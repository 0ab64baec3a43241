"""The stepwise game's hidden cards dealt anew (``State.resample_hidden``, for
determinizing searches): at the checkpoint of ``kernel.stepwise.turns``, then the decisions since
replayed to the decision at hand."""

import numpy as np

from ..compile.jit import called, jitted
from ..core.layout import (
    E_EXTRA,
    E_JUMP,
    E_PLAY,
    E_ROTATE,
    E_SHUFFLE,
    E_STACK,
    E_SWAP,
    G_PILE_N,
    MAX_PLAYERS,
    N_STREAMS,
    S_SEAT0,
)
from ..core.piles import add_card, remove_card, shuffle
from ..core.rng import next_u64
from ..outside.protocol import (
    D_JUMP,
    HIST_W,
    LOG_CAP,
    N_SEEN,
    O_CK_HIST,
    O_CK_P,
    O_DIRTY,
    O_HIST,
    O_HIST_CAP,
    O_HIST_N,
    O_KIND,
    O_OBS,
    O_SEAT,
    O_STATUS,
    ST_ASKING,
    V_CARD,
    W_HANDS,
    view_at,
)
from .turns import CF_N, _run


@called
def _redeal(rd, n, seat, keep_seat, keep_kind, n_keep, st, sizes):
    """The cards ``seat`` cannot see (the other hands, the draw pile) dealt anew, every
    hand keeping its size and the cards ``keep_kind[i]`` staying in hand
    ``keep_seat[i]`` (cards they have shown since), from stream 0 of ``st``
    (uint64[N_STREAMS, 4]); every stream but the seat's own is seeded anew from it too
    (the future chance is hidden as well). ``sizes``: int64[MAX_PLAYERS] work space."""
    pool = rd.scratch  # int8[deck]: work space
    nk = rd.hands.shape[1]
    for q in range(MAX_PLAYERS):
        sizes[q] = 0
    pool_n = 0
    for q in range(n):
        if q == seat:
            continue
        for k in range(nk):
            c = rd.hands[q, k]
            sizes[q] += c
            for _ in range(c):
                remove_card(rd, q, np.int64(k))
                pool[pool_n] = k
                pool_n += 1
    for i in range(n_keep):  # back into their hands first
        q = keep_seat[i]
        k = keep_kind[i]
        for j in range(pool_n):
            if pool[j] == k:
                pool[j] = pool[pool_n - 1]
                pool_n -= 1
                add_card(rd, q, np.int64(k))
                sizes[q] -= 1
                break
    pn = rd.game_state[G_PILE_N]
    for i in range(pn):
        pool[pool_n] = rd.pile[i]
        pool_n += 1
    shuffle(pool, pool_n, st, np.int64(0))
    x = 0
    for q in range(n):
        if q == seat:
            continue
        for _ in range(sizes[q]):
            add_card(rd, q, np.int64(pool[x]))
            x += 1
    for i in range(pn):
        rd.pile[i] = pool[x]
        x += 1
    for s in range(N_STREAMS):
        if s != S_SEAT0 + seat:
            for j in range(4):
                rd.streams[s, j] = next_u64(st, np.int64(0))


@jitted(nogil=True)
def resample_game(tb, rd, ck, order, expert_params, sa, out, cfg, seat, key):
    """Deal anew what ``seat`` cannot see, consistently with what it knows, and replay
    to the decision at hand (``_redeal`` at the checkpoint, the decisions since replayed).

    Parameters
    ----------
    tb : state.Table
        The rules, strategies, deck and points.
    rd, ck : state.Round
        The round and its checkpoint (``kernel.stepwise.turns``).
    order : int8[cards]
        The deck in kind order.
    expert_params : int64[MAX_PLAYERS, N_X]
        Expert opponents' parameters.
    sa : tuple or None
        ``step.new_search``'s scratch (None without expert seats).
    out : int32[N_COLS]
        The round's record.
    cfg : int64[N_CF]
        ``step.CF_*``.
    seat : int64
        The seat whose knowledge is kept.
    key : uint64[4]
        The stream state to deal from.

    Returns
    -------
    int64
        1 when the replay reached the same decision with ``seat``'s own hand unchanged
        and every hand sound; 0 when not (the caller restores its copy and tries another
        key); -1 when the state cannot be redealt (the round is over, or it waits at the
        colour named at setup, before any checkpoint).
    """
    ob = rd.outside_log
    n = cfg[CF_N]
    if ob[O_STATUS] != ST_ASKING or ob[O_CK_P] < 0:
        return np.int64(-1)
    o = view_at(ob)
    p0 = ob[O_SEAT]
    kind0 = ob[O_KIND]
    hand0 = np.empty(N_SEEN, np.int64)
    for k in range(N_SEEN):
        hand0[k] = ob[o + W_HANDS + seat * N_SEEN + k]
    # the cards the other seats showed since the checkpoint stay theirs: their plays
    # (from the public history), and the card a seat is asked to jump in with
    keep_seat = np.empty(LOG_CAP + 1, np.int64)
    keep_kind = np.empty(LOG_CAP + 1, np.int64)
    n_keep = 0
    cap = ob[O_HIST_CAP]
    lo = ob[O_CK_HIST]
    hi = ob[O_HIST_N]
    if hi - lo > cap:
        return np.int64(0)
    for i in range(lo, hi):
        j = O_HIST + (i % cap) * HIST_W
        typ = ob[j]
        if typ == E_SWAP or typ == E_ROTATE or typ == E_SHUFFLE:
            return np.int64(0)  # hands moved since: no redeal at this decision
        if (
            (typ == E_PLAY or typ == E_STACK or typ == E_JUMP or typ == E_EXTRA)
            and ob[j + 1] != seat
            and n_keep < LOG_CAP
        ):
            keep_seat[n_keep] = ob[j + 1]
            keep_kind[n_keep] = ob[j + 2]
            n_keep += 1
    if kind0 == D_JUMP and p0 != seat:
        keep_seat[n_keep] = p0
        keep_kind[n_keep] = ob[O_OBS + V_CARD]
        n_keep += 1
    st = np.zeros((N_STREAMS, 4), np.uint64)
    for j in range(4):
        st[0, j] = key[j]
    _redeal(ck, n, seat, keep_seat, keep_kind, n_keep, st, np.zeros(MAX_PLAYERS, np.int64))
    ob[O_DIRTY] = 1  # replay from the checkpoint
    status = _run(tb, rd, ck, order, expert_params, sa, out, cfg)
    if status != ST_ASKING or ob[O_SEAT] != p0 or ob[O_KIND] != kind0:
        return np.int64(0)
    for k in range(N_SEEN):
        if ob[o + W_HANDS + seat * N_SEEN + k] != hand0[k]:
            return np.int64(0)
    for q in range(n):
        for k in range(rd.hands.shape[1]):
            if rd.hands[q, k] < 0:
                return np.int64(0)
    return np.int64(1)
