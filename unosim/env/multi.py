"""A UNO round as PettingZoo environments, every seat an agent (``player_0`` ..), on the
stepwise game (``unosim.Game``): ``UnoAEC`` (turn by turn) and ``UnoParallel`` (every
agent gives an action each step; only the deciding agent's is used, the others have an
all-zero mask). Observations follow the classic-games convention: a dict of
``observation`` (float32[N_T] in [0, 1], ``kernel.stepwise.turns.T_FIELDS``) and ``action_mask``
(int8[130]); ``observation="flat"`` gives the flat form instead."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from ..kernel.core.layout import C_TRUNCATED
from ..sim.game import N_ACTIONS, Game, IllegalAction, State
from .options import (
    ILLEGAL,
    OBSERVATIONS,
    REWARDS,
    check_choice,
    learner_rules,
    observation_space,
    observe,
    players,
    rules_of,
)


class _Table:
    """What both forms share: the game, the round at hand, the seeds."""

    def __init__(self, rules, n_players, seed, reward, illegal, observation, learner, house):
        self.how = check_choice("reward", reward, REWARDS)
        self.illegal = check_choice("illegal", illegal, ILLEGAL)
        self.form = check_choice("observation", observation, OBSERVATIONS)
        rs = rules_of(rules, house)
        self.n = players(rs, n_players)
        self.game = Game(rs, self.n, single_moves=False, **learner)
        self.root = None if seed is None else int(seed) % (1 << 62)
        self.index = -1
        self.state: State | None = None
        self.names = [f"player_{i}" for i in range(self.n)]

    def deal(self, seed):
        if seed is not None:
            self.root, self.index = int(seed) % (1 << 62), 0
        else:
            if self.root is None:
                entropy = np.random.SeedSequence().entropy
                assert isinstance(entropy, int)
                self.root = entropy % (1 << 62)
            self.index += 1
        while True:
            self.state = self.game.new_round(self.index, seed=self.root, reuse=self.state)
            if not self.state.is_terminal():
                return self.state
            self.index += 1

    def observe(self, q: int):
        if self.state is None:
            raise RuntimeError("reset() the environment first")
        return observe(self.form, self.state, q)

    def play(self, q: int, action):
        """Seat ``q``'s action; returns (rewards, terminated, truncated, info) once the
        round is over, else None."""
        s = self.state
        assert s is not None
        try:
            s.apply(action)
        except IllegalAction as e:
            if self.illegal == "raise":
                raise
            r = np.zeros(self.n)
            r[q] = -1.0
            return r, True, False, {"illegal": str(e)}
        if s.is_terminal():
            trunc = bool(s.record()[C_TRUNCATED])
            return s.returns(self.how), not trunc, trunc, {}
        return None


class UnoAEC(AECEnv):
    """A round of UNO, turn by turn (``aec_env``)."""

    metadata = {"name": "unosim_uno_v1", "render_modes": [], "is_parallelizable": True}

    def __init__(
        self,
        rules="official",
        n_players=4,
        seed=None,
        reward="win",
        illegal="lose",
        observation="dict",
        auto_uno=True,
        draw_only_when_stuck=True,
        full_rules=False,
        **house,
    ):
        super().__init__()
        learner = learner_rules(auto_uno, draw_only_when_stuck, full_rules)
        self._t = _Table(rules, n_players, seed, reward, illegal, observation, learner, house)
        self.possible_agents = list(self._t.names)
        space = observation_space(self._t.form)
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in self.possible_agents}
        self.render_mode = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        return self._t.observe(self.possible_agents.index(agent))

    def action_mask(self, agent) -> np.ndarray:
        """int8[130]: the agent's legal actions (all 0 when it is not deciding)."""
        s = self._t.state
        q = self.possible_agents.index(agent)
        if s is None or q != s.current_player:
            return np.zeros(N_ACTIONS, np.int8)
        return s.legal_mask()

    def reset(self, seed=None, options=None):
        s = self._t.deal(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[s.current_player]

    def step(self, action):
        a = self.agent_selection
        if self.terminations[a] or self.truncations[a]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[a] = 0.0
        for b in self.agents:
            self.rewards[b] = 0.0
        end = self._t.play(self.possible_agents.index(a), action)
        if end is None:
            state = self._t.state
            assert state is not None
            self.agent_selection = self.possible_agents[state.current_player]
            return
        r, term, trunc, info = end
        for q, b in enumerate(self.possible_agents):
            self.rewards[b] = float(r[q])
            self.terminations[b] = term
            self.truncations[b] = trunc
            self.infos[b] = dict(info)
        self._accumulate_rewards()

    def render(self):
        return None

    def close(self):
        pass


class UnoParallel(ParallelEnv):
    """A round of UNO with every agent acting each step (``parallel_env``): the deciding
    agent's action is played, the others' are ignored."""

    metadata = {"name": "unosim_uno_parallel_v1", "render_modes": []}

    def __init__(
        self,
        rules="official",
        n_players=4,
        seed=None,
        reward="win",
        illegal="lose",
        observation="dict",
        auto_uno=True,
        draw_only_when_stuck=True,
        full_rules=False,
        **house,
    ):
        learner = learner_rules(auto_uno, draw_only_when_stuck, full_rules)
        self._t = _Table(rules, n_players, seed, reward, illegal, observation, learner, house)
        self.possible_agents = list(self._t.names)
        self.agents: list[str] = []
        self._space = observation_space(self._t.form)
        self.observation_spaces = {a: self._space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in self.possible_agents}
        self.render_mode = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def _all(self):
        return {a: self._t.observe(q) for q, a in enumerate(self.possible_agents)}

    def reset(self, seed=None, options=None):
        self._t.deal(seed)
        self.agents = self.possible_agents[:]
        return self._all(), {a: {} for a in self.agents}

    def step(self, actions):
        if not self.agents:
            raise RuntimeError("the round is over: reset() the environment")
        state = self._t.state
        assert state is not None
        q = state.current_player
        end = self._t.play(q, actions[self.possible_agents[q]])
        obs = self._all()
        zero = {a: 0.0 for a in self.agents}
        if end is None:
            no = {a: False for a in self.agents}
            return obs, zero, no, dict(no), {a: {} for a in self.agents}
        r, term, trunc, info = end
        rewards = {a: float(r[i]) for i, a in enumerate(self.possible_agents)}
        terms = {a: term for a in self.agents}
        truncs = {a: trunc for a in self.agents}
        infos = {a: dict(info) for a in self.agents}
        self.agents = []
        return obs, rewards, terms, truncs, infos

    def render(self):
        return None

    def close(self):
        pass


def aec_env(rules="official", n_players=4, seed=None, **options) -> UnoAEC:
    """A PettingZoo AEC environment of one UNO round (``UnoAEC``)."""
    return UnoAEC(rules, n_players, seed, **options)


def parallel_env(rules="official", n_players=4, seed=None, **options) -> UnoParallel:
    """A PettingZoo Parallel environment of one UNO round (``UnoParallel``)."""
    return UnoParallel(rules, n_players, seed, **options)
