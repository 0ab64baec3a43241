"""The stepwise game: one round held as arrays, advanced one decision at a time.

A game's state is a ``state.Round`` ``rd`` whose seats decided outside the kernel
(``outside.OUTSIDE``) are stepped by the caller, a second ``Round`` ``ck`` (the
checkpoint, ``outside_run``), the round's record ``out`` int32[N_COLS] and ``cfg``
int64[N_CF] (``CF_*``). Everything the future of the round depends on is in these
arrays, the random streams too, so a copy of them plays the same future (``clone``,
``snapshot``). ``step_game`` checks an action against the state's own mask, logs it and
advances the round to the next decision (``outside_run.advance``: one numba call). Its
``ob`` is longer than a batch's by ``outside.VIEW_N``: there the kernel keeps every hand
at the decision asked (the observations of seats that do not decide), whether single
legal actions are asked too, and a seat stream carried over a fresh deal.

Unlike ``outside_run``'s batches, every stop of the turn loop becomes the checkpoint, so
a decision inside a turn (the UNO call, a jump-in, a swap...) replays at most the
current turn, and ``resample_hidden`` can redeal the hidden cards at the checkpoint.

The seats' own streams ``S_SEAT0 + p`` are never drawn from for an outside seat's
decision; ``builtin_step`` draws the ``random`` strategy's choice from them exactly as
``decide`` would (so a round stepped with it at every seat is ``batch.run_rounds``'s
round for the same seed and game), and keeps the stream in ``rd`` and ``ck`` alike.
"""

import numpy as np

from ..compile.jit import called, jitted
from ..core.kinds import COLOUR, N_COLOURS
from ..core.layout import G_CHALLENGEABLE, G_N, R_STACKING, S_SEAT0, STACK_NONE
from ..core.rng import below, seed_streams
from ..expert.search import search_arrays
from ..outside.protocol import (
    A_CHALLENGE,
    A_COLOUR,
    A_DRAW,
    A_PASS,
    A_PLAY,
    A_SEAT,
    A_UNO,
    D_COLOUR,
    D_DRAWN,
    D_EXTRA,
    D_JUMP,
    D_PENALTY,
    D_TARGET,
    D_TURN,
    D_UNO,
    LOG_CAP,
    N_ACTIONS,
    O_CK_P,
    O_DIRTY,
    O_GAME,
    O_KIND,
    O_LIVE_P,
    O_LOG,
    O_LOG_N,
    O_MASK,
    O_OBS,
    O_SEAT,
    O_SEED,
    O_STATUS,
    ST_ASKING,
    ST_DONE,
    V_CARD,
    W_OVERRIDE,
    keep_hands,
    observe,
    play_action,
    view_at,
)
from ..outside.rounds import _checkpoint, advance
from ..rules.declared import names_colour
from ..rules.family import table_rules
from ..strategies.decide import choose_card, choose_colour, choose_stack, will_challenge

# ``cfg``: the game's settings
CF_N = 0  # players
CF_STOP = 1  # bit s: seat s decided outside (stepped)
CF_AUTO_UNO = 2  # 1: an outside seat says UNO without being asked
N_CF = 3

# ``step_game``'s answers besides a status ``outside.ST_*``
ERR_ILLEGAL = -1  # the action is not legal at the decision at hand
ERR_OVER = -2  # the round is over
ERR_LOG = -3  # more than ``LOG_CAP`` decisions within one turn


@jitted()
def new_search(tb, deck_n):
    """The expert seats' search scratch (``expert.search_arrays``).

    Parameters
    ----------
    tb : state.Table
        The rules, strategies, deck and points.
    deck_n : int64
        Cards in the deck; 0: no expert seat (the scratch is then empty).

    Returns
    -------
    tuple
        The scratch ``step_game`` takes as ``sa``.
    """
    return search_arrays(tb, deck_n)


@called
def _log(ob, a):
    n = ob[O_LOG_N]
    if n >= LOG_CAP:
        return False
    ob[O_LOG + n] = a
    ob[O_LOG_N] = n + 1
    return True


