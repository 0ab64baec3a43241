"""Many games of one seat against built-in players, stepped together, arrays in and out:
``BatchEnv`` (int64 observations, the kernel's fields) and ``UnoVectorEnv`` (a Gymnasium
``VectorEnv`` over it: float32 observations in [0, 1], ``action_masks()``)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..kernel.outside import protocol as K
from ..kernel.outside.batches import (
    BC_AUTO_UNO,
    BC_HIST_CAP,
    BC_POINTS,
    BC_SEAT,
    BC_SEED,
    BC_VOLUNTARY,
    ERR_LOG_FULL,
    N_BC,
)
from ..kernel.stepwise.tensors import N_T
from ..players.expert import expert_array
from ..players.seats import parse_seats
from ..sim import engine
from ..sim.interrupt import kernel_call
from ..sim.outside import N_ACTIONS, PER_THREAD, Tables, check_action
from .options import (
    OBSERVATIONS,
    check_choice,
    learner_rules,
    observation_space,
    players,
    rules_of,
)

N_OBS = K.N_V
MIN_PER_CALL = 256  # games a kernel call steps at least when a step is split over threads


def _stepped():
    from ..players.agents import Agent

    return Agent(_no_call, "agent:env", None)


def _no_call(obs):
    raise RuntimeError("an environment's seat is played through step()")


class BatchEnv:
    """``b`` games of one seat against built-in players, stepped together.

    Unlike the other environments, its defaults are the full rules (``auto_uno`` and
    ``draw_only_when_stuck`` False: its games are pinned) and an illegal action raises;
    ``UnoVectorEnv`` is the learner's form.

    ``reset()`` and ``step(actions)`` return ``(obs int64[b, 188], mask int8[b, 130])``
    and, for ``step``, ``reward float64[b]`` and ``done bool[b]``: a game that ends is
    replaced at once by the next game index (its first observation is returned; game
    indices go to the slots in slot order). The arrays are new at each call (the caller
    may keep them). ``sample_actions(rng)`` draws a uniformly random legal action for
    each game, in compiled code (the random policy, without numpy's cost).

    A step is one kernel call per thread (``kernel.outside.batches``; numba's thread count,
    ``numba.set_num_threads``), each over a contiguous part of the batch: it logs each
    game's action, advances the game to the seat's next decision (or its end) and writes
    the arrays returned; a second round of calls deals and advances the games that
    ended. Each game depends only on (seed, game index) and its actions, so the games
    are the same on any number of threads."""

    def __init__(
        self,
        rules="official",
        n_players=4,
        b=1024,
        opponents="random",
        seat=0,
        seed=0,
        reward="win",
        auto_uno=False,
        draw_only_when_stuck=False,
        **house,
    ):
        if reward not in ("win", "points"):
            raise ValueError(f"reward must be win or points, got {reward!r}")
        rs = rules_of(rules, house)
        n = players(rs, n_players)
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < n:
            raise ValueError(f"seat must be a seat of the table, 0 to {n - 1}, got {seat!r}")
        if isinstance(b, bool) or not isinstance(b, (int, np.integer)) or b < 1:
            raise ValueError(f"b must be a whole number >= 1, got {b!r}")
        opp = opponents.split(",") if isinstance(opponents, str) else list(opponents)
        if len(opp) == 1:
            opp = opp * (n - 1)
        if len(opp) != n - 1:
            raise ValueError(f"{len(opp)} opponents given for {n - 1} seats")
        sid, sp, labels, _ = parse_seats(opp[:seat] + [_stepped()] + opp[seat:], n)
        self.b = int(b)
        self.auto_uno = bool(auto_uno)
        voluntary = rs.voluntary_draw and not draw_only_when_stuck
        self.t = Tables(
            rs.to_array(),
            sid,
            sp,
            rs.deck_counts(),
            rs.points_table(),
            n,
            int(seed),
            self.b,
            voluntary,
            history=0,
            capacity=0,  # no history kept: no trace either (its events then cost nothing)
            xp=expert_array(labels, rs),  # expert opponents search
            family=True,  # the rules compiled in (its entry point called: no typing per call)
        )
        self.deck = rs.deck_counts()[: K.N_SEEN].astype(np.int64)
        self.seat, self.how = int(seat), reward
        self._cfg = np.zeros(N_BC, np.int64)
        self._cfg[BC_SEAT] = self.seat
        self._cfg[BC_POINTS] = reward == "points"
        self._cfg[BC_AUTO_UNO] = self.auto_uno
        self._cfg[BC_VOLUNTARY] = 1 if voluntary else 0
        self._cfg[BC_HIST_CAP] = 0
        self.seed = int(seed)
        self._next = 0
        self.slots = np.arange(self.b, dtype=np.int64)
        self._none = np.full(self.b, -1, dtype=np.int64)
        self._status = np.zeros(self.b, dtype=np.int64)
        self._pool: ThreadPoolExecutor | None = None
        self._pool_threads = 0
        self._sampler = np.random.default_rng(self.seed)  # ``sample_actions``' own stream
        # ``step_batch``'s entry point once compiled (``engine.entry_for``): a call skips
        # numba's typing of every argument (some 10 us a call, 170 us with a specialised
        # table, whose type is rebuilt from its rule array each time)
        self._step = None

    @property
    def seed(self) -> int:
        """The root seed of the games the next ``reset()`` deals."""
        return self._seed

    @seed.setter
    def seed(self, value: int) -> None:
        self._seed = self.t.seed = int(value)
        self._cfg[BC_SEED] = self._seed

    def _parts(self, m: int):
        """How many kernel calls step ``m`` games side by side, and the pool that runs
        them (numba's thread count; None: one call on this thread)."""
        per_call = MIN_PER_CALL if self.t.per_thread == PER_THREAD else self.t.per_thread
        k = min(numba.get_num_threads(), m // per_call)
        if k <= 1:
            return 1, None
        if self._pool is None or self._pool_threads != k:
            if self._pool is not None:
                self._pool.shutdown()
            self._pool = ThreadPoolExecutor(max_workers=k)
            self._pool_threads = k
        return k, self._pool

    def _call(self, slots, actions, deal, res) -> int:
        """``kernel.outside.batches.step_batch`` over ``slots``, split across threads;
        returns how many games ended."""
        t = self.t
        head = (t.tb, t.games, t.cks, np.int64(t.n), t.order, t.stop, t.out, t.xp, self._cfg)
        k, pool = self._parts(slots.size)
        step = self._step or engine.batch_step
        with kernel_call():
            if pool is None:
                ended = int(step(*head, slots, actions, deal, res))
            else:
                cut = [slots.size * p // k for p in range(k + 1)]
                parts = [slice(cut[p], cut[p + 1]) for p in range(k)]
                ended = sum(
                    pool.map(lambda c: step(*head, slots[c], actions[c], deal[c], res), parts)
                )
        if self._step is None:  # compiled now: its entry point for these argument types
            self._step = engine.entry_for(engine.batch_step, (*head, slots, actions, deal, res))
        return int(ended)

    def _advance(self, actions, deal):
        """Step every game (``actions`` logged first, -1: none; ``deal``: the game index
        dealt first, -1: none), then deal the next game indices into the slots whose
        games ended, in slot order, until every game waits at the seat's decision."""
        b = self.b
        obs = np.empty((b, N_OBS), np.int64)
        mask = np.empty((b, N_ACTIONS), np.int8)
        reward = np.zeros(b)
        done = np.zeros(b, bool)
        res = (obs, mask, reward, done, self._status)
        slots = self.slots
        ended = self._call(slots, actions, deal, res)
        while True:
            if (self._status[slots] == ERR_LOG_FULL).any():
                raise RuntimeError(f"more than {K.LOG_CAP} decisions between two turns")
            if ended == 0:
                return obs, mask, reward, done
            slots = slots[self._status[slots] == K.ST_DONE]
            games = np.arange(self._next, self._next + slots.size, dtype=np.int64)
            self._next += slots.size
            self.t.game[slots] = games
            ended = self._call(slots, self._none[: slots.size], games, res)

    def sample_actions(self, rng=None) -> np.ndarray:
        """A uniformly random legal action for each game, at the decision it waits at:
        Gymnasium's ``Discrete.sample(mask=...)`` for the whole batch, drawn in compiled
        code (``kernel.outside.batches.sample_batch``, about 60 ns a game).

        Parameters
        ----------
        rng : numpy.random.Generator, int or None
            A Generator: one 64-bit key is drawn from it per call. An int: the batch's
            own stream is seeded with it anew (``numpy.random.default_rng``). None: the
            batch's own stream (seeded with ``seed`` when the batch was made).

        Returns
        -------
        int64[b]
            The actions (-1 for a game that waits at no decision: before ``reset()``).
            They depend only on the key drawn and the games' masks (each slot has its
            own stream, keyed by the key and the slot).
        """
        if rng is None:
            rng = self._sampler
        elif isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
            rng = self._sampler = np.random.default_rng(int(rng))
        elif not isinstance(rng, np.random.Generator):
            raise TypeError(f"rng must be a numpy Generator, an int or None, got {rng!r}")
        key = rng.integers(0, 2**63, dtype=np.int64)
        actions = np.empty(self.b, np.int64)
        # one call on this thread: 60 ns a game, less than handing parts to the pool cost
        # up to 4,096 games (notes/env-step-cost.md)
        with kernel_call():
            engine.batch_sample(self.t.outside_log, 0, self.b, key, actions)
        return actions

    def observe(self):
        """The observations and masks of the decisions the games wait at (copies)."""
        ob = self.t.outside_log
        return (
            ob[:, K.O_OBS : K.O_OBS + N_OBS].copy(),
            ob[:, K.O_MASK : K.O_MASK + N_ACTIONS].astype(np.int8),
        )

    def reset(self):
        """Deal games 0 .. b-1 of the root seed ``seed`` (slot ``i``: game ``i``) and
        advance each to the seat's first decision; returns ``(obs, mask)``."""
        self._next = self.b
        self.t.game[:] = self.slots
        return self._advance(self._none, self.slots)[:2]

    def step(self, actions):
        """Apply ``actions`` int[b] (one legal action per game) and advance every game
        to the seat's next decision; returns ``(obs, mask, reward, done)``. An illegal
        action raises ``unosim.IllegalAction`` naming the game's decision, before any
        game moves."""
        # a new contiguous int64 array: the compiled entry point takes the types it was
        # found for, and would misread a strided view (``engine.entry_for``)
        a = np.array(actions, dtype=np.int64, order="C")
        if a.shape != (self.b,):
            raise ValueError(f"actions must have shape ({self.b},), got {a.shape}")
        j = int(engine.batch_check(self.t.outside_log, self.slots, a))
        if j >= 0:
            if self.t.outside_log[j, K.O_LOG_N] >= K.LOG_CAP and 0 <= a[j] < N_ACTIONS:
                raise RuntimeError(f"more than {K.LOG_CAP} decisions between two turns")
            check_action(self.t.observation(j, lambda: None), int(a[j]))  # raises
            raise RuntimeError("no game waits for an action: call reset() first")
        return self._advance(a, self._none)


def warm() -> None:
    """Compile (or load from numba's cache) what a first ``BatchEnv`` and ``UnoVectorEnv``
    run: the step in official's own kernel, the sampler and the observations, as
    ``make install`` does beside ``unosim.sim.simulate.warm``."""
    venv = UnoVectorEnv("official", 4, num_envs=1)
    venv.reset(seed=0)
    venv.step(venv.batch.sample_actions(0))


class UnoVectorEnv(VectorEnv):
    """``BatchEnv`` as a Gymnasium ``VectorEnv`` (``gymnasium.make_vec("unosim/Uno-v0",
    vectorization_mode="vector_entry_point")`` or directly): ``num_envs`` games of one
    seat, observations float32 in [0, 1] (``observation``: ``"flat"``, the mask then the
    tensor, or ``"dict"``), the learners' defaults (``auto_uno``,
    ``draw_only_when_stuck``), ``action_masks()``. A game that ends is replaced in the
    same step (``AutoresetMode.SAME_STEP``: the observation returned is the next game's
    first). An illegal action raises ``unosim.IllegalAction``."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        rules="official",
        n_players=4,
        num_envs=64,
        opponents="random",
        seat=0,
        seed=0,
        reward="win",
        observation="flat",
        auto_uno=True,
        draw_only_when_stuck=True,
        full_rules=False,
        **house,
    ):
        self.form = check_choice("observation", observation, OBSERVATIONS)
        learner = learner_rules(auto_uno, draw_only_when_stuck, full_rules)
        self.batch = BatchEnv(
            rules, n_players, int(num_envs), opponents, seat, seed, reward, **learner, **house
        )
        self.num_envs = self.batch.b
        self.single_observation_space = observation_space(self.form)
        self.single_action_space = spaces.Discrete(N_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._mask = np.zeros((self.num_envs, N_ACTIONS), np.int8)
        self._tensor = np.zeros((self.num_envs, N_T), np.float32)

    def _obs(self, mask):
        self._mask = mask
        engine.game_observation_batch(self.batch.t.outside_log, self.batch.deck, self._tensor)
        if self.form == "flat":
            return np.concatenate([mask.astype(np.float32), self._tensor], axis=1)
        return {"observation": self._tensor.copy(), "action_mask": mask.copy()}

    def action_masks(self) -> np.ndarray:
        """bool[num_envs, 130]: each game's legal actions."""
        return self._mask.astype(bool)

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            self.batch.seed = int(seed)
        _, mask = self.batch.reset()
        return self._obs(mask), {}

    def step(self, actions):
        _, mask, reward, done = self.batch.step(np.asarray(actions))
        trunc = np.zeros(self.num_envs, bool)
        return self._obs(mask), reward, done, trunc, {}

    def close_extras(self, **kwargs):
        if self.batch._pool is not None:
            self.batch._pool.shutdown()
