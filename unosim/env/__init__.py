"""Reinforcement-learning environments on the stepwise game (``unosim.Game``); install
the ``env`` extra (``docs/environments.md``).

* ``gym_env(rules, n_players, opponents, seat, **options)`` / ``gymnasium.make(
  "unosim/Uno-v0", ...)``: one seat against built-in players (``UnoEnv``);
* ``aec_env`` and ``parallel_env``: PettingZoo environments, every seat an agent
  (``UnoAEC``, ``UnoParallel``);
* ``UnoVectorEnv``: many games as a Gymnasium ``VectorEnv`` (``gymnasium.make_vec(
  "unosim/Uno-v0", num_envs, vectorization_mode="vector_entry_point")``), on
  ``BatchEnv`` (arrays in and out, the kernel's int64 fields).

The action space is ``Discrete(130)`` (``unosim.ACTIONS``); the options and their
defaults (reward, ``auto_uno``, ``draw_only_when_stuck``, ``full_rules``, ``illegal``,
``observation``) are in ``unosim.env.options``.
"""

from __future__ import annotations

import gymnasium

from ..sim.outside import N_ACTIONS, IllegalAction
from .batch import N_OBS, BatchEnv, UnoVectorEnv
from .multi import UnoAEC, UnoParallel, aec_env, parallel_env
from .options import ENV_VERSION, N_FLAT, REWARDS
from .single import UnoEnv, gym_env

__all__ = [
    "BatchEnv",
    "ENV_VERSION",
    "IllegalAction",
    "N_ACTIONS",
    "N_FLAT",
    "N_OBS",
    "REWARDS",
    "UnoAEC",
    "UnoEnv",
    "UnoParallel",
    "UnoVectorEnv",
    "aec_env",
    "gym_env",
    "parallel_env",
]

ENV_ID = "unosim/Uno-v0"
if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        id=ENV_ID,
        entry_point="unosim.env.single:UnoEnv",
        vector_entry_point="unosim.env.batch:UnoVectorEnv",
    )
