"""Reinforcement-learning environments on the unosim kernel (``pip install unosim[env]``).

* ``aec_env(rules, n_players, seed, **options)``: a PettingZoo AEC environment, every
  seat an agent (``player_0`` ..), each observation a dict of ``observation`` and
  ``action_mask`` (the classic-games convention);
* ``gym_env(rules, n_players, opponents, seat, **options)``: a Gymnasium environment
  for one seat against built-in players;
* ``BatchEnv``: B such games stepped at once, arrays in and out.

The action space is ``Discrete(98)`` (``unosim.sim.outside.ACTIONS``); ``observation``
is ``int64[148]``, the fields ``V_*`` of ``unosim.kernel.outside`` (what the seat may
know: its hand, every hand's size, the discard pile, the top card, colour, direction,
the pending penalty...; ``unosim.sim.outside.Observation`` documents each). ``options``
are house rules (``stacking="same"``, ``jump_in=True``, ...), and ``reward``: ``"win"``
(+1 for the round's winner, 0 otherwise) or ``"points"`` (the winner's points).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np
from gymnasium import Env, spaces
from pettingzoo import AECEnv

from ..game.rules import resolve
from ..kernel import outside as K
from ..kernel.layout import C_POINTS, C_TRUNCATED, C_WINNER
from ..players.expert import expert_array
from ..players.seats import parse_seats
from ..sim import engine
from ..sim.outside import N_ACTIONS, PER_THREAD, IllegalAction, Tables, check_action

N_OBS = K.N_V
_HIGH = 2**62  # ``stackable`` is a bit mask over the 59 kinds
REWARDS = ("win", "points")
ENV_VERSION = 0
CHUNK = 1024  # games per kernel call of ``BatchEnv`` (their arrays stay in the cache)


def _spaces():
    return spaces.Dict(
        {
            "observation": spaces.Box(-1, _HIGH, shape=(N_OBS,), dtype=np.int64),
            "action_mask": spaces.Box(0, 1, shape=(N_ACTIONS,), dtype=np.int8),
        }
    )


def _rules(rules, options):
    return resolve(rules, dict(options) if options else None)


def _reward(row, seat: int, how: str) -> float:
    if row[C_TRUNCATED]:
        return 0.0
    if int(row[C_WINNER]) != seat:
        return 0.0
    return 1.0 if how == "win" else float(row[C_POINTS])


class _Game:
    """One game at a time on ``Tables``, its seats' last observations kept."""

    def __init__(self, rs, n, spec, b=1):
        if rs.cards:
            raise ValueError(
                f"rule set {rs.name!r} declares cards: outside seats do not play declared "
                "cards yet (docs/cards.md)"
            )
        sid, sp, labels, _ = parse_seats(spec, n)
        self.rs, self.n, self.labels = rs, n, labels
        self.sid, self.sp = sid, sp
        self.tables = None
        self.b = b

    def open(self, seed: int) -> Tables:
        rs = self.rs
        self.tables = Tables(
            rs.to_array(),
            self.sid,
            self.sp,
            rs.deck_counts(),
            rs.points_table(),
            self.n,
            seed,
            self.b,
            rs.voluntary_draw,
            history=0,
            capacity=0,  # no history kept: no trace either (its events then cost nothing)
            xp=expert_array(self.labels, rs),  # expert opponents search
        )
        return self.tables


def _check_reward(reward):
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")


def _check_players(rs, n):
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise ValueError(f"n_players must be a whole number, got {n!r}")
    rs.check_players(int(n))
    return int(n)


