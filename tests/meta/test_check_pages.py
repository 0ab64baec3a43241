"""`make check-pages` (tools/check_pages.py): a page renders in headless Chromium, and a
broken image, a script error or a network request fails it. Skipped without Chromium."""

from __future__ import annotations

import base64
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "check_pages.py"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="no chromium")

PNG = base64.b64encode(
    bytes.fromhex(  # a 1x1 PNG
        "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
        "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
    )
).decode()


def run(*pages: Path, screens: Path, flags=()) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            sys.executable,
            str(TOOL),
            *map(str, pages),
            "--screens",
            str(screens),
            "--chromium",
            CHROMIUM,
            *flags,
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )


def test_check_pages_passes_a_good_page_and_fails_broken_ones(tmp_path):
    good = tmp_path / "good.html"
    good.write_text(
        f"<!DOCTYPE html><html><body><h1>ok</h1>"
        f'<img alt="dot" src="data:image/png;base64,{PNG}"></body></html>'
    )
    r = run(good, screens=tmp_path / "s")
    assert r.returncode == 0, r.stdout + r.stderr
    assert (tmp_path / "s" / "good.png").read_bytes()[:4] == b"\x89PNG"
    assert "1 images, 1 on the first screen" in r.stdout
    bad = {
        "image": '<img alt="gone" src="missing.png">',
        "script": "<script>throw new Error('boom')</script>",
        "network": '<img alt="far" src="http://127.0.0.1:9/x.png">',
    }
    for what, body in bad.items():
        page = tmp_path / f"bad-{what}.html"
        page.write_text(f"<!DOCTYPE html><html><body><h1>x</h1>{body}</body></html>")
        r = run(page, screens=tmp_path / "s")
        assert r.returncode == 1 and "PROBLEMS" in r.stdout, (what, r.stdout, r.stderr)
    # a first screen without a figure fails only when asked
    text = tmp_path / "text.html"
    text.write_text("<!DOCTYPE html><html><body><p>words</p></body></html>")
    assert run(text, screens=tmp_path / "s").returncode == 0
    r = run(text, screens=tmp_path / "s", flags=["--first-screen-figure"])
    assert r.returncode == 1 and "no figure on the first screen" in r.stderr


ATLAS = Path(__file__).resolve().parents[2] / "reports" / "atlas.html"


def _atlas_run(page: Path, screens: Path) -> subprocess.CompletedProcess:
    # the render budget is generous here: CI machines are shared; `make check-pages`
    # keeps the 1-second budget
    return subprocess.run(
        [
            sys.executable,
            str(TOOL),
            str(page),
            "--atlas",
            str(page),
            "--screens",
            str(screens),
            "--chromium",
            CHROMIUM,
            "--render-budget",
            "5000",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_atlas_clicks_and_permalinks_show_the_grid_numbers(tmp_path):
    r = _atlas_run(ATLAS, tmp_path / "s")
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    shots = sorted(p.name for p in (tmp_path / "s").glob("atlas-[0-9]*.png"))
    shots.append("atlas-whole-page.png")
    assert len(shots) == 11 and all(
        (tmp_path / "s" / s).read_bytes()[:4] == b"\x89PNG" for s in shots
    )
    assert "atlas copag: rules=copag&players=3&strategies=table" in r.stdout


def test_atlas_check_fails_a_page_whose_number_is_not_the_grid(tmp_path):
    # a copy of the atlas whose script shows the mean length 1% off, and fetches a URL
    shutil.copytree(ATLAS.parent / "atlas", tmp_path / "atlas")
    script = tmp_path / "atlas" / "atlas.js"
    code = script.read_text()
    wrong = code.replace(
        'num("turns_mean", s.turns_mean,', 'num("turns_mean", 1.01 * s.turns_mean,'
    )
    assert wrong != code
    script.write_text(wrong)
    bad = ATLAS.read_text().replace(
        "</body>", '<img alt="far" src="http://127.0.0.1:9/x.png"></body>'
    )
    page = tmp_path / "atlas.html"
    page.write_text(bad)
    r = _atlas_run(page, tmp_path / "s")
    assert r.returncode == 1
    assert "turns_mean shows" in r.stderr and "network request" in r.stderr, r.stderr[-3000:]
