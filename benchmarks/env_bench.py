"""Decisions per second of one environment stepped from Python, beside OpenSpiel's
``crazy_eights`` (and rlcard's UNO where installed) stepped the same way in the same
process, alternated; and ``BatchEnv``'s decisions per second on 2 threads.

    .venv/bin/python benchmarks/env_bench.py [SECONDS] [--batch]

(``--batch``: ``BatchEnv``'s rows alone.)

The policy is the one every user writes first: a uniformly random legal action, chosen
in Python from the environment's mask (OpenSpiel: from ``legal_actions()``). unosim's
Gymnasium environment is seat 0 of 4-player ``official`` against 3 built-in ``random``
players (their decisions are made inside the kernel and not counted); crazy_eights has
its default 5 players, every one stepped from Python (chance nodes sampled, not
counted). Rates are decisions per CPU-second of this process (the machine may be
shared). Install OpenSpiel with the ``bench`` extra (``pip install -e '.[env,bench]'``).

``BatchEnv`` (the same game, seat 0 of 4 against 3 ``random``, its full rules) is
measured with its own default of 1,024 games (``BATCH``), the size a user gets: the
rate per CPU-second falls as the batch outgrows the caches (a game's arrays and its
checkpoint are about 16 KB: 1,024 games are 16 MB of the 32 MB L3, 4,096 games 62 MB;
``notes/env-step-cost.md`` has the sweep from 256 to 4,096), and 1,024 games split into
two kernel calls of 512. Its rows, each the best of 3 alternated runs: the target row
draws the actions with ``BatchEnv.sample_actions`` (compiled, 60 ns a game), the other
with numpy (``argmax(mask * rng.random(mask.shape))``, serial, a quarter of the step's
cost), so the difference is what the policy costs, not the environment. They are per
wall-second on 2 numba threads, with the rate per CPU-second of all threads and the
cores they kept busy (CPU-seconds per wall-second): below 2.0 the threads did not each
have a core, and 2 idle cores would give up to twice the rate per CPU-second (less the
parts of a step that run on one thread: ``notes/env-step-cost.md``).
"""

from __future__ import annotations

import os
import random
import sys
import time

import numba
import numpy as np

from unosim.env import BatchEnv, gym_env

BATCH = 1024  # BatchEnv's games (its default)


def unosim_gym(seconds: float) -> float:
    env = gym_env("official", 4)
    env.reset(seed=1)
    pick = random.Random(1).choice
    n = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        for _ in range(1000):
            _, _, term, trunc, _ = env.step(pick(np.flatnonzero(env.action_masks())))
            n += 1
            if term or trunc:
                env.reset()
    return n / (time.process_time() - t0)


def crazy_eights(seconds: float) -> float | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("crazy_eights")
    rng = random.Random(1)
    pick = rng.choice
    n = 0
    state = game.new_initial_state()
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        for _ in range(1000):
            if state.is_terminal():
                state = game.new_initial_state()
            while state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            if state.is_terminal():
                continue
            state.apply_action(pick(state.legal_actions()))
            n += 1
    return n / (time.process_time() - t0)


def rlcard_uno(seconds: float) -> float | None:
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("uno", config={"seed": 1})
    pick = random.Random(1).choice
    n = 0
    env.reset()
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        for _ in range(1000):
            if env.is_over():
                env.reset()
            state = env.get_state(env.get_player_id())
            env.step(pick(list(state["legal_actions"])))
            n += 1
    return n / (time.process_time() - t0)


def batch(
    seconds: float, policy: str = "sampler", threads: int = 2, b: int = BATCH
) -> tuple[float, float]:
    """``BatchEnv``'s decisions per wall-second and per CPU-second (of every thread),
    a uniformly random legal action per game drawn by ``BatchEnv.sample_actions``
    (``policy`` "sampler") or by numpy on this thread ("numpy")."""
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    env = BatchEnv("official", 4, b=b, seed=1)
    _, mask = env.reset()
    rng = np.random.default_rng(1)
    n = 0
    t0, c0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < seconds:
        if policy == "numpy":
            a = np.argmax(mask * rng.random(mask.shape), axis=1)  # a random legal action
        else:
            a = env.sample_actions(rng)
        _, mask, _, _ = env.step(a)
        n += b
    return n / (time.perf_counter() - t0), n / (time.process_time() - c0)


def batch_rows(seconds: float) -> list[str]:
    """The two ``BatchEnv`` rows, the sampler's (the target's) and numpy's, alternated
    (the best of 3 each)."""
    best = {"sampler": (0.0, 0.0), "numpy": (0.0, 0.0)}
    for _ in range(3):
        for policy in best:
            wall, cpu = batch(seconds / 3, policy)
            best[policy] = max(best[policy], (wall, cpu))
    rows = []
    for policy, (wall, cpu) in best.items():
        # CPU-seconds per wall-second: below 2, the threads did not each have a core (a
        # machine shared with other work), and the wall rate says less than it seems
        name = f"BatchEnv, 2 threads, {policy}"
        target = "target >= 1,000,000; " if policy == "sampler" else ""
        rows.append(
            f"{name:28s} {wall:16,.0f}   decisions/s ({target}"
            f"{cpu:,.0f} per CPU-second, {wall / cpu:.1f} cores busy)"
        )
    return rows


def main(seconds: float) -> None:
    if len(sys.argv) > 2 and sys.argv[2] == "--batch":  # BatchEnv's rows alone
        batch(0.5)
        print("\n".join(batch_rows(seconds)))
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        return
    unosim_gym(0.5)  # load the compiled kernels
    crazy_eights(0.2)
    rows: dict[str, list[float]] = {"unosim gym": [], "openspiel crazy_eights": []}
    for _ in range(3):  # alternated
        rows["unosim gym"].append(unosim_gym(seconds))
        c8 = crazy_eights(seconds)
        if c8 is not None:
            rows["openspiel crazy_eights"].append(c8)
    rl = rlcard_uno(seconds)
    if rl is not None:
        rows["rlcard uno"] = [rl]
    print(f"{'environment':28s} {'decisions/CPU-s':>16s}")
    for name, v in rows.items():
        if v:
            print(f"{name:28s} {max(v):16,.0f}")
        else:
            print(f"{name:28s} {'not installed':>16s}")
    if rows["openspiel crazy_eights"]:
        ratio = max(rows["unosim gym"]) / max(rows["openspiel crazy_eights"])
        print(f"{'gym / crazy_eights':28s} {ratio:16.2f}   (target >= 0.5)")
    batch(0.5)
    print("\n".join(batch_rows(seconds)))
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 2.0)
