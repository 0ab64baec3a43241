"""BatchEnv's games are pinned: for a fixed seed, the observations, masks, rewards and
done flags of a few hundred steps of a seeded random agent hash to the digests taken
before the batch interface was made faster (the games must never change), taken again when
declared cards widened the arrays (130 actions, 188 observation values): the same agent
choosing among the first 98 actions got the same rewards, done flags and masks of those
98 as before. The rule mixes
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
        "0250adc90f0e75a4cdbe5aa6515e71785c619607ad60fb4ba7f6941f43962eb3",
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
        "3d00d960a475f1e2241de5e8b850b733db02f7ac209fcd92c312362d6b2c1b0c",
    ),
    (
        ("pokemon", 4, {}, 32, 1, "win", 300),
        "2d2c71bf4ac1658e57b314e10618d2bebd9452a2365739af6f44ea17606e75b8",
    ),
    (
        ("official", 2, {}, 40, 1, "points", 300),
        "1c4ba1834092ee0fbe0f12f42df2d3f8d683df3e603adff3d07ee87db33bf1bb",
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
        "ddc822f88c97a086e7400e2db694685bd2712c95e5989c8f5f6cad3850f3c3dc",
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
    assert d == "88a35ea6f5f8b6588e9841d56598bccc04909e1be87732b3891c159dc9ea8c0d"


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


def test_actions_in_any_layout_step_the_same_games():
    """Actions given as a strided view, a read-only array or a list step the games as a
    contiguous array does (the kernel's compiled entry point takes one layout)."""
    envs = [BatchEnv("official", 4, b=16, seed=4) for _ in range(4)]
    for env in envs:
        env.reset()
    for _ in range(30):
        a = envs[0].sample_actions()
        wide = np.stack([a, a], axis=1)  # wide[:, 0] is strided
        frozen = a.copy()
        frozen.flags.writeable = False
        steps = [e.step(x) for e, x in zip(envs, (a, wide[:, 0], frozen, a.tolist()))]
        for other in steps[1:]:
            for x, y in zip(steps[0], other):
                np.testing.assert_array_equal(x, y)


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


def _uniformity_p(env, draws):
    """p-value of a chi-square test that ``draws`` calls of ``env.sample_actions()`` (the
    games held still) pick each game's legal actions uniformly, pooled over the games."""
    from scipy.stats import chi2

    mask = env.observe()[1].astype(bool)
    counts = np.zeros(mask.shape, np.int64)
    rows = np.arange(env.b)
    for _ in range(draws):
        counts[rows, env.sample_actions()] += 1
    stat, dof = 0.0, 0
    for i in range(env.b):
        legal = counts[i, mask[i]]
        if legal.size > 1:
            expected = draws / legal.size
            stat += float(((legal - expected) ** 2).sum() / expected)
            dof += legal.size - 1
    return chi2.sf(stat, dof)


def test_sampled_actions_are_legal_and_play_the_pinned_games():
    """Every sampled action is legal (a house-rule mix, whose decisions inside turns
    replay from checkpoints, and the UNO call); stepping with them raises nothing."""
    env = BatchEnv("official", 4, b=48, seed=2, stacking="same", seven_zero=True, jump_in=True)
    obs, mask = env.reset()
    seen = set()
    for _ in range(200):
        a = env.sample_actions()
        assert a.dtype == np.int64 and a.shape == (48,)
        assert (mask[np.arange(48), a] == 1).all()
        seen.update(a.tolist())
        obs, mask, _, _ = env.step(a)
    assert len(seen) > 60  # plays, draws, passes, colours, UNO calls...


def test_sampled_actions_are_uniform_over_the_legal_ones():
    """A chi-square test over each game's legal actions (p > 1e-4; a sampler that
    favoured one action in ten per cent of its draws fails it)."""
    env = BatchEnv("official", 4, b=64, seed=3, jump_in=True)
    env.reset()
    rng = np.random.default_rng(9)
    for _ in range(7):  # some games at other decisions than their first
        env.step(env.sample_actions(rng))
    assert _uniformity_p(env, 2000) > 1e-4


def test_the_sampler_is_reproducible_on_any_threads():
    """The same seed gives the same actions: an int seed, a Generator, the batch's own
    stream, on one thread or two; a game waiting at nothing gets -1."""
    fresh = BatchEnv("official", 4, b=600, seed=1)
    assert (fresh.sample_actions() == -1).all()
    with pytest.raises(TypeError, match="rng must be"):
        fresh.sample_actions("7")

    def run(rng_of, threads):
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
        env = BatchEnv("official", 4, b=600, seed=1)
        env.reset()
        rng = rng_of()
        out = []
        for _ in range(20):
            a = env.sample_actions(rng)
            out.append(a)
            env.step(a)
        return np.stack(out)

    threads = numba.get_num_threads()
    try:
        own = run(lambda: None, 1)
        np.testing.assert_array_equal(own, run(lambda: None, 2))
        gen = run(lambda: np.random.default_rng(5), 2)
        np.testing.assert_array_equal(gen, run(lambda: np.random.default_rng(5), 1))
        assert not np.array_equal(own, gen)
    finally:
        numba.set_num_threads(threads)
    env = BatchEnv("official", 4, b=32, seed=1)
    env.reset()
    np.testing.assert_array_equal(env.sample_actions(11), env.sample_actions(11))
    assert not np.array_equal(env.sample_actions(11), env.sample_actions(12))
