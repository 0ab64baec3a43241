"""Write the bytecode (``.pyc``) of the installed libraries' modules that unosim's runs
import, once, at install: `make install` runs it.

    python tools/byte_compile.py

Where ``PYTHONDONTWRITEBYTECODE`` is set (as on some CI machines and containers) and the
installer wrote no bytecode, every process compiles these modules from source again:
pandas, scipy.stats, matplotlib, pyarrow and numba's compiler cost some 2 s of CPU a
process (the reports start four, the tests dozens). This imports those libraries with
bytecode writing on, so each module is compiled once and its bytecode kept, and loads
numba's typing and lowering as a first compile does. Only the virtual environment's
files are written: the project's own modules are not imported here. A module left out
only compiles from source as before.
"""

from __future__ import annotations

import importlib
import sys
import time

LIBRARIES = (
    "numpy",
    "pandas",
    "pyarrow.parquet",
    "scipy.stats",
    "scipy.optimize",
    "matplotlib.pyplot",
    "matplotlib.backends.backend_agg",
    "matplotlib.backends.backend_svg",
    "PIL.PngImagePlugin",
    "markupsafe",
    "numba",
    "numba.core.typed_passes",
    "numba.core.registry",
)


def main() -> int:
    t = time.perf_counter()
    sys.dont_write_bytecode = False
    before = len(sys.modules)
    for name in LIBRARIES:
        try:
            importlib.import_module(name)
        except ImportError:
            pass  # not installed here: nothing to write
    try:
        from numba.core.registry import cpu_target

        cpu_target.target_context.refresh()  # numba's lowering, as at a first compile or load
        cpu_target.typing_context.refresh()
    except ImportError:
        pass
    print(
        f"wrote the bytecode of {len(sys.modules) - before} library modules "
        f"in {time.perf_counter() - t:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
