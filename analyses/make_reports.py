"""`make reports`: bring every page up to date, one `make` target at a time, with an
overall progress line and a closing line.

    python analyses/make_reports.py [--make make] [--scale 1]

Each page is its own make target (``reports/NAME.md``), so a page whose inputs did not
change is not rebuilt. Pages are built in two lanes side by side (``--lanes``): one page
alone keeps 2 cores only about 1.3-1.7 busy (its figures, files and tables are written
on one), so the pages are split into lanes of about equal estimated time (the skill
page, the longest, with the shortest ones). A run that two
pages share is simulated once (``common._key_lock``), and no page depends on which lane
built it. As each page is done this prints how many are, the time so far and the time
left, estimated from the last build of each page at this scale (kept in
``results/reports/times.json``), or from typical times on 2 cores when there is none.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import common  # noqa: E402

from unosim.sim.results import atomic_path, publish  # noqa: E402

# seconds per page at SCALE 1 on 2 idle cores, built two at a time (a first build's estimate)
TYPICAL = {
    "seats": 16,
    "length": 122,
    "points": 14,
    "stacking": 8,
    "house-rules": 71,
    "editions": 11,
    "skill": 212,
}
TIMES = ROOT / "results" / "reports" / "times.json"
SCALE_STAMP = Path("results") / "reports" / ".scale"  # the Makefile's SCALE_STAMP


def load_times(scale: str) -> dict[str, float]:
    """Seconds each page took at its last build at ``scale`` (typical ones where none)."""
    out = {k: v * float(scale) for k, v in TYPICAL.items()}
    try:
        saved = json.loads(TIMES.read_text())
        out.update({k: float(v) for k, v in saved.get(scale, {}).items() if k in out})
    except (OSError, ValueError, AttributeError, TypeError):
        pass
    return out


def save_time(scale: str, page: str, seconds: float) -> None:
    try:
        saved = json.loads(TIMES.read_text())
        if not isinstance(saved, dict):
            saved = {}
    except (OSError, ValueError):
        saved = {}
    saved.setdefault(scale, {})[page] = round(seconds, 1)
    tmp = atomic_path(TIMES)
    tmp.write_text(json.dumps(saved, indent=1))
    publish(tmp, TIMES)


def minutes(s: float) -> str:
    return f"{s:.0f} s" if s < 90 else f"{s / 60:.1f} min"


def lanes(pages: list[str], est: dict[str, float], n: int) -> list[list[str]]:
    """``pages`` split into ``n`` lanes run side by side: the longest pages first, each
    to the lane with the least time so far (estimates ``est``). A lane runs its longest
    page first (started last, it would end the build alone), then the others in the
    pages' own order (a later page finds the runs it shares with an earlier one cached)."""
    load = [0.0] * n
    into: dict[str, int] = {}
    for p in sorted(pages, key=lambda p: -est[p]):
        k = load.index(min(load))
        into[p] = k
        load[k] += est[p]
    out = []
    for k in range(n):
        lane = [p for p in pages if into[p] == k]
        if lane:
            top = max(lane, key=lambda p: est[p])
            out.append([top] + [p for p in lane if p != top])
    return out


