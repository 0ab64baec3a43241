"""Caches keyed on behaviour: a docstring, comment or layout edit changes no cache key of
the analyses and recompiles no kernel; an edit of the code does both."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import unosim
from unosim.kernel import code_digest

SOURCE = textwrap.dedent('''\
    """A module."""
    import numpy as np

    X = 3  # a constant


    def f(a, b):
        """Add."""
        # a comment
        return a + b * X


    class C:
        """A class."""

        def g(self):
            return 1
''')

SAME = [
    SOURCE.replace('"""A module."""', '"""A module, described at length.\n\nMore."""'),
    SOURCE.replace("# a comment", "# another comment\n    # on two lines"),
    SOURCE.replace('        """Add."""\n', ""),
    SOURCE.replace('        """A class."""\n', '        """Its docstring moved."""\n'),
    SOURCE.replace("a + b * X", "(a\n            + b * X)").replace("X = 3", "X=3"),
    "\n\n" + SOURCE,
]
DIFFERENT = [
    SOURCE.replace("a + b * X", "a - b * X"),
    SOURCE.replace("X = 3", "X = 4"),
    SOURCE.replace("return 1", "return '1'"),
    SOURCE.replace("return 1", 'return """A module."""'),
    SOURCE + "\nY = 1\n",
]


def _digest(tmp_path: Path, text: str) -> str:
    p = tmp_path / "mod.py"
    p.write_text(text)
    return code_digest([p])


@pytest.mark.parametrize("i", range(len(SAME)))
def test_prose_and_layout_change_no_digest(tmp_path, i):
    assert _digest(tmp_path, SAME[i]) == _digest(tmp_path, SOURCE)


@pytest.mark.parametrize("i", range(len(DIFFERENT)))
def test_code_changes_the_digest(tmp_path, i):
    assert _digest(tmp_path, DIFFERENT[i]) != _digest(tmp_path, SOURCE)


def test_analyses_cache_key_ignores_docstrings(tmp_path, monkeypatch):
    """The analyses' cache key reads the code of the sources: a copy of them with a
    docstring edited gives the same key, one with a line of code changed another."""
    from unosim.report import cache

    copies = []
    for f in cache.fingerprint_files():
        c = tmp_path / f.parent.name / f.name
        c.parent.mkdir(exist_ok=True)
        shutil.copy(f, c)
        copies.append(c)
    manifest = {"seed": 1, "games": 10}
    monkeypatch.setattr(cache, "fingerprint_files", lambda: copies)
    # (the copies are named by file name, the package's files by their path in it)
    want = cache.cache_key(manifest, "rounds")
    round_py = next(c for c in copies if c.name == "round.py")
    text = round_py.read_text()
    round_py.write_text(text.replace('"""', '"""Edited: ', 1) + "\n# a comment\n")
    assert cache.cache_key(manifest, "rounds") == want
    round_py.write_text(text + "\nUNUSED = 1\n")
    assert cache.cache_key(manifest, "rounds") != want


# A small kernel (a match's seating) compiled in a copy of the package: its cache stats
# and index files after each edit.
COMPILE = textwrap.dedent("""
    import numpy as np
    from unosim.kernel import CACHE_ROOT
    from unosim.kernel.drivers.match import seat_players
    seat = np.full(10, -1, np.int64)
    alive = np.ones(10, np.int64)
    seat_players(alive, 4, 2, seat)
    s = seat_players.stats
    print(sum(s.cache_hits.values()), sum(s.cache_misses.values()), CACHE_ROOT)
""")


def _compile(site: Path, cwd: Path) -> tuple[int, int]:
    env = {**os.environ, "PYTHONPATH": str(site)}
    env.pop("NUMBA_CACHE_DIR", None)
    r = subprocess.run(
        [sys.executable, "-c", COMPILE],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        cwd=cwd,
    )
    assert r.returncode == 0, r.stderr
    hits, misses, root = r.stdout.split()
    assert Path(root) == site / "unosim" / "kernel" / "compile" / "__pycache__"
    return int(hits), int(misses)


def _index_files(pkg: Path) -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in (pkg / "kernel").rglob("__pycache__/*.nbi")}


def test_a_docstring_edit_recompiles_no_kernel(tmp_path):
    site = tmp_path / "site"
    pkg = site / "unosim"
    shutil.copytree(Path(unosim.__file__).parent, pkg, ignore=shutil.ignore_patterns("__pycache__"))
    assert _compile(site, tmp_path) == (0, 1)  # compiled and cached
    assert _compile(site, tmp_path) == (1, 0)  # loaded
    index = _index_files(pkg)
    assert any(n.startswith("match.seat_players") for n in index)
    # prose edits: the module docstring grows (every line below moves), the function's
    # docstring and a comment in a file it calls change
    match_py = pkg / "kernel" / "drivers" / "match.py"
    layout_py = pkg / "kernel" / "core" / "layout.py"
    text = match_py.read_text()
    text = text.replace('"""', '"""An edited module docstring,\n\nover three lines.\n', 1)
    text = text.replace(
        'def seat_players(alive, n, dealer, seat_player):\n    """',
        'def seat_players(alive, n, dealer, seat_player):\n    """Edited. ',
    )
    match_py.write_text(text)
    layout_py.write_text(layout_py.read_text() + "\n# a comment at the end\n")
    assert _compile(site, tmp_path) == (1, 0)
    assert _index_files(pkg) == index  # nothing written again
    # a code edit anywhere in the kernel package recompiles
    layout_py.write_text(layout_py.read_text() + "UNUSED_CONSTANT = 1\n")
    assert _compile(site, tmp_path) == (0, 1)