class UnoAEC(AECEnv):
    """A round of UNO as a PettingZoo AEC environment (``aec_env``)."""

    metadata = {"name": "unosim_uno_v0", "render_modes": [], "is_parallelizable": False}

    def __init__(self, rules="official", n_players=4, seed=None, reward="win", **options):
        super().__init__()
        _check_reward(reward)
        self.rs = _rules(rules, options)
        self.n = _check_players(self.rs, n_players)
        self.how = reward
        self.possible_agents = [f"player_{i}" for i in range(self.n)]
        self.observation_spaces = {a: _spaces() for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in self.possible_agents}
        self._game = _Game(self.rs, self.n, _outside(self.n))
        self._root = seed
        self._index = -1
        self._t: Tables | None = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        return {"observation": self._obs[agent].copy(), "action_mask": self._mask[agent].copy()}

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._root, self._index = int(seed), 0
        else:
            if self._root is None:
                entropy = np.random.SeedSequence().entropy  # an int when not given
                assert isinstance(entropy, int)
                self._root = entropy % (1 << 62)
            self._index += 1
        self._t = self._game.open(self._root)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self._obs = {a: np.zeros(N_OBS, np.int64) for a in self.agents}
        self._mask = {a: np.zeros(N_ACTIONS, np.int8) for a in self.agents}
        self.agent_selection = self.agents[0]
        self._t.start(0, self._index)
        self._advance()

    def _advance(self):
        t = _opened(self._t)
        st = t.advance(np.zeros(1, np.int64))[0]
        for a in self.agents:
            self._mask[a][:] = 0
        if st == K.ST_DONE:
            row = t.out[0]
            trunc = bool(row[C_TRUNCATED])
            for q, a in enumerate(self.agents):
                self.rewards[a] = _reward(row, q, self.how)
                self.terminations[a] = not trunc
                self.truncations[a] = trunc
            self._accumulate_rewards()
            return
        q = int(t.ob[0, K.O_SEAT])
        a = self.possible_agents[q]
        v = t.ob[0]
        self._obs[a][:] = v[K.O_OBS : K.O_OBS + N_OBS]
        self._mask[a][:] = v[K.O_MASK : K.O_MASK + N_ACTIONS]
        self.agent_selection = a

    def step(self, action):
        a = self.agent_selection
        if self.terminations[a] or self.truncations[a]:
            self._was_dead_step(action)
            return
        obs = _opened(self._t).observation(0, lambda: None)
        _opened(self._t).act(0, check_action(obs, action))
        self._cumulative_rewards[a] = 0.0
        for b in self.agents:
            self.rewards[b] = 0.0
        self._advance()

    def render(self):
        return None

    def close(self):
        self._t = None


def _outside(n):
    """Every seat an outside seat (the environment's agents decide)."""
    from ..players.agents import Agent

    return [Agent(_env_decides, "agent:env", None)] * n


def _env_decides(obs):
    """An environment seat's action comes from ``step``, never from a call."""
    raise RuntimeError("an environment's seat is played through step()")


def _opened(t: Tables | None) -> Tables:
    """The environment's round (``reset`` opens it)."""
    if t is None:
        raise RuntimeError("reset() the environment first")
    return t


def aec_env(rules="official", n_players=4, seed=None, **options) -> UnoAEC:
    """A PettingZoo AEC environment of one UNO round (see the module docstring)."""
    return UnoAEC(rules, n_players, seed, **options)


