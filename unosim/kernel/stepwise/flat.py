"""The stepwise game's step as one call from Python, for the environments: apply an
action, advance, and write the stepped seat's flat observation.

A call of a kernel from Python unboxes each of its arrays (about 80 for a step: the
round, its checkpoint, the search scratch...); compiled without numba's reference
counting, as every kernel is, that costs 1.7 us instead of 4.2, and writing the
observation in the same call saves a second one.
"""

from ..compile.jit import called, inlined
from ..outside.protocol import N_ACTIONS, O_MASK, O_SEAT, O_STATUS, ST_ASKING
from .tensors import observation_tensor
from .turns import start_game, step_game


@inlined
def write_flat(ob, deck, seat, flat):
    """``seat``'s flat observation into ``flat`` float32[N_ACTIONS + N_T]: its mask (all
    zero unless it is asked) then its observation tensor."""
    mine = ob[O_STATUS] == ST_ASKING and ob[O_SEAT] == seat
    for a in range(N_ACTIONS):
        flat[a] = ob[O_MASK + a] if mine else 0.0
    observation_tensor(ob, deck, seat, flat[N_ACTIONS:])


@called
def step_flat(tb, rd, ck, order, expert_params, sa, out, cfg, action, deck, seat, flat):
    """``turns.step_game``, then, when the action was legal, ``seat``'s flat observation
    into ``flat`` (``write_flat``).

    Parameters
    ----------
    tb : state.Table
        The rules, strategies, deck and points (``turns.step_game``).
    rd, ck : state.Round
        The round and its checkpoint.
    order : int8[cards]
        The deck in kind order.
    expert_params : int64[MAX_PLAYERS, N_X]
        Expert opponents' parameters (all 0: none).
    sa : tuple or None
        ``turns.new_search``'s scratch (None without expert seats).
    out : int32[N_COLS]
        The round's record, written when it ends.
    cfg : int64[N_CF]
        ``turns.CF_*``.
    action : int64
        An index of the action space (``outside``).
    deck : int64[N_KINDS]
        The deck's copies of each kind (the observation's counts).
    seat : int64
        The seat observed.
    flat : float32[N_ACTIONS + N_T]
        Written: the seat's mask, then its observation tensor.

    Returns
    -------
    int64
        ``turns``' status (``ERR_*`` < 0: nothing written, the state unchanged).
    """
    st = step_game(tb, rd, ck, order, expert_params, sa, out, cfg, action)
    if st >= 0:
        write_flat(rd.outside_log, deck, seat, flat)
    return st


@called
def start_flat(tb, rd, ck, order, expert_params, sa, out, cfg, deck, seat, flat):
    """``turns.start_game`` (the round set up in ``rd.outside_log``), then ``seat``'s flat
    observation into ``flat``.

    Parameters
    ----------
    tb : state.Table
        The rules, strategies, deck and points (``turns.step_game``).
    rd, ck : state.Round
        The round and its checkpoint.
    order : int8[cards]
        The deck in kind order.
    expert_params : int64[MAX_PLAYERS, N_X]
        Expert opponents' parameters (all 0: none).
    sa : tuple or None
        ``turns.new_search``'s scratch (None without expert seats).
    out : int32[N_COLS]
        The round's record, written when it ends.
    cfg : int64[N_CF]
        ``turns.CF_*``.
    deck : int64[N_KINDS]
        The deck's copies of each kind (the observation's counts).
    seat : int64
        The seat observed.
    flat : float32[N_ACTIONS + N_T]
        Written: the seat's mask, then its observation tensor.

    Returns
    -------
    int64
        ``turns``' status (``ERR_*`` < 0: nothing written, the state unchanged).
    """
    st = start_game(tb, rd, ck, order, expert_params, sa, out, cfg)
    write_flat(rd.outside_log, deck, seat, flat)
    return st
