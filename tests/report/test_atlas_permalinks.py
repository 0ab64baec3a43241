"""The atlas permalink's keys: the script reads only its own keys, and prototype keys
(``toString``...) fall back with a note. The browser check is skipped without Chromium."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ATLAS = ROOT / "reports" / "atlas.html"
PROTOTYPE_KEYS = ["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf"]


def _check_pages():
    import importlib.util
    import shutil

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(chromium).exists():
        pytest.skip("no chromium")
    spec = importlib.util.spec_from_file_location("check_pages", ROOT / "tools" / "check_pages.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod, chromium


def test_atlas_script_reads_only_own_keys():
    script = (ROOT / "unosim" / "report" / "assets" / "atlas.js").read_text(encoding="utf-8")
    assert "in CFG.strategies" not in script
    # the committed page runs this script
    assert (ATLAS.parent / "atlas" / "atlas.js").read_text(encoding="utf-8") == script


def test_atlas_permalinks_with_prototype_keys_fall_back_with_a_note():
    """``#strategies=toString`` and the like: the default choice and a note saying the
    link names nothing, with no script error (an uncaught TypeError left the page half
    built)."""
    cp, chromium = _check_pages()
    br = cp.Browser(chromium)
    try:
        target, sid = cp.open_tab(br)
        base = ATLAS.resolve().as_uri()
        fragments = [f"strategies={k}" for k in PROTOTYPE_KEYS]
        fragments += [f"rules=official&players=4&strategies=random&q={k}" for k in PROTOTYPE_KEYS]
        for frag in fragments:
            br.events.clear()
            br.call("Page.navigate", {"url": "about:blank"}, session=sid)
            br.call("Page.navigate", {"url": f"{base}#{frag}"}, session=sid)
            got = cp.wait_render(br, sid, "")
            assert got["rendered"] == "rules=official&players=4&strategies=random", (frag, got)
            assert "does not name a choice" in got["error"], (frag, got["error"])
            assert not cp.event_problems(br.events), (frag, cp.event_problems(br.events))
        br.call("Target.closeTarget", {"targetId": target})
    finally:
        br.close()
