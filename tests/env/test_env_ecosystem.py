"""The environments as the ecosystem takes them: registered ids, vector forms, SuperSuit,
stable-baselines3's checker, and the learners' defaults."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import unosim.env  # noqa: E402,F401  (registers unosim/Uno-v0)
from unosim.env import N_FLAT, UnoVectorEnv, gym_env, parallel_env  # noqa: E402
from unosim.kernel.outside.protocol import A_DRAW, A_UNO, V_KIND  # noqa: E402,F401


def test_gymnasium_make_gives_the_flat_float_observation():
    env = gymnasium.make("unosim/Uno-v0", n_players=2)
    obs, _ = env.reset(seed=1)
    assert obs.dtype == np.float32 and obs.shape == (N_FLAT,)
    assert env.observation_space.contains(obs)
    mask = env.unwrapped.action_masks()
    np.testing.assert_array_equal(obs[:130] == 1, mask)
    rng = np.random.default_rng(0)
    steps = 0
    for _ in range(3):
        done = False
        while not done:
            a = int(rng.choice(np.flatnonzero(env.unwrapped.action_masks())))
            obs, r, term, trunc, _ = env.step(a)
            assert env.observation_space.contains(obs)
            done = term or trunc
            steps += 1
        env.reset()
    assert steps < 600  # the learners' defaults: no endless silent draws
    env.close()


def test_learner_defaults_never_ask_uno_nor_offer_a_needless_draw():
    env = gym_env("official", 3, observation="dict")
    env.reset(seed=4)
    rng = np.random.default_rng(1)
    for _ in range(400):
        mask = env.action_masks()
        assert not mask[A_UNO]
        if mask[:A_DRAW].any() and not env.state.observation(env.seat).bluff:
            assert not mask[A_DRAW]
        _, _, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if term or trunc:
            env.reset()
    full = gym_env("official", 3, full_rules=True)
    full.reset(seed=4)
    assert full.action_masks()[A_DRAW]  # drawing is always legal under the rules


def test_vector_env_and_make_vec():
    venv = gymnasium.make_vec("unosim/Uno-v0", num_envs=8, vectorization_mode="vector_entry_point")
    obs, _ = venv.reset(seed=3)
    assert obs.shape == (8, N_FLAT) and obs.dtype == np.float32
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(200):
        m = venv.unwrapped.action_masks() if hasattr(venv, "unwrapped") else venv.action_masks()
        a = np.array([rng.choice(np.flatnonzero(row)) for row in m])
        obs, r, term, trunc, _ = venv.step(a)
        assert venv.observation_space.contains(obs)
        ended += int(term.sum())
    assert ended > 0
    venv.close()
    d = UnoVectorEnv("official", 4, num_envs=4, observation="dict")
    o, _ = d.reset()
    assert set(o) == {"observation", "action_mask"} and o["observation"].shape[0] == 4


@pytest.mark.slow
def test_async_vector_env_with_spawn():
    venv = gymnasium.vector.AsyncVectorEnv(
        [lambda: gym_env("official", 2) for _ in range(2)], context="spawn"
    )
    obs, _ = venv.reset(seed=2)
    assert obs.shape == (2, N_FLAT)
    for _ in range(20):
        obs, *_ = venv.step(np.zeros(2, np.int64) + A_DRAW)  # illegal ones lose: fine
    venv.close()


def test_supersuit_vectorizes_the_parallel_env():
    ss = pytest.importorskip("supersuit")
    env = parallel_env("official", 2, observation="flat")
    venv = ss.pettingzoo_env_to_vec_env_v1(env)
    obs, _ = venv.reset(seed=1)
    assert obs.shape == (2, N_FLAT)
    rng = np.random.default_rng(0)
    for _ in range(100):
        masks = obs[:, :130] > 0
        a = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        obs, r, term, trunc, _ = venv.step(a)
    venv.close()


@pytest.mark.parametrize(
    "rules,n,options",
    [
        ("official", 2, {}),
        ("official", 4, {}),
        ("official", 10, {}),
        ("official", 4, {"stacking": "same", "seven_zero": True, "jump_in": True}),
        ("pokemon", 4, {}),
    ],
)
def test_stable_baselines3_check_env(rules, n, options):
    sb3 = pytest.importorskip("stable_baselines3.common.env_checker")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sb3.check_env(gym_env(rules, n, **options))
