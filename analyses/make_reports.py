"""`make reports`: bring every page up to date, with a progress line and a closing line.

    python analyses/make_reports.py [--make make] [--scale 1] [--jobs N]

Each page is its own make target (``reports/NAME.md``, rebuilt when its script, the code
behind it or SCALE changes); ``make -q`` says which are out of date, and only those are
built. The kernels the pages run are compiled into numba's cache first (``COMPILES``:
``unosim.sim.simulate.warm``, loading them when they are compiled already), so that no
two pages compile the same kernel: the kernels every page runs in one step, the
expert's in another, side by side. Each page starts as soon as the kernels it runs are
ready (``EXPERT_PAGES`` wait for the expert's too), ``--jobs`` steps at a time (default:
one a core), each by ``make reports/NAME.md`` in its own process with one numba thread
(``NUMBA_NUM_THREADS=1``): several single-threaded pages keep the cores busier than one
page on every core, whose figures and tables are written on one. The longest pages
start first (``ORDER``), so that a short one ends the build. A run two pages share is
simulated once (``common._key_lock``), and no page depends on which page ran it first
or on the number of threads. As each step is done this prints how many pages are and
the time so far; a step that fails stops the others and fails the build with its error.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import common  # noqa: E402

from unosim.sim.simulate import REPORT_KERNELS, WARM_PARTS  # noqa: E402

# the pages in the order they start: the longest first (the skill page plays the expert,
# the length page every rule set at every player count, the house-rules page many rule
# sets), so that the build ends on short ones; any page not named here starts last
ORDER = ("skill", "length", "house-rules", "seats", "points", "editions", "stacking")
SCALE_STAMP = Path("results") / "reports" / ".scale"  # the Makefile's SCALE_STAMP
# the compile steps before the pages: ``warm()``'s two halves (``WARM_PARTS``) of the
# kernels the pages run, each ``warm`` in a process of its own (numba compiles on one
# core): the kernels every page runs (official-like rule sets' rounds, the general round
# kernel, matches and a round's trace), and the expert's; the two type turn loops of
# their own, so neither waits for the other
COMPILES = {
    name: tuple(k for k in part if k in REPORT_KERNELS)
    for name, part in zip(("kernels", "expert's kernel"), WARM_PARTS)
}
EXPERT_PAGES = ("skill",)  # the pages that also run the expert's kernel


def minutes(s: float) -> str:
    return f"{s:.0f} s" if s < 90 else f"{s / 60:.1f} min"


def start_order(pages: Sequence[str]) -> list[str]:
    """``pages`` in the order they start: as in ``ORDER``, then the others in theirs."""
    rank = {p: k for k, p in enumerate(ORDER)}
    return sorted(pages, key=lambda p: rank.get(p, len(ORDER)))


def needs_of(step: str) -> tuple[str, ...]:
    """The compile steps (``COMPILES``) a page waits for; a compile step waits for none."""
    if step in COMPILES:
        return ()
    return ("kernels", "expert's kernel") if step in EXPERT_PAGES else ("kernels",)


def warm_command(kernels: Sequence[str]) -> list[str]:
    """The command line that compiles ``kernels`` (``simulate.KERNEL_NAMES``) into
    numba's cache, or loads them."""
    code = f"from unosim.sim.simulate import warm; warm(kernels={tuple(kernels)!r})"
    return [sys.executable, "-c", code]


def build_env(environ: Mapping[str, str]) -> dict[str, str]:
    """The environment of the compile steps and the pages: ``environ`` with official-like
    rule sets played in the general kernel (``UNOSIM_FAMILIES`` empty) unless it names
    families itself. The same games; the pages play too few of them for a kernel of
    their own to earn its compile (docs/reports.md)."""
    return {"UNOSIM_FAMILIES": "", **environ}


def out_of_date(make: str, scale: str, pages: Sequence[str]) -> list[str]:
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


class BuildFailed(Exception):
    """A step of the build failed (or the build was stopped); the message says which."""


