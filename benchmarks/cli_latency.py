"""How long a person waits for ``unosim --help`` and for a one-line input error.

    python benchmarks/cli_latency.py [RUNS]

Each command is started RUNS times (default 5) as its own process, as a person would
type it (``python -m unosim.cli.app``, so the installed script's path does not matter),
in a temporary folder; printed: the median wall time of each, every run's time, and
the median CPU time (user + system) of the process, which a loaded machine inflates
less than the wall time (compare both with ``uptime``'s load).
``unosim simulate --rules stackng.toml`` names a file that does not exist, so it ends in
the one-line error ``rule file 'stackng.toml' not found (did you mean preset
'stacking'?)``. The target (docs/cli.md): within 1.0 s on a warm, idle machine.
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import tempfile
import time

COMMANDS = {
    "unosim --help": ["--help"],
    "unosim simulate --rules stackng.toml": ["simulate", "--rules", "stackng.toml"],
}


def time_command(args: list[str], cwd: str) -> tuple[float, float, subprocess.CompletedProcess]:
    """Wall and CPU seconds of one ``unosim ARGS`` process, and what it returned."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "unosim.cli.app", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done


def medians(runs: int = 5) -> dict[str, tuple[float, list[float], float]]:
    """Command -> (median wall seconds, every run's wall seconds, median CPU seconds),
    after one unmeasured start of each (the warm machine: Python's and the package's
    bytecode in the page cache)."""
    out = {}
    with tempfile.TemporaryDirectory() as cwd:
        for label, args in COMMANDS.items():
            time_command(args, cwd)
            runs_ = [time_command(args, cwd) for _ in range(runs)]
            walls = [w for w, _, _ in runs_]
            cpu = statistics.median(c for _, c, _ in runs_)
            out[label] = (statistics.median(walls), walls, cpu)
    return out


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    for label, (median, times, cpu) in medians(runs).items():
        shown = ", ".join(f"{t:.2f}" for t in times)
        print(f"{label:40s} median {median:.2f} s of {runs} ({shown}); CPU {cpu:.2f} s")


if __name__ == "__main__":
    main()
