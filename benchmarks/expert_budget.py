"""The expert's budget curve: speed and paired strength of expert strings on the same deals.

    NUMBA_NUM_THREADS=1 FIRST=$((5<<41)) python benchmarks/expert_budget.py random 1000 11 \
        "expert:model=actual;horizon=0;rollouts=512;depth=4;tries=64" "expert:..."

Each expert string plays as 1 expert against 3 ``OPPONENT`` players, 4-player official,
in every seat in turn, on ``DEALS`` deals from ``FIRST`` of ``SEED``
(``expert_strength.wins``). Printed per string: rounds/s in CPU time
(``time.process_time``: the load of other processes on a shared machine does not count;
run it on 1 thread), its speed-up over the first string, its win rate and its paired
difference from the first string on the same deals, with 95% intervals. With
``CACHE=dir`` each string's per-deal wins and CPU time are kept there, so a later run on
the same deals reuses them (the reference is then played once).
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from pathlib import Path

import numpy as np
from expert_strength import FIRST, wins

RULES = "official"


def measured(me: str, opponent: str, deals: int, seed: int) -> tuple[np.ndarray, float]:
    """Per-deal wins of ``me`` (``wins``) and the CPU seconds they took (compiled first)."""
    cache = os.environ.get("CACHE")
    key = hashlib.sha1(f"{RULES} {me} {opponent} {FIRST} {deals} {seed}".encode()).hexdigest()
    path = Path(cache, f"{key[:16]}.npz") if cache else None
    if path is not None and path.exists():
        saved = np.load(path)
        return saved["w"], float(saved["cpu"])
    wins(RULES, me, opponent, 1, seed)  # compile, and warm up
    t = time.process_time()
    w = wins(RULES, me, opponent, deals, seed)
    cpu = time.process_time() - t
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, w=w, cpu=cpu, me=me)
    return w, cpu


def main() -> None:
    opponent, deals, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    half = 1.96 / np.sqrt(deals)
    print(f"{deals} deals from FIRST={FIRST}, seed {seed}, against 3 {opponent}")
    first, speed0 = None, 0.0
    for me in sys.argv[4:]:
        w, cpu = measured(me, opponent, deals, seed)
        speed = 4 * deals / cpu
        line = f"{me:70s} {speed:7.1f} rounds/s  {w.mean():.4f} +- {half * w.std():.4f}"
        if first is None:
            first, speed0 = w, speed
        else:
            d = w - first
            line += f"  x{speed / speed0:5.2f}  vs first {d.mean():+.4f} +- {half * d.std():.4f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
