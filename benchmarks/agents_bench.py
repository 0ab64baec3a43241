"""Agent decisions per second: the example random agent at seat 0 of 4-player
``official`` against 3 built-in ``random`` players, on one numba thread (CPU time of this
process: the machine may be shared).

    .venv/bin/python benchmarks/agents_bench.py [GAMES]

Where rlcard is installed (``pip install rlcard``), its UNO environment (2 players only,
with its own simplified rules) is timed beside unosim's 2-player rounds with a Python
random agent in both seats, in the same process and on the same kind of agent.
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


def rlcard_side(games: int = 2000) -> None:
    """rlcard's UNO with its RandomAgent in both seats against unosim's 2-player
    ``official`` with the example random agent in both seats: games/s and decisions/s
    (CPU time of this process), and unosim's built-in ``random`` players beside them."""
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        print("rlcard: not installed (pip install rlcard), no side-by-side")
        return
    env = rlcard.make("uno", config={"seed": 1})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    env.run(is_training=False)  # warm
    decisions = 0
    t = time.process_time()
    for _ in range(games):
        trajectories, _ = env.run(is_training=False)
        decisions += sum((len(tr) - 1) // 2 for tr in trajectories)
    s_rl = time.process_time() - t
    both = [Counting(), Counting()]
    simulate("official", 20, 2, both, threads=1)  # warm
    both = [Counting(), Counting()]
    t = time.process_time()
    simulate("official", games, 2, both, seed=1, threads=1)
    s_un = time.process_time() - t
    n_un = both[0].n + both[1].n
    simulate("official", 20, 2, "random", threads=1)  # warm
    t = time.process_time()
    simulate("official", 100 * games, 2, "random", seed=1, threads=1)
    s_bi = time.process_time() - t
    print(
        f"rlcard {rlcard.__version__} UNO, 2 RandomAgents: {games / s_rl:,.0f} games/s, "
        f"{decisions / s_rl:,.0f} decisions/s; unosim official, 2 Python random agents: "
        f"{games / s_un:,.0f} games/s, {n_un / s_un:,.0f} decisions/s "
        f"(x{(games / s_un) / (games / s_rl):.1f} rlcard's games/s); unosim's built-in "
        f"random, 2 players: {100 * games / s_bi:,.0f} games/s "
        f"(x{(100 * games / s_bi) / (games / s_rl):,.0f})"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5000)
    batch()
    rlcard_side()
