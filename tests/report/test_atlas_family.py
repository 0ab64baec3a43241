"""The committed rules atlas as a family uses it, in headless Chromium: minutes beside
turns at a stated pace that its control changes, the verdicts first, and the common
questions' box still there after the player count changes. Skipped without Chromium."""

from __future__ import annotations

import json
import math
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ATLAS = ROOT / "reports" / "atlas.html"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="no chromium")

sys.path.insert(0, str(ROOT / "tools"))
import check_pages as C  # noqa: E402

sys.path.remove(str(ROOT / "tools"))

METRICS_JS = """(() => { const out = {};
  if (!document.body || !document.getElementById('answer')) return {metrics: out, rendered: ''};
  for (const e of document.querySelectorAll('#answer [data-metric], #question [data-metric]'))
    out[e.dataset.metric] = Number(e.dataset.value);
  const q = document.getElementById('question');
  return {metrics: out, rendered: document.body.dataset.rendered || '',
          question: q && !q.hidden ? q.textContent : null,
          verdicts: (document.getElementById('verdicts') || {}).textContent || ''}; })()"""


@pytest.fixture(scope="module")
def tab():
    br = C.Browser(CHROMIUM)
    try:
        target, sid = C.open_tab(br)
        yield br, sid
    finally:
        br.close()


def _open(br, sid, fragment: str) -> dict:
    br.call("Page.navigate", {"url": "about:blank"}, session=sid)
    br.call("Page.navigate", {"url": f"{ATLAS.resolve().as_uri()}#{fragment}"}, session=sid)
    return _wait(br, sid, "")


def _wait(br, sid, old: str, timeout: float = 60.0) -> dict:
    import time

    end = time.monotonic() + timeout
    while True:
        got = C.evaluate(br, sid, METRICS_JS)
        if got["rendered"] and got["rendered"] != old:
            return got
        assert time.monotonic() < end, f"the atlas did not render (still {got['rendered']!r})"
        time.sleep(0.05)


def _config() -> dict:
    text = ATLAS.read_text()
    return json.loads(
        text.split('<script id="atlas-config" type="application/json">')[1].split("</script>")[0]
    )


def test_minutes_beside_turns_and_the_pace_control(tab):
    br, sid = tab
    pace = _config()["pace"]["default"]
    got = _open(br, sid, "rules=official&players=5&strategies=random")
    m = got["metrics"]
    assert m["seconds_per_turn"] == pace
    assert math.isclose(m["minutes_mean"], m["turns_mean"] * pace / 60, rel_tol=1e-12)
    assert "How long?" in got["verdicts"] and "minutes" in got["verdicts"]
    # the pace control: 12 seconds a turn doubles the minutes, the turns stay
    C.evaluate(
        br,
        sid,
        """(() => { const i = document.getElementById('pace-input'); i.value = '12';
        i.dispatchEvent(new Event('input')); })()""",
    )
    after = C.evaluate(br, sid, METRICS_JS)["metrics"]
    assert after["seconds_per_turn"] == 12
    assert after["turns_mean"] == m["turns_mean"]
    assert math.isclose(after["minutes_mean"], m["turns_mean"] * 12 / 60, rel_tol=1e-12)
    assert math.isclose(after["minutes_mean"], 2 * m["minutes_mean"], rel_tol=1e-12)
    C.evaluate(
        br,
        sid,
        "(() => { const i = document.getElementById('pace-input'); "
        f"i.value = String({pace!r}); i.dispatchEvent(new Event('input')); }})()",
    )


def test_questions_box_stays_when_the_player_count_changes(tab):
    br, sid = tab
    got = _open(br, sid, "rules=official&players=4&strategies=random&q=first")
    assert got["question"] and "going first" in got["question"]
    C.click(br, sid, "#players-3")
    after = _wait(br, sid, got["rendered"])
    assert after["rendered"].endswith("&q=first"), after["rendered"]
    assert after["question"] is not None, "the questions box disappeared"
    # for 3 players: one sentence a child understands, with the number
    rate = after["metrics"]["q_seat0"]
    sentence = C.evaluate(br, sid, "document.getElementById('q-first-verdict').textContent") or ""
    assert sentence.startswith("Going first")
    won = f"{100 * rate:.0f}" if round(100 * rate) != 33 else f"{100 * rate:.1f}"
    assert f"wins about {won}, where a fair share is 33" in sentence
    # the length question follows the player count too, in minutes
    got = _open(br, sid, "rules=official&players=8&strategies=random&q=length")
    C.click(br, sid, "#players-5")
    after = _wait(br, sid, got["rendered"])
    assert after["question"] and "at 5 players" in after["question"]
    assert "minutes" in after["question"]


def test_seven_zero_chaos_has_a_verdict_and_one_seat_edge_sentence(tab):
    br, sid = tab
    got = _open(
        br, sid, "rules=official%2Bseven_zero%3Dtrue&players=6&strategies=random&q=seven_zero"
    )
    verdict = C.evaluate(br, sid, "document.getElementById('q-chaos-verdict').textContent")
    assert verdict.startswith(("Yes, it is chaos", "No, hardly")), verdict
    answer = C.evaluate(br, sid, "document.getElementById('answer').textContent")
    # the change in seat 0's edge is said with both edges it lies between
    assert "seat 0's edge over a fair share is" in answer and " there (" in answer
    assert got["verdicts"].count("Does going first matter?") == 1
