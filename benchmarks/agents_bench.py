"""Agent decisions per second: the example random agent at seat 0 of 4-player
``official`` against 3 built-in ``random`` players, on one numba thread (CPU time of this
process: the machine may be shared).

    .venv/bin/python benchmarks/agents_bench.py [GAMES]
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples" / "agents"))

from random_agent import agent  # noqa: E402

from unosim.sim.simulate import simulate  # noqa: E402


class Counting:
    def __init__(self):
        self.n = 0

    def act(self, obs):
        self.n += 1
        return agent(obs)


def main(games: int) -> None:
    simulate("official", 50, 4, [agent, "random", "random", "random"], threads=1)  # warm
    c = Counting()
    t = time.process_time()
    simulate("official", games, 4, [c, "random", "random", "random"], seed=1, threads=1)
    s = time.process_time() - t
    noop = Counting()
    noop.act = lambda obs: (setattr(noop, "n", noop.n + 1), obs.legal[0])[1]
    t = time.process_time()
    simulate("official", games, 4, [noop, "random", "random", "random"], seed=1, threads=1)
    s0 = time.process_time() - t
    print(
        f"random agent: {c.n:,} decisions in {s:.2f} s: {c.n / s:,.0f} decisions/s "
        f"({games / s:,.0f} games/s)"
    )
    print(
        f"first-legal agent (the interface's own cost): {noop.n:,} decisions in "
        f"{s0:.2f} s: {noop.n / s0:,.0f} decisions/s"
    )


def batch(b: int = 4096, steps: int = 30) -> None:
    """The batch interface: a numpy-vectorized random agent (a uniformly random legal
    action per game), ``b`` games, every numba thread; wall time of the steps."""
    try:
        import numpy as np

        from unosim.env import BatchEnv
    except ImportError:
        print("batch: unosim[env] is not installed")
        return
    import numba

    env = BatchEnv("official", 4, b=b, seed=1)
    obs, mask = env.reset()
    rng = np.random.default_rng(0)
    env.step((rng.random(mask.shape) * mask).argmax(axis=1))  # warm
    obs, mask = env.observe()
    t = time.perf_counter()
    for _ in range(steps):
        obs, mask, r, d = env.step((rng.random(mask.shape) * mask).argmax(axis=1))
    s = time.perf_counter() - t
    print(
        f"batch of {b:,} on {numba.get_num_threads()} threads: {b * steps / s:,.0f} "
        f"decisions/s (wall)"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5000)
    batch()
