"""The wheel works on its own: built with ``pip wheel --no-deps``, installed into a fresh
venv outside the source tree, it runs ``simulate``, ``report`` and an expert game.

The fresh venv borrows this environment's third-party packages through a ``.pth`` line
(a plain path line: the editable install's own ``.pth`` hooks in that folder are not run),
so the test costs a wheel build, not a download of numba and pandas. The installed kernels
start from this tree's compiled ones, copied beside the installed sources: numba loads
them because the wheel's kernel code is this tree's (``kernel.kernel_code``, which the
test checks), as a fresh install would compile them. The same run from an empty cache, a
cold compile in the installed location (about five CPU-minutes), is the ``slow`` test
below.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest
from numba.core import caching, config

ROOT = Path(__file__).resolve().parents[2]


def run(cmd, cwd, env=None, timeout=600):
    r = subprocess.run(
        [str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert r.returncode == 0, f"{' '.join(map(str, cmd))}\n{r.stdout}\n{r.stderr}"
    return r


def _tree_kernel_caches():
    """(folder of a kernel module relative to the package, its numba cache folder in this
    tree) for every kernel module's folder: ``NUMBA_CACHE_DIR``'s, else beside the
    sources, where ``kernel.compile.jit``'s locators put them."""
    package = ROOT / "unosim"
    for folder in sorted({f.parent for f in (package / "kernel").rglob("*.py")}):
        if config.CACHE_DIR:
            probe = str(folder / "__init__.py")
            cache = Path(config.CACHE_DIR) / caching._CacheLocator.get_suitable_cache_subpath(probe)
        else:
            cache = folder / "__pycache__"
        yield folder.relative_to(package), cache


def _seed_kernel_cache(site: Path) -> int:
    """Copy this tree's compiled kernels beside the installed kernel sources, where an
    installed package's kernels are cached; returns how many files it copied."""
    copied = 0
    for relative, cache in _tree_kernel_caches():
        target = site / "unosim" / relative / "__pycache__"
        for f in sorted(cache.glob("*.nb[ic]")) if cache.is_dir() else []:
            target.mkdir(exist_ok=True)
            (target / f.name).write_bytes(f.read_bytes())
            copied += 1
    return copied


def _install(tmp_path_factory, seed_cache: bool):
    """(python, unosim script, work folder, env, compiled kernel files copied) of a fresh
    venv holding only the wheel; ``seed_cache``: with this tree's compiled kernels."""
    tmp = tmp_path_factory.mktemp("wheel")
    run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", tmp / "dist", ROOT],
        cwd=tmp,
    )
    wheels = list((tmp / "dist").glob("unosim-*.whl"))
    assert len(wheels) == 1, wheels
    names = zipfile.ZipFile(wheels[0]).namelist()
    assert "unosim/kernel/drivers/batch.py" in names and "unosim/cli/app.py" in names
    # the atlas's script, style and the Vega bundle's licences are package data
    for asset in ("atlas.js", "atlas.css", "vega-embed.LICENSE.txt"):
        assert f"unosim/report/assets/{asset}" in names
    assert not any(n.startswith(("tests/", "analyses/", "docs/")) for n in names)
    meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheels[0]).read(meta).decode()
    assert "License-Expression: MIT" in text
    assert 'Requires-Dist: tomli>=1.1; python_version < "3.11"' in text

    env_dir = tmp / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    site = Path(
        run(
            [py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=tmp
        ).stdout.strip()
    )
    (site / "borrowed-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    run(
        [sys.executable, "-m", "pip", "--python", py, "install", "--no-deps", "--quiet", wheels[0]],
        cwd=tmp,
    )
    work = tmp / "work"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NUMBA_CACHE_DIR")}
    installed_site = Path(
        run([py, "-c", "import unosim; print(unosim.__file__)"], cwd=work, env=env).stdout.strip()
    ).parents[1]
    seeded = _seed_kernel_cache(installed_site) if seed_cache else 0
    return py, env_dir / "bin" / "unosim", work, env, seeded


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The wheel in a fresh venv, its kernels this tree's compiled ones."""
    return _install(tmp_path_factory, seed_cache=True)


def test_the_wheel_imports_from_the_venv_not_the_source_tree(installed):
    py, _, work, env, _ = installed
    out = run(
        [py, "-c", "import json, unosim; print(json.dumps([unosim.__file__, unosim.__version__]))"],
        cwd=work,
        env=env,
    ).stdout
    path, version = json.loads(out)
    assert not Path(path).resolve().is_relative_to(ROOT), path
    source = (ROOT / "unosim" / "_version.py").read_text()
    assert re.search(r'__version__ = "([^"]+)"', source).group(1) == version


def test_the_wheel_simulates_reports_and_plays_an_expert(installed):
    _, unosim, work, env, seeded = installed
    _simulate_report_and_play_an_expert(unosim, work, env)
    assert seeded, "no compiled kernel in this tree to start from (`make test` compiles them)"


def test_the_wheel_carries_the_kernel_code_whole(installed):
    """The installed kernels are cached by the same code as this tree's: every kernel
    file is in the wheel, unchanged."""
    py, _, work, env, _ = installed
    from unosim.kernel import kernel_code

    out = run([py, "-c", "from unosim.kernel import kernel_code; print(kernel_code())"], work, env)
    assert out.stdout.strip() == kernel_code()


@pytest.mark.slow
def test_the_wheel_compiles_its_kernels_where_it_is_installed(tmp_path_factory):
    _, unosim, work, env, _ = _install(tmp_path_factory, seed_cache=False)
    _simulate_report_and_play_an_expert(unosim, work, env)


def _simulate_report_and_play_an_expert(unosim, work, env):
    r = run(
        [unosim, "simulate", "--games", "2000", "--seed", "1", "--out", "o.parquet"],
        cwd=work,
        env=env,
    )
    assert "seat win rates" in r.stdout and (work / "o.parquet").stat().st_size > 0
    run(
        [unosim, "report", "official", "stacking", "--games", "2000", "--out", "page"],
        cwd=work,
        env=env,
    )
    assert "stacking" in (work / "page" / "report.md").read_text()
    assert (work / "page" / "report.html").stat().st_size > 0
    r = run(
        [
            unosim,
            "simulate",
            "--strategies",
            "expert,random,random,random",
            "--games",
            "8",
            "--seed",
            "2",
        ],
        cwd=work,
        env=env,
    )
    assert "expert" in r.stdout