@called
def _run(tb, rd, ck, order, expert_params, sa, out, cfg):
    """Advance to the next decision asked (or the end); a stop of the turn loop becomes
    the checkpoint; the UNO call is made for the seat when ``CF_AUTO_UNO``."""
    ob = rd.outside_log
    n = cfg[CF_N]
    while True:
        st = advance(tb, rd, ck, n, order, cfg[CF_STOP], out, expert_params, sa)
        o = view_at(ob)
        if ob[o + W_OVERRIDE] == 1:
            # a stream drawn from at the setup's decision, before any checkpoint: the
            # deal again (``advance``) seeded it afresh; the state carries it over
            r = S_SEAT0 + ob[o + W_OVERRIDE + 1]
            for j in range(4):
                rd.streams[r, j] = np.uint64(ob[o + W_OVERRIDE + 2 + j])
                if ob[O_CK_P] >= 0:
                    ck.streams[r, j] = rd.streams[r, j]
            if ob[O_CK_P] >= 0 or st == ST_DONE:
                ob[o + W_OVERRIDE] = 0
        if st == ST_DONE:  # the end as every seat sees it: the final hands, no decision
            none = np.int64(-1)
            observe(tb, rd, np.int64(0), none, none, none, np.int64(0), np.int64(0))
            keep_hands(rd)
            for a in range(N_ACTIONS):
                ob[O_MASK + a] = 0
        if st != ST_ASKING:
            return st
        if ob[O_DIRTY] == 2:  # waiting at a stop of the turn loop: checkpoint it
            _checkpoint(rd, ck, n, ob[O_LIVE_P], np.int64(1))
            ob[o + W_OVERRIDE] = 0  # a carried stream is the checkpoint's now
        if cfg[CF_AUTO_UNO] == 1 and ob[O_KIND] == D_UNO:
            if not _log(ob, np.int64(A_UNO)):
                return np.int64(ERR_LOG)
            continue
        return st


@jitted(nogil=True)
def start_game(tb, rd, ck, order, expert_params, sa, out, cfg):
    """Deal the round set up in ``rd.outside_log`` (seed, game index) and advance it to its first
    decision asked.

    Parameters
    ----------
    tb : state.Table
        The rules, strategies (``outside.OUTSIDE`` at the stepped seats), deck, points.
    rd, ck : state.Round
        The round and its checkpoint (``rd.outside_log`` with the game's room, ``outside.VIEW_N``).
    order : int8[cards]
        The deck in kind order.
    expert_params : int64[MAX_PLAYERS, N_X]
        Expert opponents' parameters (all 0: none).
    sa : tuple or None
        ``new_search``'s scratch (None without expert seats).
    out : int32[N_COLS]
        The round's record, written when it ends.
    cfg : int64[N_CF]
        ``CF_*``.

    Returns
    -------
    int64
        ``outside.ST_ASKING`` or ``ST_DONE``.
    """
    o = view_at(rd.outside_log)
    rd.outside_log[o + W_OVERRIDE] = 0
    return _run(tb, rd, ck, order, expert_params, sa, out, cfg)


@jitted(nogil=True)
def step_game(tb, rd, ck, order, expert_params, sa, out, cfg, action):
    """Apply ``action`` at the decision at hand (checked against the state's own mask)
    and advance to the next decision asked, or to the end.

    Parameters
    ----------
    tb : state.Table
        The rules, strategies (``outside.OUTSIDE`` at the stepped seats), deck, points.
    rd, ck : state.Round
        The round and its checkpoint (``rd.outside_log`` with the game's room, ``outside.VIEW_N``).
    order : int8[cards]
        The deck in kind order.
    expert_params : int64[MAX_PLAYERS, N_X]
        Expert opponents' parameters (all 0: none).
    sa : tuple or None
        ``new_search``'s scratch (None without expert seats).
    out : int32[N_COLS]
        The round's record, written when it ends.
    cfg : int64[N_CF]
        ``CF_*``.
    action : int64
        An index of the action space (``outside``).

    Returns
    -------
    int64
        ``outside.ST_ASKING`` or ``ST_DONE``; ``ERR_*`` (the state unchanged).
    """
    ob = rd.outside_log
    if ob[O_STATUS] != ST_ASKING:
        return np.int64(ERR_OVER)
    if action < 0 or action >= N_ACTIONS or ob[O_MASK + action] != 1:
        return np.int64(ERR_ILLEGAL)
    if not _log(ob, action):
        return np.int64(ERR_LOG)
    return _run(tb, rd, ck, order, expert_params, sa, out, cfg)


@called
def _play(tbr, rd, p, k):
    """The action playing ``k``, naming the colour ``random`` draws for it when it
    names one (``effects.play``: a declared wild card may name none)."""
    c = np.int64(0)
    if COLOUR[k] < 0 and names_colour(tbr, k):
        c = choose_colour(tbr, rd, p, np.int64(0))
    return play_action(k, c)


