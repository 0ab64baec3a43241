"""unosim.env against the ecosystem's own conformance suites, and the batch interface."""

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import (  # noqa: E402
    api_test,
    parallel_api_test,
    parallel_seed_test,
    seed_test,
)

from unosim.env import BatchEnv, aec_env, gym_env, parallel_env  # noqa: E402
from unosim.sim.outside import IllegalAction  # noqa: E402

MIX = {"stacking": "same", "seven_zero": True, "jump_in": True}
CASES = [
    ("official", 4, {}),
    ("official", 4, MIX),
    ("pokemon", 4, {}),
    ("official", 2, {}),
    ("official", 10, MIX),
]


@pytest.mark.parametrize("rules,n,options", CASES)
def test_pettingzoo_api_and_seed(rules, n, options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(aec_env(rules, n, **options), num_cycles=300)
        seed_test(lambda: aec_env(rules, n, **options), num_cycles=300)
        parallel_api_test(parallel_env(rules, n, **options), num_cycles=300)
        parallel_seed_test(lambda: parallel_env(rules, n, **options))


@pytest.mark.parametrize("rules,n,options", CASES)
def test_gymnasium_check_env(rules, n, options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(gym_env(rules, n, **options), skip_render_check=True)
        check_env(gym_env(rules, n, observation="dict", **options), skip_render_check=True)


def first_legal(mask):
    """The first legal action, but saying UNO when asked (a player who never says it is
    always caught, and never goes out)."""
    return 97 if mask[97] else int(np.flatnonzero(mask)[0])


def test_aec_plays_whole_rounds_with_rewards():
    env = aec_env("official", 3, seed=1)
    wins = np.zeros(3)
    for _ in range(20):
        env.reset()
        for agent in env.agent_iter():
            obs, r, term, trunc, _ = env.last()
            wins[int(agent[-1])] += r
            if term or trunc:
                env.step(None)
                continue
            assert obs["action_mask"].sum() >= 2
            env.step(first_legal(obs["action_mask"]))
    assert wins.sum() == 20 and wins.min() >= 1


def test_gym_illegal_action():
    env = gym_env("official", 4, illegal="raise")
    env.reset(seed=3)
    bad = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(IllegalAction, match="not legal; legal:"):
        env.step(bad)
    env = gym_env("official", 4)  # the default: the seat loses the round
    env.reset(seed=3)
    obs, r, term, _, info = env.step(bad)
    assert r == -1 and term and "not legal" in info["illegal"]
    # after the end: the last observation again, no reward, still terminated
    again, r, term, trunc, info = env.step(0)
    assert r == 0 and term and not trunc and info["after_end"]
    np.testing.assert_array_equal(again, obs)
    assert not env.action_masks().any()


def test_gym_rewards_are_the_rounds_points():
    env = gym_env("official", 4, opponents="random", seat=2, reward="points")
    rewards = []
    env.reset(seed=0)
    while len(rewards) < 30:
        obs, r, term, trunc, _ = env.step(first_legal(env.action_masks()))
        if term or trunc:
            rewards.append(r)
            obs, _ = env.reset()
    won = [r for r in rewards if r > 0]
    assert 1 <= len(won) < 30 and all(r == int(r) for r in won)


def test_batch_env_plays_the_games_simulate_plays():
    """Game by game, the batch gives the seat the wins that ``simulate`` gives an agent
    with the same policy on the same (seed, game)."""
    from unosim.sim.simulate import simulate

    b = BatchEnv("official", 4, b=16, seed=7, stacking="same")
    obs, mask = b.reset()
    assert obs.shape == (16, 188) and mask.shape == (16, 130)
    won = {}
    while len([g for g in won if g < 40]) < 40:
        games = b.t.game.copy()
        a = np.array([first_legal(m) for m in mask])
        obs, mask, r, d = b.step(a)
        for s in np.flatnonzero(d):
            won[int(games[s])] = r[s] > 0
    df = simulate(
        "official",
        40,
        4,
        [lambda o: first_legal(o.mask), "random", "random", "random"],
        seed=7,
        house="stacking=same",
    )
    assert [won[g] for g in range(40)] == list(df.winner == 0)
    with pytest.raises(IllegalAction, match="not legal"):
        b.step(mask.argmin(axis=1))


def test_gym_expert_opponents_search():
    """An expert opponent searches in the environment's rounds: each round is the game
    ``simulate`` plays with the same policy at the seat and the expert beside it."""
    from unosim.sim.simulate import simulate

    xp = "expert:rollouts=8;more=1;z=0"  # z=0: its best estimate, often not the policy's
    env = gym_env("official", 2, opponents=xp, seat=0)
    assert env.game._xp[1].any()
    winners = []
    env.reset(seed=11)
    while len(winners) < 6:
        obs, r, term, trunc, _ = env.step(first_legal(env.action_masks()))
        if term or trunc:
            winners.append(0 if r > 0 else 1)
            obs, _ = env.reset()
    df = simulate("official", 6, 2, [lambda o: first_legal(o.mask), xp], seed=11)
    assert winners == [int(w) for w in df.winner]
    # and the policy alone plays other games
    from unosim.players.expert import TUNED

    pol = simulate("official", 6, 2, [lambda o: first_legal(o.mask), TUNED], seed=11)
    assert not pol.drop(columns="game").equals(df.drop(columns="game"))
