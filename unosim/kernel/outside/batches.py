"""Many games with one outside seat stepped together, one call per thread and step
(``unosim.env.BatchEnv``).

``step_batch`` does for each game of its slots what the environment's step asks: deal
the next game where one ended, log the seat's action, advance the game to the seat's
next decision (``outside_run.advance``; saying UNO for it when asked to) or to its end,
and write the observation, the mask, the reward and the done flag into the caller's
arrays. A game depends only on its (seed, game index) and the actions in its log, so
the split of the slots across calls and threads never changes it; the caller hands out
game indices in slot order (``check_batch`` first, so that an illegal action changes
nothing). ``sample_batch`` draws a uniformly random legal action for each game, the
policy every benchmark of an environment plays.
"""

import numpy as np

from ..compile.jit import called, jitted
from ..core.layout import C_POINTS, C_TRUNCATED, C_WINNER
from ..core.rng import below_state, key_state, round_key
from ..expert.rounds import X_ROLLOUTS, search_arrays
from .protocol import (
    A_UNO,
    D_UNO,
    LOG_CAP,
    N_ACTIONS,
    N_OH,
    N_V,
    O_CK_P,
    O_GAME,
    O_HIST_CAP,
    O_KIND,
    O_LOG,
    O_LOG_N,
    O_MASK,
    O_OBS,
    O_SEED,
    O_STATUS,
    O_VOLUNTARY,
    ST_ASKING,
    ST_DONE,
)
from .rounds import _view, advance

# ``cfg`` of ``step_batch``: the batch's settings
BC_SEAT = 0  # the stepped seat
BC_POINTS = 1  # a win's reward: 0: 1, 1: the winner's points (RULES.md 5)
BC_AUTO_UNO = 2  # 1: the seat says UNO without being asked (4.4)
BC_SEED = 3  # the root seed of the games dealt
BC_VOLUNTARY = 4  # the rule voluntary_draw (``O_VOLUNTARY``)
BC_HIST_CAP = 5  # rows of public history kept (``O_HIST_CAP``)
N_BC = 6
ERR_LOG_FULL = -3  # a status of ``step_batch``: more than ``LOG_CAP`` decisions in a turn


@called
def _deal(ob, cfg, game):
    """Set up game index ``game`` of the root seed in the slot whose ``ob`` this is, to be
    dealt by the next ``advance`` (as ``sim.outside.Tables.start`` does)."""
    for j in range(N_OH):
        ob[j] = 0
    ob[O_CK_P] = -1
    ob[O_HIST_CAP] = cfg[BC_HIST_CAP]
    ob[O_VOLUNTARY] = cfg[BC_VOLUNTARY]
    ob[O_SEED] = cfg[BC_SEED]
    ob[O_GAME] = game


@called
def _log(ob, a):
    n = ob[O_LOG_N]
    if n >= LOG_CAP:
        return False
    ob[O_LOG + n] = a
    ob[O_LOG_N] = n + 1
    return True


@jitted(nogil=True)
def check_batch(ob, slots, actions):
    """The first ``j`` whose action ``actions[j]`` cannot be logged for the game in slot
    ``slots[j]``: not legal at the decision it waits at (judged by the engine's own
    mask), or its log full.

    Parameters
    ----------
    ob : int64[b, ob_size]
        The games' ``rd.outside_log``, stacked (``outside_run.new_games``).
    slots : int64[m]
        The slots.
    actions : int64[m]
        The action for each.

    Returns
    -------
    int64
        That ``j``, or -1 when every action may be logged.
    """
    for j in range(slots.size):
        i = slots[j]
        a = actions[j]
        if (
            ob[i, O_STATUS] != ST_ASKING
            or a < 0
            or a >= N_ACTIONS
            or ob[i, O_MASK + a] != 1
            or ob[i, O_LOG_N] >= LOG_CAP
        ):
            return np.int64(j)
    return np.int64(-1)


