"""A family's kernel against the general kernel, in one process: games/s of the same
games, the two alternated.

    NUMBA_NUM_THREADS=1 python benchmarks/family_ratio.py "official;stacking" 9

For each rule set (``;``-separated) and each of PAIRS rounds, 100,000 games of 4 ``random``
players are played by ``engine.rounds(family=True)`` and ``family=False`` in turn (the order
alternating), timed in CPU time; printed: the median over the rounds of the general
kernel's time over the family's (x1.00 for a rule set without a kernel of its own,
which the general kernel then plays both times) and every round's ratio.
"""

from __future__ import annotations

import statistics
import sys
import time

from unosim.sim import engine
from unosim.sim.simulate import make_job

GAMES = 100_000


def main() -> None:
    rules, pairs = sys.argv[1].split(";"), int(sys.argv[2])
    jobs = {r: make_job(r, 10 * GAMES, 4, "random", 12345) for r in rules}
    for j in jobs.values():  # compile, or load from the cache, before any clock starts
        engine.rounds(j.kernel, j.seed, 0, 64, 1024)
        engine.rounds(j.kernel, j.seed, 0, 64, 1024, family=False)
    ratios: dict[str, list[float]] = {r: [] for r in rules}
    for i in range(pairs):
        for r, j in jobs.items():
            t = {}
            for fam in (True, False) if i % 2 == 0 else (False, True):
                t0 = time.process_time()
                engine.rounds(j.kernel, j.seed, i * GAMES, GAMES, 1024, family=fam)
                t[fam] = time.process_time() - t0
            ratios[r].append(t[False] / t[True])
    for r in rules:
        print(
            f"{r:22s} family / general games/s: median x{statistics.median(ratios[r]):.3f}"
            f"  ({' '.join(f'{x:.2f}' for x in ratios[r])})"
        )


if __name__ == "__main__":
    main()
