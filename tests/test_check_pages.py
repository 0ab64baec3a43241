"""`make check-pages` (tools/check_pages.py): a page renders in headless Chromium, and a
broken image, a script error or a network request fails it. Skipped without Chromium."""
from __future__ import annotations

import base64
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parent.parent / "tools" / "check_pages.py"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="no chromium")

PNG = base64.b64encode(bytes.fromhex(  # a 1x1 PNG
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")).decode()


def run(*pages: Path, screens: Path, flags=()) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(TOOL), *map(str, pages), "--screens",
                           str(screens), "--chromium", CHROMIUM, *flags],
                          capture_output=True, text=True, timeout=180)


def test_check_pages_passes_a_good_page_and_fails_broken_ones(tmp_path):
    good = tmp_path / "good.html"
    good.write_text(f'<!DOCTYPE html><html><body><h1>ok</h1>'
                    f'<img alt="dot" src="data:image/png;base64,{PNG}"></body></html>')
    r = run(good, screens=tmp_path / "s")
    assert r.returncode == 0, r.stdout + r.stderr
    assert (tmp_path / "s" / "good.png").read_bytes()[:4] == b"\x89PNG"
    assert "1 images, 1 on the first screen" in r.stdout
    bad = {"image": '<img alt="gone" src="missing.png">',
           "script": "<script>throw new Error('boom')</script>",
           "network": '<img alt="far" src="http://127.0.0.1:9/x.png">'}
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