@jitted(nogil=True)
def step_batch(tb, games, cks, n, order, stop, out, expert_params, cfg, slots, actions, deal, res):
    """Step the games in ``slots``: deal a game where asked, log the seat's action,
    advance each game to the seat's next decision (saying UNO for it under
    ``BC_AUTO_UNO``) or to its end, and write what the environment returns.

    Parameters
    ----------
    tb : state.Table
        The rules, strategies (``outside.OUTSIDE`` at the stepped seat), deck, points.
    games, cks : state.Round
        The games and their checkpoints, stacked (``outside_run.new_games``).
    n : int64
        Players.
    order : int8[cards]
        The deck in kind order.
    stop : int64
        Bit ``s`` set: seat ``s`` is decided outside (the stepped seat).
    out : int32[b, N_COLS]
        Records, written for the games that end.
    expert_params : int64[MAX_PLAYERS, N_X]
        Expert opponents' parameters (``X_ROLLOUTS`` 0: not an expert).
    cfg : int64[N_BC]
        The batch's settings ``BC_*``.
    slots : int64[m]
        The slots to step.
    actions : int64[m]
        The action logged for each first (``check_batch`` passed); -1: none.
    deal : int64[m]
        The game index dealt in each first; -1: none (the slot's game goes on).
    res : tuple
        (obs int64[b, N_V], mask int8[b, N_ACTIONS], reward float64[b], done bool[b],
        status int64[b]): rows ``slots`` are written: the observation and mask at the
        seat's next decision (not for a game that ended), the reward of a game that
        ended added, its done flag set, the status (``outside.ST_*``, ``ERR_LOG_FULL``).

    Returns
    -------
    int64
        How many of the games ended.
    """
    obs, mask, reward, done, status = res
    searching = False
    for q in range(n):
        searching = searching or expert_params[q, X_ROLLOUTS] > 0
    sa = search_arrays(tb, order.size if searching else 0)  # this call's own scratch
    seat = cfg[BC_SEAT]
    ended = np.int64(0)
    for j in range(slots.size):
        i = slots[j]
        rd = _view(games, i)
        ck = _view(cks, i)
        ob = rd.outside_log
        if deal[j] >= 0:
            _deal(ob, cfg, deal[j])
        if actions[j] >= 0:
            _log(ob, actions[j])
        st = advance(tb, rd, ck, n, order, stop, out[i], expert_params, sa)
        while cfg[BC_AUTO_UNO] == 1 and st == ST_ASKING and ob[O_KIND] == D_UNO:
            if not _log(ob, np.int64(A_UNO)):
                st = np.int64(ERR_LOG_FULL)
                break
            st = advance(tb, rd, ck, n, order, stop, out[i], expert_params, sa)
        status[i] = st
        if st == ST_DONE:
            ended += 1
            done[i] = True
            if out[i, C_WINNER] == seat and out[i, C_TRUNCATED] == 0:
                reward[i] += out[i, C_POINTS] if cfg[BC_POINTS] == 1 else 1.0
        elif st == ST_ASKING:
            for k in range(N_V):
                obs[i, k] = ob[O_OBS + k]
            for a in range(N_ACTIONS):
                mask[i, a] = ob[O_MASK + a]
    return ended


@jitted(nogil=True)
def sample_batch(ob, lo, hi, key, actions):
    """A uniformly random legal action for the games in slots ``lo`` to ``hi - 1``:
    slot ``i``'s is drawn from its own stream, seeded by (``key``, ``i``), so the actions
    do not depend on how the slots are split across calls and threads.

    Parameters
    ----------
    ob : int64[b, ob_size]
        The games' ``rd.outside_log``, stacked: the mask of the decision each waits at.
    lo, hi : int64
        The slots drawn for.
    key : int64
        The draw's key (a new one for every draw).
    actions : int64[b]
        Rows ``lo`` to ``hi - 1`` are written: the action, or -1 for a game that waits
        at no decision.

    Returns
    -------
    None
        (``actions`` holds the draw.)
    """
    for i in range(lo, hi):
        legal = np.int64(0)
        if ob[i, O_STATUS] == ST_ASKING:
            for a in range(N_ACTIONS):
                legal += ob[i, O_MASK + a] == 1
        actions[i] = -1
        if legal == 0:
            continue
        h = round_key(key, i, 0)
        s0, s1, s2, s3 = key_state(h)
        r = below_state(legal, s0, s1, s2, s3)[0]
        for a in range(N_ACTIONS):
            if ob[i, O_MASK + a] == 1:
                if r == 0:
                    actions[i] = a
                    break
                r -= 1
