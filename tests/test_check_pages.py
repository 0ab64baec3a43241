"""tools/check_pages.py: a page with a broken image, a script error or no figure on its
first screen fails; a page with its figure on top passes (needs Chromium)."""
import base64
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import check_pages  # noqa: E402

pytestmark = pytest.mark.skipif(check_pages.find_browser() is None,
                                reason="Chromium is not installed (make check-pages installs it)")

# a 1x1 PNG
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")


def run(tmp_path, *pages):
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "check_pages.py"),
                        *map(str, pages), "--screens", str(tmp_path / "screens")],
                       capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout + r.stderr


def test_good_page_passes_and_leaves_a_screenshot(tmp_path):
    (tmp_path / "fig.png").write_bytes(PNG)
    page = tmp_path / "good.html"
    page.write_text('<html><body><h1>Answer</h1><img src="fig.png" width="200"></body></html>')
    code, out = run(tmp_path, page)
    assert code == 0, out
    assert "1 passed, 0 failed" in out
    shot = tmp_path / "screens" / f"{tmp_path.name}-good.png"
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("body, problem", [
    ('<img src="missing.png">', "image did not load: missing.png"),
    ('<img src="fig.png"><script>no_such_function()</script>', "script error"),
    ('<div style="height:2000px"></div><img src="fig.png">', "no figure on the first screen"),
    ("<p>words only</p>", "the page has no image"),
])
def test_bad_page_fails(tmp_path, body, problem):
    (tmp_path / "fig.png").write_bytes(PNG)
    page = tmp_path / "bad.html"
    page.write_text(f"<html><body>{body}</body></html>")
    code, out = run(tmp_path, page)
    assert code == 1, out
    assert problem in out
    assert "0 passed, 1 failed" in out


def test_missing_page_is_a_usage_error(tmp_path):
    code, out = run(tmp_path, tmp_path / "nope.html")
    assert code == 2
    assert "no such page" in out
