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
    into ``flat`` (``write_flat``); returns ``step_game``'s status (``ERR_*`` < 0:
    nothing written, the state unchanged)."""
    st = step_game(tb, rd, ck, order, expert_params, sa, out, cfg, action)
    if st >= 0:
        write_flat(rd.outside_log, deck, seat, flat)
    return st


@called
def start_flat(tb, rd, ck, order, expert_params, sa, out, cfg, deck, seat, flat):
    """``turns.start_game`` (the round set up in ``rd.outside_log``), then ``seat``'s flat
    observation into ``flat``; returns the status."""
    st = start_game(tb, rd, ck, order, expert_params, sa, out, cfg)
    write_flat(rd.outside_log, deck, seat, flat)
    return st
