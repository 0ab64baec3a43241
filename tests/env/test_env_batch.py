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

from unosim.env import BatchEnv  # noqa: E402

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
