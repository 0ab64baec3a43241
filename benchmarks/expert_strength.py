"""The expert's strength, paired with its rollout policy on the same deals.

    python benchmarks/expert_strength.py official random 2000 11 expert "expert:rollouts=8"

Each strategy plays against 3 ``OPPONENT`` players, in every seat in turn (as
``tournament.play`` seats them), on deals ``2**41 ..`` of ``SEED`` (fresh: no test or
tuning uses them). Printed: its win rate with a 95% interval, and the paired difference
from the tuned weighted policy (``expert.TUNED``) on the same deals with its 95%
interval; from the second strategy on, also the paired difference from the first one.
An expert that keeps its policy's move plays its policy's game exactly, so the
difference comes only from the decisions the search changes.
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

from unosim.players.expert import TUNED
from unosim.sim.simulate import make_job, run_block

# the evaluation deals; set FIRST (e.g. FIRST=$((1 << 43))) to tune on other deals
FIRST = int(os.environ.get("FIRST", 1 << 41))


def wins(rules: str, me: str, opponent: str, deals: int, seed: int) -> np.ndarray:
    """Per deal: the mean over the 4 seats of ``me`` winning against 3 ``opponent``."""
    w = np.zeros(deals)
    for r in range(4):
        labels = [opponent] * 4
        labels[r] = me
        rec = run_block(make_job(rules, deals, 4, labels, seed), FIRST, deals)
        w += rec[:, 0] == r
    return w / 4


def main() -> None:
    rules, opponent, deals, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    base = wins(rules, TUNED, opponent, deals, seed)
    half = 1.96 / np.sqrt(deals)
    print(f"policy (tuned weighted): {base.mean():.4f} +- {half * base.std():.4f}")
    first = None
    for me in sys.argv[5:]:
        t = time.perf_counter()
        e = wins(rules, me, opponent, deals, seed)
        dt = time.perf_counter() - t
        d = e - base
        line = (
            f"{me:40s} {e.mean():.4f} +- {half * e.std():.4f}  paired gain "
            f"{d.mean():+.4f} +- {half * d.std():.4f}"
        )
        if first is None:
            first = e
        else:  # paired with the first strategy listed
            f = e - first
            line += f"  vs first {f.mean():+.4f} +- {half * f.std():.4f}"
        print(f"{line}  ({4 * deals / dt:,.0f} rounds/s)", flush=True)


if __name__ == "__main__":
    main()
