"""``BatchEnv``'s decisions/s in this tree against another tree's, in alternated runs.

    python benchmarks/batch_pair.py --base /tmp/base --pairs 6            # 1 thread, CPU
    python benchmarks/batch_pair.py --base /tmp/base --pairs 6 --wall 2   # 2 threads, wall

``--base`` is a folder holding another commit's sources (``git archive C | tar -x -C
DIR``; its numba cache compiles in its own ``__pycache__`` on the first run). Each run, in
its own process, times ``--steps`` steps of b = ``--batch`` games of 4-player
``official`` (``--mix``: with stacking, Seven-Zero and Jump-In) with a numpy-vectorized
random agent, the two sides alternating (A B, B A, ...); printed are each side's median
decisions/s with the agent's time and without it, and the pairs' ratios.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

RUN = """
import sys, time
import numpy as np
from unosim.env import BatchEnv
cpu, steps, b, mix = sys.argv[1] == "cpu", int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
clk = time.process_time if cpu else time.perf_counter
opts = {"stacking": "same", "seven_zero": True, "jump_in": True} if mix else {}
env = BatchEnv("official", 4, b=b, seed=1, **opts)
obs, mask = env.reset()
rng = np.random.default_rng(0)
for _ in range(3):
    obs, mask, r, d = env.step((rng.random(mask.shape) * mask).argmax(axis=1))
t = clk()
ta = 0.0
for _ in range(steps):
    s = clk()
    a = (rng.random(mask.shape) * mask).argmax(axis=1)
    ta += clk() - s
    obs, mask, r, d = env.step(a)
s = clk() - t
print(b * steps / s, b * steps / (s - ta))
"""


def run(tree: Path, args) -> tuple[float, float]:
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_NUM_THREADS=str(args.wall or 1))
    mode = "wall" if args.wall else "cpu"
    cmd = [sys.executable, "-c", RUN, mode, str(args.steps), str(args.batch), str(int(args.mix))]
    out = subprocess.run(cmd, env=env, cwd=tree, capture_output=True, text=True, check=True)
    a, b = out.stdout.split()
    return float(a), float(b)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, type=Path)
    ap.add_argument("--pairs", type=int, default=6)
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--batch", type=int, default=4096)
    ap.add_argument("--wall", type=int, default=0, help="threads, timed by wall (0: 1, CPU)")
    ap.add_argument("--mix", action="store_true")
    args = ap.parse_args()
    trees = {"base": args.base.resolve(), "this": Path(__file__).resolve().parent.parent}
    for tree in trees.values():  # compile each side once, untimed
        run(tree, argparse.Namespace(**{**vars(args), "steps": 1, "batch": 64}))
    res: dict[str, list[tuple[float, float]]] = {k: [] for k in trees}
    for i in range(args.pairs):
        for k in ("base", "this") if i % 2 == 0 else ("this", "base"):
            res[k].append(run(trees[k], args))
        print(
            f"pair {i}: base {res['base'][-1][0]:,.0f}, this {res['this'][-1][0]:,.0f} "
            f"decisions/s (load {os.getloadavg()[0]:.1f})",
            flush=True,
        )
    for k, v in res.items():
        print(
            f"{k}: median {statistics.median(x for x, _ in v):,.0f} decisions/s with the "
            f"agent, {statistics.median(y for _, y in v):,.0f} without"
        )
    ratios = [t[0] / b[0] for t, b in zip(res["this"], res["base"])]
    print(
        "ratios this/base:",
        " ".join(f"{r:.2f}" for r in ratios),
        f"median {statistics.median(ratios):.2f}",
    )


if __name__ == "__main__":
    main()
