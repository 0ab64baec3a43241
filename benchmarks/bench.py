"""`make bench`: games per second and nanoseconds per turn of the kernel.
Its first line is this machine's speed, official 4-player rounds per second on one core:
the time the docs state for a task is given beside that figure, so that a reader can
scale it to their machine.

Measured after compilation: speeds are the best of ``--repeat`` runs, ratios the median
over as many pairs of runs (see ``measure``), on this machine's cores; the cold compile
is timed in a fresh process with an empty numba cache.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

COLD = """
import time
from unosim.sim.simulate import make_job, run_block
job = make_job('official', 100, 4, 'random', 1)
t = time.perf_counter(); run_block(job, 0, 100); print(time.perf_counter() - t)
"""


def cold_compile_seconds() -> float:
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        out = subprocess.run(
            [sys.executable, "-c", COLD], env=env, check=True, capture_output=True, text=True
        )
    return float(out.stdout.split()[-1])


def measure(
    rules: str,
    players: int,
    strategies: str,
    games: int,
    threads: int,
    repeat: int,
    against: tuple[str, str] | None = None,
) -> tuple[float, float, float, float, float]:
    """(games per second, ns per turn, ratio, turns per game, ns-per-turn ratio): the
    speeds are the best of ``repeat`` runs.

    With ``against`` = (rules, strategies), each run is paired with a run of that
    reference job on the same games and threads, made right before or right after it
    (alternately), and the ratios are the medians over the pairs: this machine's speed
    drifts by 20% or more over minutes (shared cores), so a ratio of runs minutes apart,
    or of the best run of each side, would partly measure the drift."""
    import numba

    from unosim.kernel.core import layout as L
    from unosim.sim.simulate import make_job, run_block

    def timed(j, r):
        t = time.perf_counter()
        out = run_block(j, r * games, games)
        dt = time.perf_counter() - t
        return games / dt, dt / out[:, L.C_TURNS].sum() * 1e9, out[:, L.C_TURNS].mean()

    job = make_job(rules, games, players, strategies, seed=12345)
    ref = None if against is None else make_job(against[0], games, players, against[1], seed=12345)
    run_block(job, 0, 64)  # compile / load
    if ref is not None:
        run_block(ref, 0, 64)
    numba.set_num_threads(threads)
    best = (0.0, 0.0, 0.0)
    ratios, ns_ratios = [], []
    for r in range(repeat):
        if ref is not None and r % 2 == 0:
            base = timed(ref, r)
        run = timed(job, r)
        if ref is not None and r % 2 == 1:
            base = timed(ref, r)
        if ref is not None:
            ratios.append(run[0] / base[0])
            ns_ratios.append(run[1] / base[1])
        best = max(best, run)
    if ref is None:
        return best[0], best[1], 1.0, best[2], 1.0
    return best[0], best[1], float(np.median(ratios)), best[2], float(np.median(ns_ratios))


def measure_prototype(games: int, repeat: int) -> tuple[float, float, float, float]:
    """(kernel games/s, prototype games/s, median kernel/prototype games/s ratio, median
    ns/turn ratio): official 4-player random on 1 thread, each run of ``unosim``'s kernel
    paired with a run of the stripped prototype (``benchmarks/prototype.py``) on as many
    games, the two in alternating order; speeds are the best runs."""
    import numba
    import prototype

    from unosim.kernel.core import layout as L
    from unosim.sim.simulate import make_job, run_block

    job = make_job("official", games, 4, "random", seed=12345)
    run_block(job, 0, 64)  # compile / load
    prototype.simulate(64)
    numba.set_num_threads(1)

    def kernel(r):
        t = time.perf_counter()
        out = run_block(job, r * games, games)
        return time.perf_counter() - t, out[:, L.C_TURNS].sum()

    def proto(r):
        t = time.perf_counter()
        out = prototype.simulate(games, 4, 12345, r * games)
        return time.perf_counter() - t, out[:, 1].sum()

    ratios, ns_ratios, best_k, best_p = [], [], 0.0, 0.0
    for r in range(repeat):
        first, second = (kernel, proto) if r % 2 == 0 else (proto, kernel)
        a, b = first(r), second(r)
        (kt, kturns), (pt, pturns) = (a, b) if first is kernel else (b, a)
        ratios.append(pt / kt)
        ns_ratios.append((kt / kturns) / (pt / pturns))
        best_k, best_p = max(best_k, games / kt), max(best_p, games / pt)
    return best_k, best_p, float(np.median(ratios)), float(np.median(ns_ratios))


def measure_matches(matches: int, threads: int, repeat: int) -> tuple[float, float, int]:
    """(rounds/s inside whole matches, rounds/s of as many single rounds, rounds), best of
    ``repeat``, the two interleaved; matches through the API (frames included), single
    rounds as above (raw records)."""
    import numba

    from unosim.sim.match import make_match_job, run_matches
    from unosim.sim.simulate import make_job, run_block

    mjob = make_match_job("official", matches, 4, "random", seed=12345)
    rjob = make_job("official", 10, 4, "random", seed=12345)
    run_matches(make_match_job("official", 8, 4, "random"), 1)  # compile / load
    run_block(rjob, 0, 64)
    numba.set_num_threads(threads)
    best_m = best_r = 0.0
    rounds = 0
    for _ in range(repeat):
        t = time.perf_counter()
        rounds = len(run_matches(mjob, threads)[1])
        best_m = max(best_m, rounds / (time.perf_counter() - t))
        t = time.perf_counter()
        run_block(rjob, 0, rounds)
        best_r = max(best_r, rounds / (time.perf_counter() - t))
    return best_m, best_r, rounds


def measure_expert(
    games: int, threads: int, repeat: int, label: str = "expert"
) -> tuple[float, float, float]:
    """(games/s with one ``label`` expert seat and 3 ``random`` on ``threads`` threads,
    ns per rollout turn on 1 thread, rollout turns per game): best of ``repeat`` runs.
    A rollout turn's cost includes its share of the determinizations and state copies."""
    import numba

    from unosim.sim.engine import expert_tally
    from unosim.sim.simulate import make_job, run_block

    job = make_job("official", games, 4, f"{label},random,random,random", seed=12345)
    run_block(job, 0, 4)  # compile / load
    expert_tally(job.kernel, job.seed, 0, 2)
    best_g = 0.0
    best_ns = float("inf")
    turns = 0.0
    for r in range(repeat):
        numba.set_num_threads(threads)
        t = time.perf_counter()
        run_block(job, r * games, games)
        best_g = max(best_g, games / (time.perf_counter() - t))
        numba.set_num_threads(1)
        t = time.perf_counter()
        searches, rollout_turns = expert_tally(job.kernel, job.seed, r * games, games)[:2]
        best_ns = min(best_ns, (time.perf_counter() - t) / rollout_turns * 1e9)
        turns = rollout_turns / games
    return best_g, best_ns, turns


