"""`make reports`: bring every page up to date, with an overall progress line and a
closing line.

    python analyses/make_reports.py [--make make] [--scale 1] [--lanes 2]

Each page is its own make target (``reports/NAME.md``); ``make -q`` says which are out
of date, and only those are built. They are built in lanes side by side (``--lanes``,
2 on 2 cores): one page alone keeps 2 cores only about 1.3-1.7 busy (its figures, files
and tables are written on one). A lane is one process (``report_lane.py``) that builds
its pages in turn, so the imports and the kernels loaded from numba's cache are paid
once a lane. On a fresh install the lanes first compile the kernels side by side, each
its share (the skill page's lane the general round kernel, the expert's and matches;
the other official's own kernel), and the pages follow at once, with no wait for a
whole compile. The pages are split so that the lanes take about the same estimated
time. A run that two pages share is simulated once (``common._key_lock``), and no page
depends on which lane built it. As each page is done this prints how many are, the time
so far and the time left, estimated from the last build of each page at this scale
(kept in ``results/reports/times.json``), or from typical times on 2 cores when there
is none.
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
import report_lane  # noqa: E402

from unosim.sim.results import atomic_path, publish  # noqa: E402

# seconds per page at SCALE 1 on 2 idle cores, in lanes side by side (a first build's
# estimate; measured in a fresh clone's build)
TYPICAL = {
    "seats": 19,
    "length": 132,
    "points": 18,
    "stacking": 9,
    "house-rules": 68,
    "editions": 13,
    "skill": 184,
}
# seconds to compile each kernel into an empty cache in a lane (``simulate.warm_kernels``;
# the expert's after the general round kernel's), and to load one already compiled
COMPILE = {"official": 27, "rounds": 27, "expert": 32, "matches": 11}
LOAD = 0.5
# the kernels a lane compiles first: the skill page's lane (or the first) and the other
WARM_FIRST = ("rounds", "expert", "matches")
WARM_OTHER = ("official",)
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


def lanes(
    pages: list[str],
    est: dict[str, float],
    n: int,
    pre: list[float] | None = None,
    empty: bool = False,
) -> list[list[str]]:
    """``pages`` split into at most ``n`` lanes run side by side (``n`` exactly, some
    perhaps empty, with ``empty``): the longest pages first, each to the lane with the
    least time so far (estimates ``est``; lane ``k`` starts with ``pre[k]`` seconds of its
    own, its kernels' compile), the skill page on the first lane (which compiles the
    expert). A lane runs its longest page first (started last, it would end the build
    alone), then the others in the pages' own order (a later page finds the runs it
    shares with an earlier one cached)."""
    load = [float(x) for x in (pre or [])][:n]
    load += [0.0] * (n - len(load))
    into: dict[str, int] = {}
    for p in sorted(pages, key=lambda p: (p != "skill", -est[p])):
        k = 0 if p == "skill" else load.index(min(load))
        into[p] = k
        load[k] += est[p]
    out = []
    for k in range(n):
        lane = [p for p in pages if into[p] == k]
        if lane:
            top = max(lane, key=lambda p: est[p])
            out.append([top] + [p for p in lane if p != top])
        elif empty:
            out.append([])
    return out


def out_of_date(make: str, scale: str, pages: list[str]) -> list[str]:
    """The ``pages`` whose make target ``reports/NAME.md`` is out of date (``make -q``;
    ``-o FORCE``: the scale stamp, brought up to date before, counts by its time)."""
    stale = []
    for page in pages:
        cmd = [make, "-q", "-o", "FORCE", f"SCALE={scale}", f"reports/{page}.md"]
        status = subprocess.call(cmd, cwd=ROOT, stdout=subprocess.DEVNULL)
        if status == 1:
            stale.append(page)
        elif status != 0:
            raise SystemExit(f"reports: make cannot tell whether reports/{page}.md is up to date")
    return stale


def compile_time(names: tuple[str, ...]) -> float:
    """Estimated seconds to compile the kernels ``names`` (or load them: compiled before)."""
    if not names:
        return 0.0
    if report_lane.kernels_ready(list(names)):
        return LOAD * len(names)
    return float(sum(COMPILE[n] for n in names))


class Lanes:
    """The lanes' processes (``report_lane.py``), each in its own process group, so that
    a failure or Ctrl-C stops every page being built."""

    def __init__(
        self, scale: str, share: bool, command: list[str] | None = None, total: int = 2
    ) -> None:
        self.scale, self.share, self.total = scale, share, total
        self.command = command or [sys.executable, str(HERE / "report_lane.py")]
        self.lock = threading.Lock()
        self.procs: set[subprocess.Popen] = set()
        self.ready: set[subprocess.Popen] = set()
        self.ended = 0  # lanes that ended well
        self.failed: str | None = None

    def run(self, warm: tuple[str, ...], pages: list[str], on_step) -> None:
        """Run one lane: compile ``warm``, then build ``pages``; ``on_step(kind, name,
        seconds)`` as each step ends. Raises RuntimeError if the lane fails or the build
        was stopped."""
        cmd = [*self.command, "--scale", self.scale]
        cmd += ["--warm", ",".join(warm), *(["--share"] if self.share else []), *pages]
        with self.lock:
            if self.failed:
                raise RuntimeError(self.failed)
            proc = subprocess.Popen(
                cmd, cwd=ROOT, stdout=subprocess.PIPE, text=True, start_new_session=True
            )
            self.procs.add(proc)
        assert proc.stdout is not None
        for line in proc.stdout:
            words = line.split()
            if words == ["@lane", "ready"]:
                with self.lock:
                    self.ready.add(proc)
                    if self.share and self.ended == self.total - 1:  # the others are done
                        proc.send_signal(signal.SIGUSR1)
            elif words[:1] == ["@lane"] and len(words) >= 3:
                on_step(words[1], words[2] if len(words) > 3 else "", float(words[-1]))
            else:
                print(line, end="", flush=True)
        status = proc.wait()
        with self.lock:
            self.procs.discard(proc)
            self.ready.discard(proc)
            self.ended += status == 0
            if self.share and self.ended == self.total - 1:
                for other in self.ready:  # the last lane left: every core to it
                    other.send_signal(signal.SIGUSR1)
            if self.failed:
                raise RuntimeError(self.failed)
            if status != 0:
                what = " and ".join(f"reports/{p}.md" for p in pages) if pages else "kernels"
                self._stop_locked(f"reports: building {what} failed (exit {status})")
                raise RuntimeError(self.failed)

    def stop(self, why: str) -> None:
        """Stop every running lane (SIGTERM to its process group)."""
        with self.lock:
            self._stop_locked(why)

    def _stop_locked(self, why: str) -> None:
        """:meth:`stop` with ``self.lock`` held: a failing lane stops the others at once."""
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
    try:
        if not float(a.scale) > 0:
            ap.error(f"SCALE must be positive, got {a.scale!r}")
    except ValueError:
        ap.error(f"SCALE must be a number, got {a.scale!r}")
    pages = list(common.ANALYSES)
    est = load_times(a.scale)
    t0 = time.monotonic()
    # the scale stamp once, before make is asked which pages are out of date
    subprocess.call(
        [a.make, "--no-print-directory", f"SCALE={a.scale}", str(SCALE_STAMP)], cwd=ROOT
    )
    todo = out_of_date(a.make, a.scale, pages)
    n = min(a.lanes, len(todo))
    warms: list[tuple[str, ...]] = [()] * n
    if n > 1:
        warms[:2] = [WARM_FIRST if "skill" in todo else ("rounds",), WARM_OTHER]
    pre = [compile_time(w) for w in warms]
    # a lane left without pages compiles nothing either
    steps = [x for x in zip(lanes(todo, est, n, pre, empty=True), warms, pre) if x[0]]
    plan = [x[0] for x in steps]
    warms = [x[1] for x in steps]
    pre = [x[2] for x in steps]
    # pages done; a running page's start; a lane's start (its compile, pre[k] until done)
    state: dict = {"done": [], "running": {}, "started": {}}
    out_lock = threading.Lock()

    def left() -> float:
        """Seconds left: the longest lane's rest (its running step's estimate less the
        time it has run, then its steps not started)."""
        now = time.monotonic()
        rest = []
        for k, lane in enumerate(plan):
            s = max(0.0, pre[k] - (now - state["started"].get(k, now)))
            for p in lane:
                if p in state["done"]:
                    continue
                started = state["running"].get(p)
                s += max(0.0, est[p] - (now - started)) if started is not None else est[p]
            rest.append(s)
        return max(rest, default=0.0)

    def run_lane(k: int) -> None:
        lane = plan[k]
        with out_lock:
            state["started"][k] = time.monotonic()
            if not warms[k]:
                state["running"][lane[0]] = state["started"][k]

        def on_step(kind: str, name: str, took: float) -> None:
            with out_lock:
                now = time.monotonic()
                if kind == "warm":
                    pre[k] = 0.0
                    print(
                        f"reports: compiled {', '.join(warms[k])} in {minutes(took)}",
                        flush=True,
                    )
                else:
                    state["running"].pop(name, None)
                    state["done"].append(name)
                    save_time(a.scale, name, took)
                    rest = left()
                    print(
                        f"reports: {len(state['done'])} of {len(todo)} pages built ({name}), "
                        f"{minutes(now - t0)} so far"
                        + (f", at most about {minutes(rest)} left" if rest else ""),
                        flush=True,
                    )
                nxt = [p for p in lane if p not in state["done"]]
                if nxt:
                    state["running"][nxt[0]] = now

        try:
            runner.run(warms[k], lane, on_step)
        except RuntimeError:
            return

    runner = Lanes(a.scale, share=len(plan) > 1, total=len(plan))
    if len(plan) > 1:
        print(
            "reports: building "
            + " and ".join(", ".join(x) for x in plan)
            + " side by side"
            + (", compiling the kernels first" if any(p > 10 for p in pre) else ""),
            flush=True,
        )
    elif plan:
        print(f"reports: building {', '.join(plan[0])}", flush=True)
    threads = [threading.Thread(target=run_lane, args=(k,), daemon=True) for k in range(len(plan))]
    try:
        for th in threads:
            th.start()
        for th in threads:
            while th.is_alive():
                th.join(0.5)
    except KeyboardInterrupt:
        runner.stop("reports: stopped")
        for th in threads:
            th.join()
        raise SystemExit("reports: stopped; the pages built so far are in reports/") from None
    if runner.failed:
        runner.stop(runner.failed)
        for th in threads:
            th.join()
        raise SystemExit(runner.failed)
    from unosim.report.page import write_index

    out = ROOT / "reports"
    write_index(out, common.ANALYSES, common.INDEX_INTRO)
    print(
        f"reports: {len(pages)} pages in {out.relative_to(ROOT)}/ "
        f"({len(todo) or 'none'} rebuilt, the rest up to date); open "
        f"{(out / 'index.html').relative_to(ROOT)} or {(out / 'index.md').relative_to(ROOT)}; "
        f"took {minutes(time.monotonic() - t0)}",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
