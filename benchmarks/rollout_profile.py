"""Where an expert's time goes, by jitted function: run under ``perf record``.

    NUMBA_NUM_THREADS=1 perf record -F 4000 -o expert.data \
        python benchmarks/rollout_profile.py "expert" 200
    perf report -i expert.data -n --sort dso,sym

Plays ``GAMES`` games of 1 ``EXPERT`` (an expert string) against 3 random, official, on 1
thread (``engine.expert_tally``), after writing ``/tmp/perf-<pid>.map``, the map by
which ``perf report`` names the jitted functions (perf sees numba's code as anonymous
memory). The addresses come from the compiled object in numba's cache and the entry
point's address in this process.
Prints the CPU seconds, the tally and the ns per rollout turn (notes/expert.md).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

from unosim.sim.engine import expert_tally, expert_tally_dispatcher
from unosim.sim.simulate import make_job


def _object_code(data: object) -> bytes | None:
    """The object code in a cached compile result (numba's serialized library)."""
    if isinstance(data, tuple) and len(data) == 3 and data[1] == "object":
        return data[2][0]
    if isinstance(data, (tuple, list)):
        for x in data:
            found = _object_code(x)
            if found is not None:
                return found
    return None


def write_map() -> int:
    """Write ``/tmp/perf-<pid>.map`` for ``tally_rounds`` and every function compiled
    into it; returns how many functions it names."""
    disp = expert_tally_dispatcher()
    lines = []
    for sig, cres in disp.overloads.items():
        cache = disp._cache
        data = cache._cache_file.load(cache._index_key(sig, disp.targetctx.codegen()))
        obj = _object_code(data)
        if obj is None:
            raise SystemExit("no cached object code (is numba's cache off?)")
        with tempfile.NamedTemporaryFile(suffix=".o") as f:
            f.write(obj)
            f.flush()
            nm = subprocess.run(
                ["nm", "-S", "--defined-only", f.name], capture_output=True, text=True
            ).stdout
        syms = [line.split() for line in nm.splitlines()]
        syms = [s for s in syms if len(s) == 4 and s[2] in "tTwW"]
        entry = cres.fndesc.llvm_func_name
        offset = next(int(s[0], 16) for s in syms if s[3] == entry)
        base = cres.library.get_pointer_to_function(entry) - offset
        lines += [f"{base + int(s[0], 16):x} {int(s[1], 16):x} {s[3]}\n" for s in syms]
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
        f.writelines(lines)
    return len(lines)


def main() -> None:
    label, games = sys.argv[1], int(sys.argv[2])
    job = make_job("official", games, 4, f"{label},random,random,random", seed=12345)
    expert_tally(job.kernel, job.seed, 0, 1)  # load (or compile)
    print(f"{write_map()} functions mapped", flush=True)
    t = time.process_time()
    tally = expert_tally(job.kernel, job.seed, 0, games)
    cpu = time.process_time() - t
    print(
        f"{cpu:.2f} s CPU, tally {[int(x) for x in tally]}, "
        f"{cpu / tally[1] * 1e9:.1f} ns per rollout turn"
    )


if __name__ == "__main__":
    main()
