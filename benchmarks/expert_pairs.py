"""Two expert strings' speed, alternated in one process: the ratio of their CPU times.

    NUMBA_NUM_THREADS=1 FIRST=$((7<<41)) python benchmarks/expert_pairs.py random 5 100 11 \
        "$STRONG" "$CANDIDATE"

Plays ``PAIRS`` pairs: in each, ``A`` then ``B`` on the same ``DEALS`` deals (pair ``i``
on deals ``FIRST + i * DEALS ..``), 1 expert against 3 ``OPPONENT`` players in every seat
in turn (``expert_strength.wins``), each timed in CPU time (``time.process_time``; run it
on 1 thread). A pair's ratio is A's CPU time over B's on the same games, so a machine
that is slower for a while slows both sides of a pair alike (alternated runs). Prints
each pair and the median ratio: how many times faster ``B`` is.
"""

from __future__ import annotations

import sys
import time

import expert_strength
import numpy as np
from expert_strength import wins

RULES = "official"


def main() -> None:
    opponent, pairs, deals, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    a, b = sys.argv[5], sys.argv[6]
    first = expert_strength.FIRST
    for me in (a, b):
        wins(RULES, me, opponent, 1, seed)  # compile, and warm up
    print(f"{pairs} pairs of {deals} deals from FIRST={first}, seed {seed}, against 3 {opponent}")
    print(f"A = {a}\nB = {b}")
    ratios = []
    for i in range(pairs):
        expert_strength.FIRST = first + i * deals
        cpu = []
        for me in (a, b):
            t = time.process_time()
            wins(RULES, me, opponent, deals, seed)
            cpu.append(time.process_time() - t)
        ratios.append(cpu[0] / cpu[1])
        print(
            f"pair {i + 1}: A {4 * deals / cpu[0]:7.1f} rounds/s, B {4 * deals / cpu[1]:7.1f} "
            f"rounds/s, B x{ratios[-1]:.2f}",
            flush=True,
        )
    print(f"median: B x{np.median(ratios):.2f} (range x{min(ratios):.2f} - x{max(ratios):.2f})")


if __name__ == "__main__":
    main()