def kernel_of(rules: str) -> str:
    """Which kernel plays ``rules``' rounds: a family's (``engine.FAMILIES``, named after
    the first rule set of the family: ``official's`` also for ``motu``, whose rule array
    is official's, and for ``stacking`` or ``portugal``, whose differ only in slots the
    family reads from the table) or ``general``."""
    from unosim.game.rules import resolve
    from unosim.sim import engine

    name = engine.family_name(resolve(rules).to_array())
    return "general" if name is None else f"{name}'s"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=300_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--presets", default="all")
    ap.add_argument("--no-cold", action="store_true")
    args = ap.parse_args()

    import numba

    from unosim.game.rules import PRESETS
    from unosim.players.expert import STRONG, STRONG_FAST, STRONG_FIT
    from unosim.players.strategies import NAMES as strategy_names

    cores = numba.config.NUMBA_NUM_THREADS
    print(
        f"unosim benchmark: {os.cpu_count()} cores, numba {numba.__version__}, "
        f"threading layer {numba.config.THREADING_LAYER}"
    )
    # first, the figure the docs' times are stated against (README.md, docs/performance.md)
    base1, ns1, *_ = measure("official", 4, "random", args.games, 1, args.repeat)
    print(
        f"machine speed: {base1:,.0f} official rounds/s on one core "
        f"(4 players, random, best of {args.repeat}; the docs' times are given beside it)"
    )
    if not args.no_cold:
        print(f"cold compile (empty cache, first call): {cold_compile_seconds():.1f} s")
    k, p, ratio, ns_ratio = measure_prototype(args.games, args.repeat)
    print(
        f"official, 4 players, random, 1 thread, against the stripped prototype "
        f"(benchmarks/prototype.py): {k:,.0f} vs {p:,.0f} games/s, {ratio:.2f} of the "
        f"prototype's games/s, {ns_ratio:.2f}x its ns/turn (median of {args.repeat} "
        "alternated pairs)"
    )
    print(f"official, 4 players, random, 1 thread :      {base1:12,.0f} games/s {ns1:6.1f} ns/turn")
    for th in range(2, cores + 1):
        one, *_ = measure("official", 4, "random", args.games, 1, args.repeat)
        g, ns, *_ = measure("official", 4, "random", args.games, th, args.repeat)
        print(
            f"official, 4 players, random, {th} threads:      {g:12,.0f} games/s "
            f"{ns:6.1f} ns/turn  ({g / one:.2f}x 1 thread, measured again just before: "
            f"{one:,.0f})"
        )
    print(
        "\nstrategy (official, 4 players all playing it, 1 thread)   games/s  ns/turn  vs random*"
    )
    for name in strategy_names[1:]:
        g, ns, ratio, *_ = measure(
            "official", 4, name, args.games, 1, args.repeat, against=("official", "random")
        )
        print(f"  {name:22s} {g:12,.0f} {ns:8.1f}   {ratio:6.2f}")
    print()
    for what, label, games in (
        ("expert (default budget)", "expert", max(200, args.games // 1000)),
        (
            f"expert at the strength budget ({STRONG.partition(':')[2]})",
            STRONG,
            max(100, args.games // 3000),
        ),
        (
            f"expert at the strength, fitted value ({STRONG_FIT.partition(':')[2]})",
            STRONG_FIT,
            max(300, args.games // 1000),
        ),
        (
            "expert at the strength, a tenth of the cost (STRONG_FAST: as above, "
            "pile=lazy;reuse=4)",
            STRONG_FAST,
            max(300, args.games // 1000),
        ),
    ):
        g, ns, turns = measure_expert(games, cores, args.repeat, label)
        print(
            f"{what} + 3 random, official, {cores} threads: {g:8,.0f} games/s; "
            f"{ns:.1f} ns per rollout turn (1 thread), {turns:,.0f} rollout turns per game"
        )
    print()
    for th in sorted({1, cores}):  # the goal: matches at >= 70% of the rounds' speed
        m, r, nr = measure_matches(args.games // 10, th, args.repeat)
        print(
            f"matches vs rounds, {th} thread{'s' if th > 1 else ' '}   : {m:12,.0f} rounds/s "
            f"in {args.games // 10:,} matches vs {r:,.0f} rounds/s alone ({nr:,} rounds): "
            f"{m / r:.2f}"
        )
    names = list(PRESETS) if args.presets == "all" else args.presets.split(",")
    print("\npreset (4 players, random, 1 thread; * = ratio to official*)")
    print(
        f"  {'':22s} {'games/s':>12s} {'ns/turn':>8s} {'turns/game':>11s} "
        f"{'games/s*':>9s} {'ns/turn*':>9s}  kernel"
    )
    for name in names:
        g, ns, ratio, turns, ns_ratio = measure(
            name, 4, "random", args.games, 1, args.repeat, against=("official", "random")
        )
        print(
            f"  {name:22s} {g:12,.0f} {ns:8.1f} {turns:11.2f} {ratio:9.2f} {ns_ratio:9.2f}  "
            f"{kernel_of(name)}"
        )
    print(
        f"\n* median over {args.repeat} pairs of runs, each paired with a run of official "
        "4-player random\n  on the same games made just before or after it. A preset "
        "whose rounds take more\n  turns runs fewer games/s at the same cost per turn "
        "(ns/turn ratio 1.00).\n  kernel: official's = official's rule array compiled "
        "as constants (stacking, Seven-Zero,\n  the challenge, the UNO penalty, the next "
        "dealer and the draw rule read from the table);\n  general = the general kernel."
    )


if __name__ == "__main__":
    main()