class UnoGym(Env):
    """One seat of a UNO round against built-in players, as a Gymnasium environment.

    ``illegal``: ``"raise"`` (an illegal action raises ``IllegalAction``) or ``"lose"``
    (the episode ends with reward -1, ``info["illegal"]`` naming the decision, the
    action and the legal ones)."""

    metadata = {"render_modes": []}

    def __init__(
        self,
        rules="official",
        n_players=4,
        opponents="random",
        seat=0,
        reward="win",
        illegal="raise",
        **options,
    ):
        _check_reward(reward)
        if illegal not in ("raise", "lose"):
            raise ValueError(f"illegal must be 'raise' or 'lose', got {illegal!r}")
        self.rs = _rules(rules, options)
        self.n = _check_players(self.rs, n_players)
        if (
            isinstance(seat, bool)
            or not isinstance(seat, (int, np.integer))
            or not 0 <= seat < self.n
        ):
            raise ValueError(f"seat must be a seat of the table, 0 to {self.n - 1}, got {seat!r}")
        self.seat, self.how, self.illegal = int(seat), reward, illegal
        opp = opponents.split(",") if isinstance(opponents, str) else list(opponents)
        if len(opp) == 1:
            opp = opp * (self.n - 1)
        if len(opp) != self.n - 1:
            raise ValueError(f"{len(opp)} opponents given for {self.n - 1} seats")
        spec = opp[: self.seat] + [_outside(1)[0]] + opp[self.seat :]
        self._game = _Game(self.rs, self.n, spec)
        self.observation_space = _spaces()
        self.action_space = spaces.Discrete(N_ACTIONS)
        self._root = None
        self._index = -1
        self._t: Tables | None = None

    def _observe(self):
        v = _opened(self._t).ob[0]
        return {
            "observation": v[K.O_OBS : K.O_OBS + N_OBS].copy(),
            "action_mask": v[K.O_MASK : K.O_MASK + N_ACTIONS].astype(np.int8),
        }

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is not None:
            self._root, self._index = int(seed), 0
        else:
            if self._root is None:
                self._root = int(self.np_random.integers(1 << 62))
            self._index += 1
        self._t = self._game.open(self._root)
        self._t.start(0, self._index)
        obs, _, done, _ = self._run()
        if done:  # the round ended before the seat's first decision: deal the next
            return self.reset()
        return obs, {}

    def _run(self):
        t = _opened(self._t)
        st = t.advance(np.zeros(1, np.int64))[0]
        if st == K.ST_DONE:
            row = t.out[0]
            obs = {
                "observation": np.zeros(N_OBS, np.int64),
                "action_mask": np.zeros(N_ACTIONS, np.int8),
            }
            return obs, _reward(row, self.seat, self.how), True, bool(row[C_TRUNCATED])
        return self._observe(), 0.0, False, False

    def step(self, action):
        obs = _opened(self._t).observation(0, lambda: None)
        try:
            a = check_action(obs, action)
        except IllegalAction as e:
            if self.illegal == "raise":
                raise
            return (
                {
                    "observation": np.zeros(N_OBS, np.int64),
                    "action_mask": np.zeros(N_ACTIONS, np.int8),
                },
                -1.0,
                True,
                False,
                {"illegal": str(e)},
            )
        _opened(self._t).act(0, a)
        o, r, done, trunc = self._run()
        return o, r, done and not trunc, trunc, {}


def gym_env(rules="official", n_players=4, opponents="random", seat=0, **options) -> UnoGym:
    """A Gymnasium environment: ``seat`` against built-in ``opponents`` (a strategy for
    every other seat, or a list of them)."""
    return UnoGym(rules, n_players, opponents, seat, **options)


