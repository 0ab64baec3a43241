"""A policy trained on the Gymnasium environment, seated at ``unosim.simulate``
(``EnvPolicySeat``): it sees what the environment shows it, and the decisions the
environment makes for it are made for it."""

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from unosim import Game, simulate  # noqa: E402
from unosim.env import gym_env  # noqa: E402
from unosim.env.seat import EnvPolicySeat  # noqa: E402


@pytest.mark.parametrize("rules,house", [("official", {}), ("official", {"stacking": "same"})])
def test_seat_sees_what_the_environment_shows(rules, house):
    """A round under the full rules (voluntary draw, the UNO call asked), the seat
    answering for the policy, goes step by step with the environment's round of the
    same seed: at each decision the policy is asked, it gets the environment's
    observation and mask."""
    env = gym_env(rules, 4, **house)
    full = Game(
        rules, 4, opponents=[None, "random", "random", "random"], single_moves=False, **house
    )
    seat = EnvPolicySeat(lambda obs, mask: 0, rules, **house)
    rng = np.random.default_rng(3)
    asked = 0
    for index in range(12):
        obs, _ = env.reset(seed=5) if index == 0 else env.reset()
        state = full.new_round(env._index, seed=5)
        done = False
        while not state.is_terminal():
            o = state.observation(0)
            if o.decision == "uno":
                assert seat.act(o) == 97
                state.apply(97)
                continue
            mask = seat.observe(o)
            if mask.sum() == 1:
                state.apply(seat.act(o))
                continue
            assert not done, "the environment's round ended before this one"
            np.testing.assert_array_equal(mask, env.action_masks())
            np.testing.assert_array_equal(seat.flat, obs)
            asked += 1
            a = int(rng.choice(np.flatnonzero(mask)))
            state.apply(a)
            obs, _, term, trunc, _ = env.step(a)
            done = term or trunc
        assert done
        np.testing.assert_array_equal(state.record(), env.state.record())
    assert asked > 100


def test_seat_plays_at_simulate():
    """Seated at simulate, the policy is asked only where the environment would ask
    it, with a mask it would be given: a uniform choice over it plays whole rounds."""
    asked = []

    def policy(obs, mask):
        assert mask.sum() >= 2
        asked.append(int(mask.sum()))
        return int(np.random.default_rng(len(asked)).choice(np.flatnonzero(mask)))

    seats = [EnvPolicySeat(policy), "random", "random", "random"]
    df = simulate("official", 40, 4, seats, seed=1)
    assert len(df) == 40 and not df["truncated"].any()
    assert len(asked) > 40
