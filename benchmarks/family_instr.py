"""Instructions per round of ``engine.rounds``, counted exactly by callgrind: the count
this shared machine's load does not move (CPU times do, by several per cent).

    # the CPU features valgrind shows (no AVX-512), so that both runs use one cache entry
    export NUMBA_CPU_NAME=haswell NUMBA_NUM_THREADS=1 NUMBA_CPU_FEATURES="$(valgrind \
        --tool=none -q python -c 'import llvmlite.binding as b; b.initialize_native_target();
    print(b.get_host_cpu_features().flatten())')"
    # once, natively: compile (or load) the kernels
    python benchmarks/family_instr.py "official;pokemon" 64
    # then count (the dumps' names: CG_OUT, /tmp/cg by default, + .PID)
    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=/tmp/cg.%p \
        python benchmarks/family_instr.py "official;pokemon" 20000

For each rule set (``;``-separated; ``RULES:general``: in the general kernel), games
``0 .. GAMES - 1`` of 4 ``random`` players (seed 12345) in the kernel that
``engine.rounds`` chooses, after a first call of each that compiles or loads them.
Under valgrind, instrumentation is switched on around each rule set's call only (a tiny
C helper built with the compiler and valgrind's ``callgrind.h``), and the script prints
the instructions callgrind counted in it, per round and per turn. Count kernels loaded
from the cache: a count in the process that compiled them differs by up to 2%
(notes/turn-loop-cost.md, "More presets in official's kernel").
"""

from __future__ import annotations

import ctypes
import glob
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from unosim.kernel.core import layout as L
from unosim.sim import engine
from unosim.sim.simulate import make_job

HELPER = """#include <valgrind/callgrind.h>
int cg_on(void) { return RUNNING_ON_VALGRIND; }
void cg_start(void) { CALLGRIND_ZERO_STATS; CALLGRIND_START_INSTRUMENTATION; }
void cg_stop(const char *part) {
    CALLGRIND_STOP_INSTRUMENTATION; CALLGRIND_DUMP_STATS_AT(part);
}
"""


def helper(where: Path) -> ctypes.CDLL:
    src = where / "cg.c"
    src.write_text(HELPER)
    lib = where / "libcg.so"
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", str(lib), str(src)], check=True)
    return ctypes.CDLL(str(lib))


TRIGGER = "desc: Trigger: Client Request: "


def counted(out: str, pid: int) -> dict[str, int]:
    """The instructions of each part dumped by ``cg_stop``: its name -> callgrind's
    ``totals:``, from the dumps ``OUT.PID.*`` (``--callgrind-out-file=OUT.%p``)."""
    parts = {}
    for path in glob.glob(f"{out}.{pid}.*"):
        name = total = None
        for line in Path(path).read_text(errors="replace").splitlines():
            if line.startswith(TRIGGER):
                name = line[len(TRIGGER) :]
            elif line.startswith("totals:"):
                total = int(line.split()[1])
        if name is not None and total is not None:
            parts[name] = total
    return parts


def main() -> None:
    names, games = sys.argv[1].split(";"), int(sys.argv[2])
    out_file = os.environ.get("CG_OUT", "/tmp/cg")
    jobs = {}
    for name in names:  # "RULES" or "RULES:general"
        rules, _, kernel = name.partition(":")
        jobs[name] = (make_job(rules, games, 4, "random", 12345), kernel != "general")
    for job, family in jobs.values():  # compile or load, before anything is counted
        engine.rounds(job.kernel, job.seed, 0, 64, 1024, family=family)
    with tempfile.TemporaryDirectory() as tmp:
        cg = helper(Path(tmp))
        on = cg.cg_on() != 0
        turns = {}
        for name, (job, family) in jobs.items():
            if on:
                cg.cg_start()
            rec = engine.rounds(job.kernel, job.seed, 0, games, 1024, family=family)
            if on:
                cg.cg_stop(name.encode())
            turns[name] = int(rec[:, L.C_TURNS].astype(np.int64).sum())
    parts = counted(out_file, os.getpid()) if on else {}
    for name, (job, family) in jobs.items():
        kernel = (engine.family_name(job.kernel.rules) if family else None) or "general"
        line = f"{name:28s} kernel={kernel:10s} games={games} turns={turns[name]}"
        if name in parts:
            n = parts[name]
            line += f" instructions={n} per_round={n / games:.1f} per_turn={n / turns[name]:.2f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
