"""What every environment shares: its options, spaces and rewards.

The options a learner needs, with their defaults (``docs/environments.md``):

* ``reward``: ``"win"`` (+1 to the round's winner, 0 otherwise), ``"points"`` (the
  winner's points, RULES.md 5) or ``"rank"`` (+1 for the winner down to -1 for the
  hand with the most points); a round cut at ``max_turns`` gives 0;
* ``auto_uno`` (True): the seat says UNO without being asked (staying silent is a
  decision of the full rules, 4.4);
* ``draw_only_when_stuck`` (True): drawing is legal only with no playable card (the
  rules' ``voluntary_draw`` allows it always);
* ``full_rules`` (False): True sets both of the above to False, every decision of the
  rules then being the agent's;
* ``illegal`` (``"lose"``): an illegal action ends the round, -1 to the seat that made
  it (``info["illegal"]`` names the decision, the action and the legal ones); ``"raise"``
  raises ``unosim.IllegalAction``;
* ``observation`` (``"flat"``): float32[130 + N_T] in [0, 1], the action mask then the
  observation tensor; ``"dict"``: ``{"observation": float32[N_T], "action_mask":
  int8[130]}``.

Any other keyword is a house rule over ``rules`` (``stacking="same"``, ``jump_in=True``).
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from ..game.rules import resolve
from ..kernel.stepwise.tensors import N_T
from ..sim.game import N_ACTIONS
from ..versions import ENV_VERSION  # noqa: F401  (published here: unosim.env.ENV_VERSION)

REWARDS = ("win", "points", "rank")
ILLEGAL = ("lose", "raise")
OBSERVATIONS = ("flat", "dict")
N_FLAT = N_ACTIONS + N_T


def check_choice(name: str, value, choices) -> str:
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(choices)}, got {value!r}")
    return value


def learner_rules(auto_uno: bool, draw_only_when_stuck: bool, full_rules: bool) -> dict:
    """The ``Game`` options of an environment's seats."""
    if full_rules:
        return {"auto_uno": False, "draw_only_when_stuck": False}
    return {"auto_uno": bool(auto_uno), "draw_only_when_stuck": bool(draw_only_when_stuck)}


def rules_of(rules, house: dict):
    return resolve(rules, dict(house) if house else None)


def players(rs, n) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise ValueError(f"n_players must be a whole number, got {n!r}")
    rs.check_players(int(n))
    return int(n)


def observation_space(form: str):
    """The space of one seat's observation in ``form`` (``OBSERVATIONS``)."""
    if form == "flat":
        return spaces.Box(0.0, 1.0, shape=(N_FLAT,), dtype=np.float32)
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, shape=(N_T,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(N_ACTIONS,), dtype=np.int8),
        }
    )


def observe(form: str, state, seat: int):
    """``seat``'s observation of ``state`` (a ``unosim.State``) in ``form``."""
    if form == "flat":
        return state.write_flat(seat, np.empty(N_FLAT, np.float32))
    mask = state.legal_mask() if seat == state.current_player else np.zeros(N_ACTIONS, np.int8)
    return {"observation": state.observation_tensor(seat), "action_mask": mask}
