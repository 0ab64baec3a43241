"""A policy trained on the Gymnasium environment, seated as an agent at
``unosim.simulate`` (or ``unosim evaluate``): it sees the environment's flat
observation and mask, and the decisions the environment makes for it by default are
made for it here too."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..game.rules import resolve
from ..kernel.outside import protocol as K
from ..sim import engine
from .options import N_FLAT

_WD4 = K.A_WILD + 4  # the Wild Draw Four's 4 actions (one per colour named)
_PLAYS = K.A_DRAW  # actions below this one play a card


class EnvPolicySeat:
    """An agent (``act(observation) -> action``) playing ``policy`` as the environment
    would: ``policy(obs float32[N_FLAT], mask bool[98]) -> action`` gets the flat
    observation of ``UnoEnv`` (``observation="flat"``) and the legal actions.

    With ``auto_uno`` the UNO call is made without asking the policy; with
    ``draw_only_when_stuck`` drawing is taken out of a turn's legal actions when a card
    other than a bluffing Wild Draw Four is playable; a decision with one legal action
    is made without asking (the environment's defaults, ``unosim.env.options``).
    """

    def __init__(
        self,
        policy: Callable[[np.ndarray, np.ndarray], int],
        rules="official",
        auto_uno: bool = True,
        draw_only_when_stuck: bool = True,
        **house,
    ):
        self.policy = policy
        self.deck = resolve(rules, dict(house) if house else None).deck_counts().astype(np.int64)
        self.auto_uno = bool(auto_uno)
        self.draw_only_when_stuck = bool(draw_only_when_stuck)
        # an ``ob`` without the game's room (``view_at`` -1: the hand is the observation's)
        self._ob = np.zeros(K.O_HIST, np.int64)
        self._ob[K.O_STATUS] = K.ST_ASKING
        self.flat = np.zeros(N_FLAT, np.float32)

    def observe(self, obs) -> np.ndarray:
        """bool[98]: the legal actions as the environment offers them; writes the flat
        observation into ``self.flat``."""
        v = obs._v
        ob = self._ob
        ob[K.O_MASK : K.O_HIST] = v
        mask = v[: K.N_ACTIONS] != 0
        if self.draw_only_when_stuck and ob[K.O_OBS + K.V_KIND] == K.D_TURN and mask[K.A_DRAW]:
            plays = mask[:_PLAYS].copy()
            if ob[K.O_OBS + K.V_BLUFF] == 1:
                plays[_WD4 : _WD4 + 4] = False
            if plays.any():
                mask[K.A_DRAW] = False
        self.flat[: K.N_ACTIONS] = mask
        engine.game_observation_tensor(
            ob, self.deck, ob[K.O_OBS + K.V_SEAT], self.flat[K.N_ACTIONS :]
        )
        return mask

    def act(self, obs) -> int:
        if self.auto_uno and obs.decision == "uno":
            return K.A_UNO
        mask = self.observe(obs)
        legal = np.flatnonzero(mask)
        if legal.size == 1:
            return int(legal[0])
        return int(self.policy(self.flat, mask))