@called
def _random_choice(tbr, rd, p, kind, card):
    """The ``random`` strategy's action at the decision (``decide``'s draws from the
    seat's stream ``S_SEAT0 + p`` of ``rd``, in ``decide``'s order: the card, then the
    colour it names)."""
    n = rd.game_state[G_N]
    if kind == D_TURN:
        k = choose_card(tbr, rd, p)
        if k < 0:
            return np.int64(A_DRAW)
        return _play(tbr, rd, p, k)
    if kind == D_PENALTY:  # as ``pending._facing_penalty`` asks
        if rd.game_state[G_CHALLENGEABLE] == 1 and will_challenge(tbr, rd, p):
            return np.int64(A_CHALLENGE)
        k = np.int64(-1)
        if table_rules(tbr)[R_STACKING] != STACK_NONE:
            k = choose_stack(tbr, rd, p)
        if k < 0:
            return np.int64(A_DRAW)
        return _play(tbr, rd, p, k)
    if kind == D_DRAWN:  # every strategy plays a legal card it has drawn
        return _play(tbr, rd, p, card)
    if kind == D_COLOUR:
        return A_COLOUR + below(rd.streams, S_SEAT0 + p, N_COLOURS)
    if kind == D_TARGET:
        q = below(rd.streams, S_SEAT0 + p, n - 1)
        return A_SEAT + (q if q < p else q + 1)
    if kind == D_JUMP:  # ``jump`` 1: always, without a draw
        return A_PLAY + card
    if kind == D_EXTRA:  # random plays one card
        return np.int64(A_PASS)
    return np.int64(A_UNO)  # D_UNO: ``forget_uno`` 0, without a draw


@jitted(nogil=True)
def builtin_step(tb, tbr, rd, ck, order, expert_params, sa, out, cfg):
    """The ``random`` strategy's action at the decision at hand, applied (``step_game``).

    At a stop of the turn loop the state is the decision's own and equals the
    checkpoint; inside a turn (the round ran past the decision) the choice draws from
    the checkpoint's stream of the seat (nothing else draws from it in between), or,
    before the first checkpoint (the colour named at setup), from a freshly seeded one
    carried over the next deal (``W_OVERRIDE``).

    Parameters
    ----------
    tbr : state.Table
        ``tb`` with every seat ``random`` (its default parameters).
    tb : state.Table
        The rules, strategies (``outside.OUTSIDE`` at the stepped seats), deck, points.
    rd, ck : state.Round
        The round and its checkpoint (``rd.outside_log`` with the game's room, ``outside.VIEW_N``).
    order : int8[cards]
        The deck in kind order.
    expert_params : int64[MAX_PLAYERS, N_X]
        Expert opponents' parameters (all 0: none).
    sa : tuple or None
        ``new_search``'s scratch (None without expert seats).
    out : int32[N_COLS]
        The round's record, written when it ends.
    cfg : int64[N_CF]
        ``CF_*``.

    Returns
    -------
    (int64, int64)
        The action, and ``step_game``'s answer.
    """
    ob = rd.outside_log
    if ob[O_STATUS] != ST_ASKING:
        return np.int64(-1), np.int64(ERR_OVER)
    p = ob[O_SEAT]
    kind = ob[O_KIND]
    card = ob[O_OBS + V_CARD]
    r = S_SEAT0 + p
    o = view_at(ob)
    fresh = ob[O_DIRTY] != 2 and ob[O_CK_P] < 0
    if fresh:  # the stream as ``advance`` seeds it for the deal
        if ob[o + W_OVERRIDE] == 1:
            for j in range(4):
                ck.streams[r, j] = np.uint64(ob[o + W_OVERRIDE + 2 + j])
        else:
            seed_streams(ck.streams, ob[O_SEED], ob[O_GAME], np.int64(0), S_SEAT0 + cfg[CF_N])
    src = rd if ob[O_DIRTY] == 2 else ck
    keep = np.empty(4, np.uint64)
    for j in range(4):
        keep[j] = rd.streams[r, j]
        rd.streams[r, j] = src.streams[r, j]
    a = _random_choice(tbr, rd, p, kind, card)
    for j in range(4):
        ck.streams[r, j] = rd.streams[r, j]
    if fresh:
        ob[o + W_OVERRIDE] = 1
        ob[o + W_OVERRIDE + 1] = p
        for j in range(4):
            ob[o + W_OVERRIDE + 2 + j] = np.int64(rd.streams[r, j])
    if ob[O_DIRTY] != 2:
        for j in range(4):
            rd.streams[r, j] = keep[j]
    return a, step_game(tb, rd, ck, order, expert_params, sa, out, cfg, a)


@jitted(nogil=True)
def copy_round(src, dst):
    """Every array of ``src`` into ``dst`` (a state's copy: ``clone``, ``snapshot``).

    Parameters
    ----------
    src, dst : state.Round
        Two rounds of one game's shapes.

    Returns
    -------
    None
    """
    dst.game_state[:] = src.game_state
    dst.counters[:] = src.counters
    dst.memory[:] = src.memory
    dst.trace_flags[:] = src.trace_flags
    dst.hands[:] = src.hands
    dst.hand_summary[:] = src.hand_summary
    dst.pile[:] = src.pile
    dst.disc[:] = src.disc
    dst.penalties[:] = src.penalties
    dst.streams[:] = src.streams
    dst.scratch[:] = src.scratch
    dst.seq[:] = src.seq
    dst.trace[:] = src.trace
    dst.outside_log[:] = src.outside_log
