"""BatchEnv's games are pinned: for a fixed seed, the observations, masks, rewards and
done flags of a few hundred steps of a seeded random agent hash to the digests taken
before the batch interface was made faster (the games must never change). The rule mixes
make the kernel replay from its checkpoints (jump-ins, swaps, UNO calls between stops)."""

import hashlib

import numba
import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode  # noqa: E402

from unosim import IllegalAction  # noqa: E402
from unosim.env import BatchEnv, UnoVectorEnv  # noqa: E402
from unosim.sim.outside import N_ACTIONS  # noqa: E402

# (rules, players, options, batch, seat, reward, steps) -> sha256 of every step's arrays
PINNED = [
    (
        ("official", 4, {}, 64, 0, "win", 300),
        "293421c17036c2721bb428045a81cb736b9ac45f66b88944a33b4a20d929d845",
    ),
    (
        (
            "official",
            4,
            {"stacking": "same", "seven_zero": True, "jump_in": True},
            48,
            2,
            "points",
            300,
        ),
        "5a796c329d65e067b09bcdbcc6d54d68affcf893ca128bd5006ca575e8e92ba8",
    ),
    (
        ("pokemon", 4, {}, 32, 1, "win", 300),
        "ff89cdd0fdd32f9ac99dfa323070e45118d01c9ea51a1eb5860aa738665747a9",
    ),
    (
        ("official", 2, {}, 40, 1, "points", 300),
        "6641995bddaf3f0faaac9e097573840b17a64b9c46c1ecd5605aa7c55e32473b",
    ),
    (
        (
            "official",
            10,
            {"stacking": "same", "seven_zero": True, "jump_in": True},
            24,
            7,
            "win",
            200,
        ),
        "9a8082cb7e5c36c01de381a6620c913b84d6f6475604163a0c751f628fd82ee9",
    ),
]


def digest(rules, n, options, b, seat, reward, steps, seed=5):
    """sha256 of reset()'s arrays and every step's, a seeded random legal action each."""
    env = BatchEnv(rules, n, b=b, seat=seat, seed=seed, reward=reward, **options)
    rng = np.random.default_rng(seed)
    h = hashlib.sha256()
    obs, mask = env.reset()
    h.update(obs.tobytes())
    h.update(mask.tobytes())
    for _ in range(steps):
        a = (rng.random(mask.shape) * mask).argmax(axis=1)
        obs, mask, r, d = env.step(a)
        for x in (obs, mask, r, d):
            h.update(np.ascontiguousarray(x).tobytes())
            h.update(str(x.dtype).encode())
    obs2, mask2 = env.reset()  # a reset deals the first games again
    h.update(obs2.tobytes())
    h.update(mask2.tobytes())
    return h.hexdigest()


@pytest.mark.parametrize("case,expected", PINNED)
def test_batch_games_are_pinned(case, expected):
    assert digest(*case) == expected


def test_a_batch_in_chunks_on_threads_is_pinned():
    """More games than one kernel call takes (``CHUNK``), on two threads where numba has
    them: the same games as before, on any number of threads."""
    threads = numba.get_num_threads()
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    try:
        d = digest("official", 3, {}, 1500, 0, "win", 40)
    finally:
        numba.set_num_threads(threads)
    assert d == "877382bc8ca75bb9b64100ae682c9c64e66d9e202c827314d09a5a17e8b1b2fb"


def test_one_and_two_threads_give_the_same_games():
    """A batch split over two kernel calls on two threads steps the same games as one
    call on one thread (house rules that replay from checkpoints; the UNO call made for
    the seat)."""
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba has one thread")
    threads = numba.get_num_threads()
    case = ("official", 4, {"jump_in": True, "seven_zero": True, "auto_uno": True}, 600, 1)
    try:
        numba.set_num_threads(1)
        one = digest(*case, "points", 30)
        numba.set_num_threads(2)
        two = digest(*case, "points", 30)
    finally:
        numba.set_num_threads(threads)
    assert one == two


def test_an_illegal_action_raises_and_moves_no_game():
    env = BatchEnv("official", 4, b=8, seed=3)
    obs, mask = env.reset()
    rng = np.random.default_rng(3)
    a = (rng.random(mask.shape) * mask).argmax(axis=1)
    bad = a.copy()
    bad[5] = int(np.flatnonzero(mask[5] == 0)[0])
    with pytest.raises(IllegalAction, match="seat 0's turn decision"):
        env.step(bad)
    after = env.step(a)
    fresh = BatchEnv("official", 4, b=8, seed=3)
    fresh.reset()
    for x, y in zip(after, fresh.step(a)):
        np.testing.assert_array_equal(x, y)


def test_step_before_reset_and_wrong_shapes_raise():
    env = BatchEnv("official", 2, b=4)
    with pytest.raises(IllegalAction):
        env.step(np.zeros(4, np.int64))
    env.reset()
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros(3, np.int64))
    with pytest.raises(ValueError, match="b must be"):
        BatchEnv("official", 2, b=0)


def test_the_arrays_returned_are_the_callers():
    """Each step returns new arrays: ones kept from an earlier step do not change."""
    env = BatchEnv("official", 4, b=4, seed=1)
    obs, mask = env.reset()
    kept = obs.copy(), mask.copy()
    env.step(mask.argmax(axis=1))
    np.testing.assert_array_equal(obs, kept[0])
    np.testing.assert_array_equal(mask, kept[1])


def test_vector_env_behaves_as_gymnasium_asks():
    """What Gymnasium's ``check_env`` asks of an env, asked of the ``VectorEnv``: spaces
    that hold what reset and step return, seeding that repeats the games, batched
    rewards and flags, the next game dealt in the step that ends one (``SAME_STEP``),
    the mask in the flat observation equal to ``action_masks()``; and Gymnasium's
    vector wrappers run over it."""
    from gymnasium.utils.env_checker import data_equivalence
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    venv = UnoVectorEnv("official", 4, num_envs=16, seed=0)
    assert venv.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    o1, info = venv.reset(seed=4)
    assert isinstance(info, dict) and venv.observation_space.contains(o1)
    rng = np.random.default_rng(4)
    steps = []
    for _ in range(60):
        m = venv.action_masks()
        assert m.dtype == bool and m.shape == (16, N_ACTIONS) and m.any(axis=1).all()
        np.testing.assert_array_equal(o1[:, :N_ACTIONS] == 1, m)
        a = (rng.random(m.shape) * m).argmax(axis=1)
        o1, r, term, trunc, info = venv.step(a)
        assert venv.observation_space.contains(o1)
        assert r.shape == term.shape == trunc.shape == (16,)
        assert term.dtype == trunc.dtype == np.bool_ and r.dtype == np.float64
        assert set(np.unique(r[~term])) <= {0.0}
        steps.append((a, o1, r, term))
    assert sum(int(t.sum()) for *_, t in steps) > 0
    venv.reset(seed=4)  # the same seed: the same games
    for a, o, r, term in steps:
        o2, r2, term2, _, _ = venv.step(a)
        assert data_equivalence((o, r, term), (o2, r2, term2))
    o3, _ = venv.reset(seed=5)
    assert not np.array_equal(o3, steps[0][1])
    stats = RecordEpisodeStatistics(UnoVectorEnv("official", 2, num_envs=4))
    stats.reset(seed=1)
    recorded = 0
    for _ in range(300):
        m = stats.unwrapped.action_masks()
        _, _, term, _, info = stats.step(m.argmax(axis=1))
        if term.any():
            assert info["_episode"][term].all() and (info["episode"]["l"][term] > 0).all()
            recorded += int(term.sum())
    assert recorded > 0
    venv.close()
