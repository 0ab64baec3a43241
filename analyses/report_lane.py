"""One lane of `make reports`: in one process, compile the kernels it is asked to, then
build the pages named, in turn.

    python analyses/report_lane.py --scale 1 [--warm rounds,expert,matches] [--share]
                                   [--out reports] [--results results/reports] PAGE ...

Each page is built as ``python analyses/PAGE.py --scale S`` builds it
(``build_reports.build_all``), here one after the other in one process, so that the
imports and the kernels loaded from numba's cache are paid once a lane, not once a page.
With ``--share`` (lanes side by side, one a core) the pages' runs take one numba thread
until the signal SIGUSR1 says this is the last lane left, then every core: two lanes of
one thread each spend less CPU than two of two on 2 cores. For ``make_reports.py`` a
line goes to standard output when the lane is ready for that signal and as each step
ends (``@lane ready``, ``@lane warm SECONDS``, ``@lane page NAME SECONDS``); the pages'
own progress goes to standard error.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

MARKER = HERE.parent / "results" / "reports" / ".kernels.json"


def _compiled() -> set[str]:
    """The kernels a lane recorded as compiled for today's kernel code and cache folder."""
    from unosim.kernel import CACHE_ROOT, kernel_code

    try:
        return set(json.loads(MARKER.read_text())[kernel_code()][str(CACHE_ROOT)])
    except (OSError, ValueError, KeyError, TypeError):
        return set()


def kernels_ready(names: list[str]) -> bool:
    """Whether the kernels ``names`` were compiled into numba's cache for today's kernel
    code (a lane's ``--warm`` records it): then warming them only loads them."""
    return set(names) <= _compiled()


def _mark_ready(names: list[str]) -> None:
    """Record that the kernels ``names`` are compiled (under a lock: the lanes record
    theirs side by side)."""
    import common

    from unosim.kernel import CACHE_ROOT, kernel_code
    from unosim.sim.results import atomic_path, publish

    with common._key_lock(MARKER):
        done = sorted(_compiled() | set(names))
        tmp = atomic_path(MARKER)
        tmp.write_text(json.dumps({kernel_code(): {str(CACHE_ROOT): done}}))
        publish(tmp, MARKER)


def share_cores() -> None:
    """One numba thread for the pages' runs (``common.SHARED``) until the signal SIGUSR1,
    then every core."""
    import common

    common.SHARED.threads = 1

    def alone(signum, frame):
        common.SHARED.threads = None

    signal.signal(signal.SIGUSR1, alone)


def tell(*words: object) -> None:
    print("@lane", *words, flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--warm", default="", help="kernels to compile first, comma-separated")
    ap.add_argument("--share", action="store_true", help="one thread until SIGUSR1")
    ap.add_argument("--out", type=Path, default=None, help="reports folder (reports/)")
    ap.add_argument(
        "--results", type=Path, default=None, help="cache of simulations (results/reports/)"
    )
    ap.add_argument("pages", nargs="*")
    a = ap.parse_args()
    if not a.scale > 0:
        ap.error("--scale must be positive")
    import common
    from build_reports import build_all

    unknown = [n for n in a.pages if n not in common.ANALYSES]
    if unknown:
        raise SystemExit(f"report_lane: no page named {unknown[0]!r}")
    if a.share:
        share_cores()
    tell("ready")

    warm = [n for n in a.warm.split(",") if n]
    if warm:
        from unosim.sim.simulate import warm_kernels

        t = time.perf_counter()
        warm_kernels(warm)
        _mark_ready(warm)
        tell("warm", f"{time.perf_counter() - t:.1f}")
    for name in a.pages:
        t = time.perf_counter()
        build_all([name], a.scale, a.out, a.results)
        tell("page", name, f"{time.perf_counter() - t:.1f}")
    return 0


if __name__ == "__main__":
    try:
        status = main()
    finally:  # a late SIGUSR1 (the other lane just ended) must not end this one
        signal.signal(signal.SIGUSR1, signal.SIG_IGN)
    sys.stdout.flush()
    sys.stderr.flush()
    # every page is written and published by now: skip the interpreter's clean-up of a
    # process that held numba's kernels and the pages' frames (seconds, on the build's
    # last lane)
    os._exit(status)
