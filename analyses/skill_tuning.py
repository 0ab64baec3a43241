"""The skill page's two tuned weighted players, shipped with the code.

Usage: python analyses/skill_tuning.py [--threads N]
(rewrites ``analyses/data/skill-tunings.json``)

The page's candidates include the ``weighted`` player tuned under ``official`` against 3
``random`` and against 3 ``heuristic`` players (``unosim.analysis.tune``: 4,000,000 rounds
each, then 400,000 fresh rounds for the start and the tuned weights). A tuning is
deterministic given its spec (rules, players, opponents, budget, seed, start, the search's
settings, the kernel's behaviour and random streams), so its result is kept in
``analyses/data/skill-tunings.json`` beside that spec; the page uses it when the spec is the
one it would run, and tunes again otherwise (cached in ``results/reports/`` like any run).
This script recomputes both tunings and rewrites the file (about 10 million rounds: a
minute or two on 2 cores).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from common import SEED

from unosim.analysis.tune import tune
from unosim.game.rules import PRESETS
from unosim.versions import KERNEL_BEHAVIOUR_VERSION, RNG_VERSION

HERE = Path(__file__).resolve().parent
SHIPPED = HERE / "data" / "skill-tunings.json"
COMMAND = "python analyses/skill_tuning.py"
PLAYERS = 4
OPPONENTS = ("random", "heuristic")
START = "weighted:challenge=never"  # the default opponents never bluff
BUDGET = 4_000_000  # rounds of the search
POPULATION, ELITE, ITERATIONS = 16, 4, 8  # unosim.analysis.tune's defaults


def eval_rounds(budget: int) -> int:
    """Fresh rounds on which the start and the tuned weights are measured."""
    return max(4000, budget // 10)


def spec(opponents: str, budget: int = BUDGET, seed: int = SEED) -> dict:
    """Everything a tuning's result depends on."""
    return {
        "rules": PRESETS["official"].hash(),
        "players": PLAYERS,
        "opponents": opponents,
        "budget": int(budget),
        "seed": int(seed),
        "start": START,
        "population": POPULATION,
        "elite": ELITE,
        "iterations": ITERATIONS,
        "eval_rounds": eval_rounds(budget),
        "kernel_behaviour": KERNEL_BEHAVIOUR_VERSION,
        "rng_version": RNG_VERSION,
    }


def run(opponents: str, budget: int, seed: int, threads: int | None) -> dict:
    """Tune against ``opponents``: the summary the page reads (label, weights, start and
    tuned rates on fresh rounds with 95% half-widths, history, fresh rounds)."""
    r = tune(
        "official",
        PLAYERS,
        opponents,
        budget,
        seed,
        START,
        population=POPULATION,
        elite=ELITE,
        iterations=ITERATIONS,
        eval_games=eval_rounds(budget),
        threads=threads,
    )
    return {
        "label": r.label,
        "weights": r.weights,
        "start": list(r.start_rate),
        "tuned": list(r.tuned_rate),
        "history": r.history.to_dict("list"),
        "eval_rounds": r.eval_deals,
    }


def shipped(opponents: str, seed: int = SEED, path: Path | None = None) -> dict | None:
    """The shipped tuning against ``opponents`` (from ``path``, default ``SHIPPED``) if
    its spec is today's (else None)."""
    try:
        data = json.loads((path or SHIPPED).read_text())
    except (OSError, ValueError):
        return None
    entry = data.get("tunings", {}).get(opponents)
    if not isinstance(entry, dict) or entry.get("spec") != spec(opponents, BUDGET, seed):
        return None
    return entry["result"]


def write(threads: int | None = None, log: Callable[[str], None] = print) -> Path:
    """Run both tunings and rewrite ``SHIPPED``."""
    tunings = {}
    for o in OPPONENTS:
        log(f"tuning the weighted player against {o}: {BUDGET:,} rounds")
        tunings[o] = {"spec": spec(o), "result": run(o, BUDGET, SEED, threads)}
    data = {
        "about": "the skill page's tuned weighted players (analyses/skill_tuning.py)",
        "command": COMMAND,
        "tunings": tunings,
    }
    SHIPPED.parent.mkdir(parents=True, exist_ok=True)
    tmp = SHIPPED.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    tmp.replace(SHIPPED)
    return SHIPPED


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--threads", type=int, default=None, help="numba threads")
    a = ap.parse_args()
    path = write(a.threads, lambda m: print(m, file=sys.stderr, flush=True))
    print(path)


if __name__ == "__main__":
    main()
