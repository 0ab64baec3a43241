"""`make reports`: bring every page up to date, with a progress line and a closing line.

    python analyses/make_reports.py [--make make] [--scale 1] [--jobs N]

Each page is its own make target (``reports/NAME.md``, rebuilt when its script, the code
behind it or SCALE changes); ``make -q`` says which are out of date, and only those are
built. First the kernels the pages run are compiled into numba's cache in one step
(``unosim.sim.simulate.warm`` of ``REPORT_KERNELS``; loading them when they are compiled
already), so that no two pages compile the same kernel. Then the pages are built
``--jobs`` at a time (default: one a core), each by ``make reports/NAME.md`` in its own
process with one numba thread (``NUMBA_NUM_THREADS=1``): several single-threaded pages
keep the cores busier than one page on every core, whose figures and tables are written
on one. The longest pages start first (``ORDER``), so that a short one ends the build. A
run two pages share is simulated once (``common._key_lock``), and no page depends on
which page ran it first or on the number of threads. As each page is done this prints
how many are and the time so far; a page that fails stops the others and fails the build
with its error.
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

# the pages in the order they start: the longest first (the skill page plays the expert,
# the length page every rule set at every player count, the house-rules page many rule
# sets), so that the build ends on short ones; any page not named here starts last
ORDER = ("skill", "length", "house-rules", "seats", "points", "editions", "stacking")
SCALE_STAMP = Path("results") / "reports" / ".scale"  # the Makefile's SCALE_STAMP
# the kernels the pages run, compiled before them (not those only the tests run)
WARM = [
    sys.executable,
    "-c",
    "from unosim.sim.simulate import REPORT_KERNELS, warm; warm(kernels=REPORT_KERNELS)",
]


def minutes(s: float) -> str:
    return f"{s:.0f} s" if s < 90 else f"{s / 60:.1f} min"


def start_order(pages: Sequence[str]) -> list[str]:
    """``pages`` in the order they start: as in ``ORDER``, then the others in theirs."""
    rank = {p: k for k, p in enumerate(ORDER)}
    return sorted(pages, key=lambda p: rank.get(p, len(ORDER)))


def build_env(environ: Mapping[str, str]) -> dict[str, str]:
    """The environment of the compile step and the pages: ``environ`` with official-like
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
    """A page's build failed (or the build was stopped); the message says which."""


class Pages:
    """Build pages ``jobs`` at a time, each by ``command(page)`` in its own process
    group (so that a failure or Ctrl-C stops a page's make and its Python both).

    Parameters
    ----------
    command : the command line that builds one page.
    jobs : pages built at once (at least 1).
    env : the environment of the pages' processes.
    """

    def __init__(
        self, command: Callable[[str], list[str]], jobs: int, env: dict | None = None
    ) -> None:
        self.command, self.jobs, self.env = command, max(1, jobs), env
        self.lock = threading.Lock()
        self.procs: set[subprocess.Popen] = set()
        self.failed: str | None = None

    def run(self, pages: Sequence[str], on_done: Callable[[str], None]) -> None:
        """Build ``pages`` (in that order of start); ``on_done(page)`` as each ends well,
        one call at a time. Raises BuildFailed, having stopped the others, when one fails."""
        queue = list(pages)

        def worker() -> None:
            while True:
                with self.lock:
                    if self.failed or not queue:
                        return
                    page = queue.pop(0)
                    proc = subprocess.Popen(
                        self.command(page), cwd=ROOT, env=self.env, start_new_session=True
                    )
                    self.procs.add(proc)
                status = proc.wait()
                with self.lock:
                    self.procs.discard(proc)
                    if status != 0 and not self.failed:
                        self._stop_locked(
                            f"reports: building reports/{page}.md failed (exit {status})"
                        )
                    if self.failed:
                        return
                    on_done(page)  # under the lock: one progress line at a time

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
        """Stop every page being built (SIGTERM to its process group)."""
        with self.lock:
            self._stop_locked(why)

    def _stop_locked(self, why: str) -> None:
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
        "--jobs", type=int, default=os.cpu_count() or 1, help="pages at once (one a core)"
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
    try:
        if todo:
            print(f"reports: building {', '.join(todo)}, {min(a.jobs, len(todo))} at once")
            print("reports: compiling the kernels into numba's cache (or loading them)", flush=True)
            if subprocess.call(WARM, cwd=ROOT, env=env) != 0:
                raise SystemExit("reports: compiling the kernels failed")
            print(f"reports: kernels ready, {minutes(time.monotonic() - t0)} so far", flush=True)
        done: list[str] = []

        def on_done(page: str) -> None:
            done.append(page)
            print(
                f"reports: {len(done)} of {len(todo)} pages built ({page}), "
                f"{minutes(time.monotonic() - t0)} so far",
                flush=True,
            )

        def command(page: str) -> list[str]:
            return [
                a.make,
                "-s",
                "--no-print-directory",
                "-o",
                "FORCE",
                f"SCALE={a.scale}",
                f"reports/{page}.md",
            ]

        Pages(command, min(a.jobs, len(todo)), dict(env, NUMBA_NUM_THREADS="1")).run(todo, on_done)
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
