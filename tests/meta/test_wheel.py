"""The wheel works on its own: built with ``pip wheel --no-deps``, installed into a fresh
venv outside the source tree, it runs ``simulate``, ``report`` and an expert game.

The fresh venv borrows this environment's third-party packages through a ``.pth`` line
(a plain path line: the editable install's own ``.pth`` hooks in that folder are not run),
so the test costs a wheel build and a kernel compile, not a download of numba and pandas.
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

ROOT = Path(__file__).resolve().parents[2]


def run(cmd, cwd, env=None, timeout=600):
    r = subprocess.run(
        [str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert r.returncode == 0, f"{' '.join(map(str, cmd))}\n{r.stdout}\n{r.stderr}"
    return r


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(python, unosim script, work folder, env) of a fresh venv holding only the wheel."""
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
    return py, env_dir / "bin" / "unosim", work, env


def test_the_wheel_imports_from_the_venv_not_the_source_tree(installed):
    py, _, work, env = installed
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
    _, unosim, work, env = installed
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
