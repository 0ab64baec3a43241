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

from ..kernel.core.layout import C_POINTS, C_TRUNCATED, C_WINNER
from ..kernel.outside import protocol as K
from ..kernel.stepwise.tensors import N_T
from ..players.expert import expert_array
from ..players.seats import parse_seats
from ..sim import engine
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
CHUNK = 1024  # games per kernel call of ``BatchEnv`` (their arrays stay in the cache)


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
        opp = opponents.split(",") if isinstance(opponents, str) else list(opponents)
        if len(opp) == 1:
            opp = opp * (n - 1)
        if len(opp) != n - 1:
            raise ValueError(f"{len(opp)} opponents given for {n - 1} seats")
        sid, sp, labels, _ = parse_seats(opp[:seat] + [_stepped()] + opp[seat:], n)
        self.b = int(b)
        self.seed = int(seed)
        self.auto_uno = bool(auto_uno)
        self.t = Tables(
            rs.to_array(),
            sid,
            sp,
            rs.deck_counts(),
            rs.points_table(),
            n,
            self.seed,
            self.b,
            rs.voluntary_draw and not draw_only_when_stuck,
            history=0,
            capacity=0,  # no history kept: no trace either (its events then cost nothing)
            xp=expert_array(labels, rs),  # expert opponents search
        )
        self.deck = rs.deck_counts()[: K.N_SEEN].astype(np.int64)
        self.seat, self.how = int(seat), reward
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
        while self.auto_uno:  # the UNO call made for the seat, where it is asked
            uno = slots[(st == K.ST_ASKING) & (ob[slots, K.O_KIND] == K.D_UNO)]
            if uno.size == 0:
                break
            ob[uno, K.O_LOG + ob[uno, K.O_LOG_N]] = K.A_UNO
            ob[uno, K.O_LOG_N] += 1
            st[np.searchsorted(slots, uno)] = t.advance(uno)
            obs[uno] = ob[uno, K.O_OBS : K.O_OBS + N_OBS]
            mask[uno] = ob[uno, K.O_MASK : K.O_MASK + N_ACTIONS]
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
            while self.auto_uno:
                uno = slots[(st == K.ST_ASKING) & (ob[slots, K.O_KIND] == K.D_UNO)]
                if uno.size == 0:
                    break
                ob[uno, K.O_LOG + ob[uno, K.O_LOG_N]] = K.A_UNO
                ob[uno, K.O_LOG_N] += 1
                st[np.searchsorted(slots, uno)] = t.advance(uno)
                obs[uno] = ob[uno, K.O_OBS : K.O_OBS + N_OBS]
                mask[uno] = ob[uno, K.O_MASK : K.O_MASK + N_ACTIONS]
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
        engine.game_observation_batch(self.batch.t.ob, self.batch.deck, self._tensor)
        if self.form == "flat":
            return np.concatenate([mask.astype(np.float32), self._tensor], axis=1)
        return {"observation": self._tensor.copy(), "action_mask": mask.copy()}

    def action_masks(self) -> np.ndarray:
        """bool[num_envs, 130]: each game's legal actions."""
        return self._mask.astype(bool)

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            self.batch.seed = self.batch.t.seed = int(seed)
        _, mask = self.batch.reset()
        return self._obs(mask), {}

    def step(self, actions):
        _, mask, reward, done = self.batch.step(np.asarray(actions))
        trunc = np.zeros(self.num_envs, bool)
        return self._obs(mask), reward, done, trunc, {}

    def close_extras(self, **kwargs):
        if self.batch._pool is not None:
            self.batch._pool.shutdown()
