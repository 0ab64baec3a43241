"""One seat of a UNO round against built-in players, as a Gymnasium environment, on the
stepwise game (``unosim.Game``). Registered as ``unosim/Uno-v0`` (``gymnasium.make``)."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import Env, spaces

from ..kernel.core.layout import C_TRUNCATED
from ..kernel.outside.protocol import ST_DONE
from ..sim.game import N_ACTIONS, Game, IllegalAction, State
from .options import (
    ILLEGAL,
    N_FLAT,
    OBSERVATIONS,
    REWARDS,
    check_choice,
    learner_rules,
    observation_space,
    observe,
    players,
    rules_of,
)


class UnoEnv(Env):
    """``seat`` of a UNO round against built-in ``opponents`` (one strategy for every
    other seat, a comma list or a list), a round per episode.

    ``reset(seed=s)`` deals round 0 of root seed ``s``; each later ``reset()`` the next
    round of that root (without a seed ever given, a root drawn from the environment's
    ``np_random``), so an episode is ``unosim.simulate``'s game ``i`` of that seed.
    Options and their defaults: ``unosim.env.options``. A round that ends before the
    seat's first decision is skipped (the next one is dealt). After the end, ``step``
    returns the final observation again, reward 0, ``terminated`` (or ``truncated``)
    still set and ``info["after_end"]`` True."""

    metadata = {"render_modes": [], "version": 1}

    def __init__(
        self,
        rules="official",
        n_players: int = 4,
        opponents="random",
        seat: int = 0,
        reward: str = "win",
        illegal: str = "lose",
        observation: str = "flat",
        auto_uno: bool = True,
        draw_only_when_stuck: bool = True,
        full_rules: bool = False,
        render_mode=None,
        **house,
    ):
        self.how = check_choice("reward", reward, REWARDS)
        self.illegal = check_choice("illegal", illegal, ILLEGAL)
        self.form = check_choice("observation", observation, OBSERVATIONS)
        rs = rules_of(rules, house)
        self.n = n = players(rs, n_players)
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < n:
            raise ValueError(f"seat must be a seat of the table, 0 to {n - 1}, got {seat!r}")
        self.seat = int(seat)
        opp = opponents.split(",") if isinstance(opponents, str) else list(opponents)
        if len(opp) == 1:
            opp = opp * (n - 1)
        if len(opp) != n - 1:
            raise ValueError(f"{len(opp)} opponents given for {n - 1} seats")
        seats = opp[: self.seat] + [None] + opp[self.seat :]
        self.game = Game(
            rs,
            n,
            opponents=seats,
            single_moves=False,
            **learner_rules(auto_uno, draw_only_when_stuck, full_rules),
        )
        self.observation_space = observation_space(self.form)
        self.action_space = spaces.Discrete(N_ACTIONS)
        self.render_mode = render_mode
        self._root: int | None = None
        self._index = -1
        self.state: State | None = None
        self._last: Any = None
        self._done = (False, False)
        self._over = False  # any(self._done)
        self._flat = self.form == "flat"

    # the seat's view
    def _obs(self):
        assert self.state is not None
        if self._flat:
            return self.state.write_flat(self.seat, np.empty(N_FLAT, np.float32))
        return observe(self.form, self.state, self.seat)

    def action_masks(self) -> np.ndarray:
        """bool[130]: the legal actions (all False after the end), for MaskablePPO."""
        if self.state is None:
            raise RuntimeError("reset() the environment first")
        if self._over:
            return np.zeros(N_ACTIONS, bool)
        return self.state._mask.astype(bool)  # legal_bool(), one call less

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is not None:
            self._root, self._index = int(seed) % (1 << 62), 0
        else:
            if self._root is None:
                self._root = int(self.np_random.integers(1 << 62))
            self._index += 1
        while True:
            if self.state is None or not self._flat:
                self.state = self.game.new_round(self._index, seed=self._root, reuse=self.state)
                obs = self._obs()
            else:  # the deal and the observation in one kernel call
                obs = np.empty(N_FLAT, np.float32)
                self.state._deal(self._index, self._root, self.seat, obs)
            if not self.state.is_terminal():
                break
            self._index += 1
        self._done = (False, False)
        self._over = False
        self._last = obs
        return obs, {}

    def step(self, action):
        s = self.state
        if s is None:
            raise RuntimeError("reset() the environment first")
        if self._over:
            return self._last, 0.0, self._done[0], self._done[1], {"after_end": True}
        try:
            if self._flat:  # the step and the observation in one kernel call
                obs = s.apply_flat(action, self.seat, np.empty(N_FLAT, np.float32))
            else:
                s.apply(action)
                obs = self._obs()
        except IllegalAction as e:
            if self.illegal == "raise":
                raise
            self._end(True, False)
            self._last = self._obs()
            return self._last, -1.0, True, False, {"illegal": str(e)}
        self._last = obs
        if s._status == ST_DONE:
            trunc = bool(s._out[C_TRUNCATED])
            self._end(not trunc, trunc)
            return obs, float(s.returns(self.how)[self.seat]), not trunc, trunc, {}
        return obs, 0.0, False, False, {}

    def _end(self, terminated: bool, truncated: bool) -> None:
        self._done = (terminated, truncated)
        self._over = True

    def render(self):
        return None


def gym_env(rules="official", n_players=4, opponents="random", seat=0, **options) -> UnoEnv:
    """A Gymnasium environment: ``seat`` against built-in ``opponents``."""
    return UnoEnv(rules, n_players, opponents, seat, **options)
