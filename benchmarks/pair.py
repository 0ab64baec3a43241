"""`make bench-pair BASE=<commit>`: this tree's speed against another commit's, in
alternated runs on one thread.

    python benchmarks/pair.py --base 4e3cfb5 --pairs 10
    python benchmarks/pair.py --base 4e3cfb5 --rules presets   # every preset, one by one

The commit is exported (``git archive``) into a temporary folder; each side runs in its
own process with its own empty numba cache (compiled once, before the timed runs), the
two sides alternating (A B, B A, A B ...) so that the machine's drift (20% or more over
minutes on shared cores) falls on both. Each run times ``--games`` games three times
and keeps the best; printed are the medians over the pairs of games/s, ns per turn and
their ratios, and the pairs' mean ratio with its 95% interval (Student's t over the
pairs' log ratios: the interval says whether one run tells the two sides apart; the
spread between runs, which compile afresh, can be larger). Both sides play the same games
(same seed and game numbers), so the ratios compare the same work as long as the
kernel's results did not change. With ``--cpu`` a run is timed by its process's CPU
time: on a machine loaded past its cores the wall time also counts the time other
processes held the core.

``--rules`` takes one rule set, several separated by ``;``, or ``presets`` (every preset
of this tree): each run times every one of them in turn, so every rule set's pair is
alternated in the same way; a line per rule set gives its medians and ratios.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

RUN = """
import sys, time
try:
    from unosim.kernel.core.layout import C_TURNS
except ImportError:  # a commit from before the kernel's subpackages
    from unosim.kernel.layout import C_TURNS
try:
    from unosim.sim.simulate import make_job, run_block
except ImportError:  # a commit from before the layered layout
    from unosim.simulate import make_job, run_block
games, players, strategy = int(sys.argv[1]), int(sys.argv[3]), sys.argv[4]
clock = getattr(time, sys.argv[5])
for rules in sys.argv[2].split(";"):
    job = make_job(rules, 3 * games, players, strategy, 12345)
    run_block(job, 0, 64)  # load the compiled kernel
    best = (0.0, 0.0)
    for r in range(3):
        t = clock()
        out = run_block(job, r * games, games)
        dt = clock() - t
        best = max(best, (games / dt, -dt / out[:, C_TURNS].sum() * 1e9))
    print(best[0], -best[1])
"""

ROOT = Path(__file__).resolve().parent.parent


def export(commit: str, where: Path) -> Path:
    """The files of ``commit`` in ``where`` (``git archive``); exits with a one-line
    message if it is not a commit of this repository."""
    where.mkdir()
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit], capture_output=True)
    except OSError:
        sys.exit("bench-pair: git is needed to export the commit to compare against")
    if archive.returncode != 0:
        sys.exit(f"bench-pair: {commit!r} is not a commit of this repository")
    subprocess.run(["tar", "-x", "-C", str(where)], input=archive.stdout, check=True)
    return where


def run(tree: Path, cache: Path, args: argparse.Namespace) -> list[tuple[float, float]]:
    """(games/s, ns per turn) of each rule set of ``args.rules`` in one timed run of
    ``tree`` on one thread."""
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_CACHE_DIR=str(cache), NUMBA_NUM_THREADS="1")
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            RUN,
            str(args.games),
            ";".join(args.rules),
            str(args.players),
            args.strategy,
            "process_time" if args.cpu else "perf_counter",
        ],
        env=env,
        cwd=cache,
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        sys.exit(
            f"bench-pair: a run of {tree} failed: {(out.stderr.strip().splitlines() or ['?'])[-1]}"
        )
    rows = [line.split() for line in out.stdout.splitlines()]
    return [(float(gps), float(ns)) for gps, ns in rows]


def ratio_interval(ratios: list[float]) -> tuple[float, float, float]:
    """The geometric mean of ``ratios`` with its 95% interval (``unosim.stats.mean_ci``,
    Student's t, over their logarithms); one ratio gives (r, nan, nan)."""
    from unosim.stats import mean_ci

    mean, lo, hi = mean_ci([math.log(r) for r in ratios])
    return math.exp(mean), math.exp(lo), math.exp(hi)


def _median(rows: list[tuple[float, float]], i: int) -> float:
    """The median of column ``i`` (0: games/s, 1: ns per turn) of one side's runs."""
    return statistics.median(r[i] for r in rows)


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--base", required=True, help="the commit to compare against")
    ap.add_argument("--pairs", type=int, default=10)
    ap.add_argument("--games", type=int, default=200_000, help="games per timed run")
    ap.add_argument(
        "--rules",
        default="official",
        help="a rule set, several separated by ';', or 'presets' (every preset)",
    )
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--strategy", default="random")
    ap.add_argument(
        "--cpu",
        action="store_true",
        help="time each run by its process's CPU time, not the wall clock: on a loaded "
        "machine a run's wall time counts the time others held its core",
    )
    args = ap.parse_args()
    if args.pairs < 1 or args.games < 1000:
        sys.exit("bench-pair: --pairs must be >= 1 and --games >= 1000")
    from unosim.game.rules import PRESETS, resolve

    if args.rules == "presets":
        args.rules = list(PRESETS)
    else:
        args.rules = [r.strip() for r in args.rules.split(";") if r.strip()]
    for rules in args.rules:
        try:
            resolve(rules)
        except (ValueError, OSError) as e:
            sys.exit(f"bench-pair: {rules!r}: {e}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        sides = {"base": export(args.base, tmp / "base"), "this tree": ROOT}
        caches = {name: tmp / f"cache-{i}" for i, name in enumerate(sides)}
        for name, tree in sides.items():
            caches[name].mkdir()
            print(f"compiling {name} ...", file=sys.stderr, flush=True)
            run(tree, caches[name], argparse.Namespace(**{**vars(args), "games": 1000}))
        runs: dict[str, list[list[tuple[float, float]]]] = {name: [] for name in sides}
        for i in range(args.pairs):
            order = list(sides) if i % 2 == 0 else list(sides)[::-1]
            for name in order:
                runs[name].append(run(sides[name], caches[name], args))
            print(f"pair {i + 1}/{args.pairs}", file=sys.stderr, flush=True)
    print(
        f"{args.players} players, {args.strategy}, 1 thread, "
        f"{args.pairs} alternated pairs of {args.games:,} games ({os.cpu_count()} cores"
        f"{', CPU time' if args.cpu else ''}); base {args.base}"
    )
    for j, rules in enumerate(args.rules):
        base = [r[j] for r in runs["base"]]
        this = [r[j] for r in runs["this tree"]]
        ratio_g = statistics.median(t[0] / b[0] for t, b in zip(this, base))
        ratio_ns = statistics.median(t[1] / b[1] for t, b in zip(this, base))
        mean, lo, hi = ratio_interval([t[0] / b[0] for t, b in zip(this, base)])
        print(
            f"  {rules}: base {_median(base, 0):,.0f} games/s {_median(base, 1):.2f} ns/turn, "
            f"this tree {_median(this, 0):,.0f} games/s {_median(this, 1):.2f} ns/turn; "
            f"this / base: games/s x{ratio_g:.3f}, ns/turn x{ratio_ns:.3f}; "
            f"games/s mean x{mean:.3f} (95% {lo:.3f}-{hi:.3f})"
        )
    print(
        "(medians over the pairs; ratios are medians of the pairs' ratios; the mean ratio "
        "is their geometric mean, its interval Student's t over their logarithms)"
    )


if __name__ == "__main__":
    main()
