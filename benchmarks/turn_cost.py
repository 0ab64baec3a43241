"""Fixed and per-turn cost of a round, per preset (4 players, random, 1 thread).

A round's time is a fixed part (setup, deal, random streams, record) plus a cost per
turn. The fixed part is timed on the same rounds stopped after their first turn
(``max_turns = 1``). All runs are interleaved, ``--repeat`` times, and the medians are
reported, because this machine's speed drifts over minutes. The last column is the
games/s ratio to ``official``, and the one before it the ratio that preset would reach
at ``official``'s cost per turn.

Usage: python benchmarks/turn_cost.py [--presets official,motu,...] [--games N] [--repeat R]
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--presets", default="official,draw-until-playable,motu")
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=8)
    args = ap.parse_args()

    import numba

    from unosim.kernel.core import layout as L
    from unosim.sim.simulate import make_job, run_block

    numba.set_num_threads(1)
    names = list(dict.fromkeys(["official", *args.presets.split(",")]))
    jobs = {
        (r, h): make_job(r, args.games, 4, "random", 12345, house=h)
        for r in names
        for h in (None, "max_turns=1")
    }
    turns = {c: run_block(j, 0, args.games)[:, L.C_TURNS].mean() for c, j in jobs.items()}
    t: dict = {c: [] for c in jobs}
    for r in range(args.repeat):
        for c, j in jobs.items():
            a = time.perf_counter()
            run_block(j, (r + 1) * args.games, args.games)
            t[c].append((time.perf_counter() - a) / args.games * 1e9)
    med = {c: float(np.median(v)) for c, v in t.items()}
    off_full, off_fixed = med[("official", None)], med[("official", "max_turns=1")]
    off_turn = (off_full - off_fixed) / (turns[("official", None)] - 1)
    print(f"{args.repeat} interleaved runs of {args.games:,} rounds each, medians, 1 thread")
    print(
        f"{'preset':22s} {'ns/round':>9s} {'fixed':>7s} {'turns':>7s} {'ns/turn':>8s} "
        f"{'at official ns/turn':>20s} {'games/s vs official':>20s}"
    )
    for r in names:
        full, fixed = med[(r, None)], med[(r, "max_turns=1")]
        n = turns[(r, None)]
        per = (full - fixed) / (n - 1)
        ceiling = off_full / (fixed + (n - 1) * off_turn)
        print(
            f"{r:22s} {full:9.0f} {fixed:7.0f} {n:7.2f} {per:8.1f} {ceiling:20.3f} "
            f"{off_full / full:20.3f}"
        )


if __name__ == "__main__":
    main()
