"""Where the kernel's compiled cache goes: beside a read-only package it goes elsewhere,
and with no writable folder at all the kernels compile uncached after a one-line note."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import unosim
from tests.cli_checks import write_file as _write


# ------------------------------------------------------------------ numba's cache
def test_read_only_package_caches_elsewhere(tmp_path):
    """The package folder unwritable (simulated: the kernel's __pycache__ folders are
    files)."""
    import shutil

    pkg = tmp_path / "site" / "unosim"
    shutil.copytree(Path(unosim.__file__).parent, pkg, ignore=shutil.ignore_patterns("__pycache__"))
    for folder in (pkg / "kernel", *(p for p in (pkg / "kernel").iterdir() if p.is_dir())):
        (folder / "__pycache__").write_text("not a folder")
    env = {**os.environ, "PYTHONPATH": str(pkg.parent), "XDG_CACHE_HOME": str(tmp_path / "c")}
    env.pop("NUMBA_CACHE_DIR", None)
    code = (
        "import numba, unosim.kernel, unosim.kernel.core.rng as k; "
        "from unosim.kernel.compile import jit; "
        "print(unosim.kernel.CACHE_ROOT); "
        "print(repr(numba.config.CACHE_DIR)); print(jit._Cache(k.seed_streams.py_func).cache_path)"
    )
    r = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert r.returncode == 0, r.stderr
    root, numbas, path = r.stdout.splitlines()
    assert Path(root).parent == tmp_path / "c" / "numba"  # numba's per-user cache folder
    assert numbas == "''"  # numba's own setting is left alone
    assert Path(path).parent == Path(root).parent  # one folder a kernel subpackage


def test_no_writable_cache_folder_runs_uncached(tmp_path):
    """Nothing writable (simulated: every candidate lies under a file): a one-line
    notice at the first compile, and unosim's kernels compile without caching; a user's
    own cache=True function is numba's as ever (here numba refuses it, a lambda having no
    file)."""
    import shutil

    pkg = tmp_path / "site" / "unosim"
    shutil.copytree(Path(unosim.__file__).parent, pkg, ignore=shutil.ignore_patterns("__pycache__"))
    for folder in (pkg / "kernel", *(p for p in (pkg / "kernel").iterdir() if p.is_dir())):
        (folder / "__pycache__").write_text("not a folder")
    afile = _write(tmp_path / "afile", "x")
    env = {**os.environ, "PYTHONPATH": str(pkg.parent), "XDG_CACHE_HOME": str(afile / "c")}
    env.pop("NUMBA_CACHE_DIR", None)
    code = (
        "import numpy as np\n"
        "from unosim.kernel.drivers.batch import deck_order\n"
        "from unosim.kernel.core.kinds import N_KINDS\n"
        "print(deck_order(np.ones(N_KINDS, np.int16)).size)\n"
        "from numba import njit\n"
        "try:\n"
        "    njit(cache=True)(lambda x: x + 1)(2)\n"
        "except RuntimeError as e:\n"
        "    print('numba:', 'no locator' in str(e))\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert r.returncode == 0, r.stderr
    from unosim.kernel.core.kinds import N_KINDS

    assert r.stdout.split() == [str(N_KINDS), "numba:", "True"], r.stdout
    assert r.stderr.startswith("unosim: note: ") and r.stderr.count("\n") == 1, r.stderr