class Builds:
    """The lanes' ``make`` processes, each in its own process group (so that a failure
    or Ctrl-C stops every page being built, with what make started)."""

    def __init__(self, make: str, scale: str) -> None:
        self.make, self.scale = make, scale
        self.lock = threading.Lock()
        self.procs: set[subprocess.Popen] = set()
        self.failed: str | None = None

    def build(self, page: str) -> bool:
        """Run ``make reports/PAGE.md``, its output passed through; True if it rewrote
        the page, False if it was up to date; raises RuntimeError if make fails or the
        build was stopped."""
        md = ROOT / "reports" / f"{page}.md"
        before = md.stat().st_mtime_ns if md.exists() else None
        cmd = [self.make, "--no-print-directory", f"SCALE={self.scale}", f"reports/{page}.md"]
        with self.lock:
            if self.failed:
                raise RuntimeError(self.failed)
            proc = subprocess.Popen(cmd, cwd=ROOT, start_new_session=True)
            self.procs.add(proc)
        status = proc.wait()
        with self.lock:
            self.procs.discard(proc)
            if self.failed:
                raise RuntimeError(self.failed)
            if status != 0:
                self._stop_locked(f"reports: reports/{page}.md failed (make exit {status})")
                raise RuntimeError(self.failed)
        return md.exists() and md.stat().st_mtime_ns != before

    def stop(self, why: str) -> None:
        """Stop every running build (SIGTERM to its process group)."""
        with self.lock:
            self._stop_locked(why)

    def _stop_locked(self, why: str) -> None:
        """:meth:`stop` with ``self.lock`` held: a failing page stops the others at once."""
        self.failed = self.failed or why
        for proc in self.procs:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--make", default="make")
    ap.add_argument("--scale", default="1", help="SCALE, passed to make as given")
    ap.add_argument(
        "--lanes",
        type=int,
        default=min(2, os.cpu_count() or 1),
        help="pages built side by side (default: 2, or 1 on one core)",
    )
    a = ap.parse_args()
    if a.lanes < 1:
        ap.error("--lanes must be at least 1")
    pages = list(common.ANALYSES)
    est = load_times(a.scale)
    builds = Builds(a.make, a.scale)
    # the scale stamp once, before the lanes' makes read it
    subprocess.call(
        [a.make, "--no-print-directory", f"SCALE={a.scale}", str(SCALE_STAMP)], cwd=ROOT
    )
    t0 = time.monotonic()
    state = {"done": [], "rebuilt": [], "running": {}}
    out_lock = threading.Lock()

    def left() -> float:
        """Seconds left: the longest lane's rest (its running page's estimate less the
        time it has run, then its pages not started)."""
        now = time.monotonic()
        rest = []
        for lane in plan:
            todo = [p for p in lane if p not in state["done"]]
            s = 0.0
            for p in todo:
                started = state["running"].get(p)
                s += max(0.0, est[p] - (now - started)) if started is not None else est[p]
            rest.append(s)
        return max(rest, default=0.0)

    def run_lane(lane: list[str]) -> None:
        for page in lane:
            t = time.monotonic()
            with out_lock:
                state["running"][page] = t
            try:
                rewrote = builds.build(page)
            except RuntimeError:
                return
            took = time.monotonic() - t
            with out_lock:
                del state["running"][page]
                state["done"].append(page)
                if rewrote:
                    state["rebuilt"].append(page)
                    save_time(a.scale, page, took)
                rest = left()
                print(
                    f"reports: {len(state['done'])} of {len(pages)} pages up to date ({page}), "
                    f"{minutes(time.monotonic() - t0)} so far"
                    + (f", at most about {minutes(rest)} left" if rest else ""),
                    flush=True,
                )

    plan = lanes(pages, est, a.lanes)
    if len(plan) > 1:
        print(
            "reports: building " + " and ".join(", ".join(x) for x in plan) + " side by side",
            flush=True,
        )
    threads = [threading.Thread(target=run_lane, args=(x,), daemon=True) for x in plan]
    try:
        for th in threads:
            th.start()
        for th in threads:
            while th.is_alive():
                th.join(0.5)
    except KeyboardInterrupt:
        builds.stop("reports: stopped")
        for th in threads:
            th.join()
        raise SystemExit("reports: stopped; the pages built so far are in reports/") from None
    if builds.failed:
        builds.stop(builds.failed)
        for th in threads:
            th.join()
        raise SystemExit(builds.failed)
    from unosim.report.page import write_index

    out = ROOT / "reports"
    write_index(out, common.ANALYSES, common.INDEX_INTRO)
    rebuilt = state["rebuilt"]
    print(
        f"reports: {len(pages)} pages in {out.relative_to(ROOT)}/ "
        f"({len(rebuilt) or 'none'} rebuilt, the rest up to date); open "
        f"{(out / 'index.html').relative_to(ROOT)} or {(out / 'index.md').relative_to(ROOT)}; "
        f"took {minutes(time.monotonic() - t0)}",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