class Pages:
    """Run build steps ``jobs`` at a time, each by ``command(step)`` in its own process
    group (so that a failure or Ctrl-C stops a page's make and its Python both); a step
    starts once the steps it needs have ended well.

    Parameters
    ----------
    command : the command line of one step (a page, or a compile step).
    jobs : steps run at once (at least 1).
    env : the environment of the steps' processes.
    needs : ``needs(step)``, the steps that must end first (those not run are not waited
        for); default, none.
    what : ``what(step)``, how a failure names the step; default, the page's file.
    """

    def __init__(
        self,
        command: Callable[[str], list[str]],
        jobs: int,
        env: dict | None = None,
        needs: Callable[[str], Sequence[str]] = lambda step: (),
        what: Callable[[str], str] = lambda page: f"building reports/{page}.md",
    ) -> None:
        self.command, self.jobs, self.env = command, max(1, jobs), env
        self.needs, self.what = needs, what
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)  # a step ended, or the build failed
        self.procs: set[subprocess.Popen] = set()
        self.failed: str | None = None

    def run(self, steps: Sequence[str], on_done: Callable[[str], None]) -> None:
        """Run ``steps`` (each started in that order once its needs have ended);
        ``on_done(step)`` as each ends well, one call at a time. Raises BuildFailed,
        having stopped the others, when one fails."""
        queue = list(steps)
        waits = {s: [d for d in self.needs(s) if d in queue] for s in queue}
        ended: set[str] = set()

        def next_ready() -> str | None:
            return next((s for s in queue if all(d in ended for d in waits[s])), None)

        def worker() -> None:
            while True:
                with self.changed:
                    while not self.failed and queue and next_ready() is None:
                        self.changed.wait()
                    if self.failed or not queue:
                        return
                    step = next_ready()
                    queue.remove(step)
                    proc = subprocess.Popen(
                        self.command(step), cwd=ROOT, env=self.env, start_new_session=True
                    )
                    self.procs.add(proc)
                status = proc.wait()
                with self.changed:
                    self.procs.discard(proc)
                    if status != 0 and not self.failed:
                        self._stop_locked(f"reports: {self.what(step)} failed (exit {status})")
                    if self.failed:
                        return
                    ended.add(step)
                    on_done(step)  # under the lock: one progress line at a time
                    self.changed.notify_all()

        threads = [threading.Thread(target=worker, daemon=True) for _ in range(self.jobs)]
        for th in threads:
            th.start()
        try:
            for th in threads:
                while th.is_alive():
                    th.join(0.2)
        except KeyboardInterrupt:
            self.stop("reports: stopped")
            for th in threads:
                th.join()
            raise
        if self.failed:
            raise BuildFailed(self.failed)

    def stop(self, why: str) -> None:
        """Stop every step being run (SIGTERM to its process group)."""
        with self.lock:
            self._stop_locked(why)

    def _stop_locked(self, why: str) -> None:
        self.failed = self.failed or why
        for proc in self.procs:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        self.changed.notify_all()


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--make", default="make")
    ap.add_argument("--scale", default="1", help="SCALE, passed to make as given")
    ap.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="steps (compiles, pages) at once (one a core)",
    )
    a = ap.parse_args()
    if a.jobs < 1:
        ap.error("--jobs must be at least 1")
    try:
        if not float(a.scale) > 0:
            ap.error(f"SCALE must be positive, got {a.scale!r}")
    except ValueError:
        ap.error(f"SCALE must be a number, got {a.scale!r}")
    t0 = time.monotonic()
    env = build_env(os.environ)
    # the scale stamp once, before make is asked which pages are out of date
    subprocess.call(
        [a.make, "--no-print-directory", f"SCALE={a.scale}", str(SCALE_STAMP)], cwd=ROOT
    )
    todo = start_order(out_of_date(a.make, a.scale, common.ANALYSES))
    compiles = [c for c in COMPILES if any(c in needs_of(page) for page in todo)]
    steps = compiles + todo
    jobs = min(a.jobs, len(steps)) or 1
    try:
        if todo:
            print(f"reports: building {', '.join(todo)}, {jobs} steps at once")
            print(
                "reports: compiling the kernels into numba's cache (or loading them); "
                "each page starts once those it runs are ready",
                flush=True,
            )
        done: list[str] = []

        def on_done(step: str) -> None:
            so_far = minutes(time.monotonic() - t0)
            if step in COMPILES:
                print(f"reports: {step} ready ({', '.join(COMPILES[step])}), {so_far} so far")
            else:
                done.append(step)
                print(f"reports: {len(done)} of {len(todo)} pages built ({step}), {so_far} so far")
            sys.stdout.flush()

        def command(step: str) -> list[str]:
            if step in COMPILES:
                return warm_command(COMPILES[step])
            return [
                a.make,
                "-s",
                "--no-print-directory",
                "-o",
                "FORCE",
                f"SCALE={a.scale}",
                f"reports/{step}.md",
            ]

        def what(step: str) -> str:
            return f"compiling the {step}" if step in COMPILES else f"building reports/{step}.md"

        env = dict(env, NUMBA_NUM_THREADS="1")
        Pages(command, jobs, env, needs_of, what).run(steps, on_done)
    except BuildFailed as e:
        raise SystemExit(str(e)) from None
    except KeyboardInterrupt:
        print("reports: stopped; the pages built so far are in reports/", file=sys.stderr)
        return 130
    from unosim.report.page import write_index

    out = ROOT / "reports"
    write_index(out, common.ANALYSES, common.INDEX_INTRO)
    print(
        f"reports: {len(common.ANALYSES)} pages in {out.relative_to(ROOT)}/ "
        f"({len(todo) or 'none'} rebuilt, the rest up to date); open "
        f"{(out / 'index.html').relative_to(ROOT)} or {(out / 'index.md').relative_to(ROOT)}; "
        f"took {minutes(time.monotonic() - t0)}",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