class BatchEnv:
    """``b`` games of one seat against built-in players, stepped together.

    ``reset()`` and ``step(actions)`` return ``(obs int64[b, 148], mask int8[b, 98])``
    and, for ``step``, ``reward float64[b]`` and ``done bool[b]``: a game that ends is
    replaced at once by the next game index (its first observation is returned). Each
    kernel call advances ``CHUNK`` games to their seat's next decisions, the chunks side
    by side on numba's threads; the games are the same on any number of threads."""

    def __init__(
        self,
        rules="official",
        n_players=4,
        b=1024,
        opponents="random",
        seat=0,
        seed=0,
        reward="win",
        **options,
    ):
        self._one = UnoGym(rules, n_players, opponents, seat, reward, **options)
        self.b = int(b)
        self.seed = int(seed)
        g = self._one._game
        g.b = self.b
        self.t = g.open(self.seed)
        self.seat, self.how = self._one.seat, reward
        self._next = 0
        self.slots = np.arange(self.b, dtype=np.int64)
        self._pool: ThreadPoolExecutor | None = None
        self._pool_threads = 0

    def _start(self, slots):
        """Deal the next game indices into ``slots``, in their order."""
        m = slots.size
        self.t.start(slots, np.arange(self._next, self._next + m, dtype=np.int64))
        self._next += m

    def _chunks(self):
        """Slices of the batch that one kernel call advances, and the pool that runs
        them side by side (numba's thread count; None: one thread)."""
        threads = numba.get_num_threads()
        if self.t.per_thread != PER_THREAD:  # expert opponents: ``Tables.advance`` splits
            return [slice(0, self.b)], None
        k = max(-(-self.b // CHUNK), min(threads, self.b // PER_THREAD))  # chunks
        size = -(-self.b // max(k, 1))
        chunks = [slice(i, min(i + size, self.b)) for i in range(0, self.b, size)]
        if threads <= 1 or len(chunks) <= 1:
            return chunks, None
        if self._pool is None or self._pool_threads != threads:
            if self._pool is not None:
                self._pool.shutdown()
            self._pool = ThreadPoolExecutor(max_workers=threads)
            self._pool_threads = threads
        return chunks, self._pool

    def _run(self, reward, done):
        """Advance every game until it asks its seat (finished games are restarted);
        returns the observations and masks. Each chunk's are copied right after its
        kernel call, while they are in the cache."""
        t, ob = self.t, self.t.ob
        obs = np.empty((self.b, N_OBS), np.int64)
        mask = np.empty((self.b, N_ACTIONS), np.int8)
        chunks, pool = self._chunks()

        def one(c):  # one kernel call per chunk, on one thread of the pool
            if len(chunks) == 1:  # ``Tables.advance`` splits expert opponents' searches
                st = t.advance(self.slots[c])
            else:
                st = engine.outside_advance(
                    t.tb, t.games, t.cks, t.n, t.order, t.stop, self.slots[c], t.out, t.xp
                )
            obs[c] = ob[c, K.O_OBS : K.O_OBS + N_OBS]
            mask[c] = ob[c, K.O_MASK : K.O_MASK + N_ACTIONS]
            return st

        done_st = list(pool.map(one, chunks)) if pool is not None else [one(c) for c in chunks]
        st = np.concatenate(done_st)
        slots = self.slots
        while True:
            fin = slots[st == K.ST_DONE]
            if fin.size == 0:
                break
            out = t.out[fin]
            won = (out[:, C_WINNER] == self.seat) & (out[:, C_TRUNCATED] == 0)
            reward[fin] += np.where(won, 1.0 if self.how == "win" else out[:, C_POINTS], 0.0)
            done[fin] = True
            self._start(fin)
            st = t.advance(fin)
            obs[fin] = ob[fin, K.O_OBS : K.O_OBS + N_OBS]
            mask[fin] = ob[fin, K.O_MASK : K.O_MASK + N_ACTIONS]
            slots = fin
        return obs, mask

    def observe(self):
        ob = self.t.ob
        return (
            ob[:, K.O_OBS : K.O_OBS + N_OBS].copy(),
            ob[:, K.O_MASK : K.O_MASK + N_ACTIONS].astype(np.int8),
        )

    def reset(self):
        self._next = 0
        self._start(self.slots)
        return self._run(np.zeros(self.b), np.zeros(self.b, bool))

    def step(self, actions):
        a = np.asarray(actions, dtype=np.int64)
        if a.shape != (self.b,):
            raise ValueError(f"actions must have shape ({self.b},), got {a.shape}")
        ob = self.t.ob
        ok = (a >= 0) & (a < N_ACTIONS)
        legal = np.zeros(self.b, bool)
        legal[ok] = ob[self.slots[ok], K.O_MASK + a[ok]] == 1
        if not legal.all():
            i = int(np.flatnonzero(~legal)[0])
            obs = self.t.observation(i, lambda: None)
            check_action(obs, int(a[i]))  # raises, naming the game's decision
        n = ob[:, K.O_LOG_N]
        if (n >= K.LOG_CAP).any():
            raise RuntimeError(f"more than {K.LOG_CAP} decisions between two turns")
        ob[self.slots, K.O_LOG + n] = a
        ob[:, K.O_LOG_N] = n + 1
        reward = np.zeros(self.b)
        done = np.zeros(self.b, bool)
        o, m = self._run(reward, done)
        return o, m, reward, done
