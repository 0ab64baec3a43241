"""``unosim replay ... --html OUT``: one offline page that steps through a replayed round
with every hand open. Headless Chromium clicks through it to the end and the moves it
showed must be the text replay's lines; untrusted text (a rule set's name) stays text."""

from __future__ import annotations

import json
import re
import shutil
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import unosim
from unosim.cli.app import app
from unosim.game.rules import OFFICIAL, apply
from unosim.sim.replay import format_text, replay
from unosim.sim.results import write_parquet
from unosim.table.watch import page_data, replay_page, script_json

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from check_pages import Browser, click, evaluate, event_problems, open_tab  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
HOSTILE = '</script><script>document.title="owned"</script><!-- &amp; \u00e9 "q" \'s'
runner = CliRunner()


@pytest.fixture(scope="module")
def results_file(tmp_path_factory):
    df = unosim.simulate("official", 8, 4, "random", seed=5, threads=1)
    path = tmp_path_factory.mktemp("watch") / "runs.parquet"
    write_parquet(df, path, df.attrs["manifest"])
    return path


def _text_moves(rp) -> list[str]:
    """The event lines of the text replay (between the column header and the result)."""
    lines = format_text(rp).splitlines()
    start = next(i for i, t in enumerate(lines) if t.lstrip().startswith("row turn")) + 1
    end = lines.index("", start)
    return lines[start:end]


def _step_through(page: Path) -> tuple[list[dict], dict, list[str]]:
    """Open ``page`` from its file, click "next" until it is disabled, and return every
    move the page listed, the end's state and the page's problems (errors, requests)."""
    br = Browser(CHROMIUM)
    try:
        _, sid = open_tab(br)
        br.events.clear()
        br.call("Page.navigate", {"url": page.resolve().as_uri()}, session=sid)
        br.wait_event("Page.loadEventFired", timeout=60)
        shown = []
        for _ in range(20_000):
            at = evaluate(
                br,
                sid,
                """(() => ({move: document.getElementById('move').textContent,
                           next: !document.getElementById('next').disabled}))()""",
            )
            shown.append(at["move"])
            if not at["next"]:
                break
            click(br, sid, "#next")
        moves = evaluate(
            br,
            sid,
            """Array.from(document.querySelectorAll('#moves li')).map(li => ({
                 row: Number(li.dataset.row), turns: Number(li.dataset.turns),
                 state: li.dataset.state, text: li.textContent}))""",
        )
        end = evaluate(
            br,
            sid,
            """(() => { const e = document.querySelector('[data-round-over]');
                 return {over: !!e, winner: e ? Number(e.dataset.winner) : null,
                         title: document.title,
                         scripts: document.scripts.length,
                         hands: document.querySelectorAll('#hands [data-seat]').length}; })()""",
        )
        end["shown"] = shown
        time.sleep(0.2)
        return moves, end, event_problems(br.events)
    finally:
        br.close()


def _as_text_lines(moves: list[dict]) -> list[str]:
    out = []
    for m in moves:
        who, _, text = m["text"].partition(": ")
        out.append(f"{m['row']:>4} {m['turns']:>4}  {who:<7} {text:<52} {m['state']}")
    return out


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="no chromium")
def test_the_page_steps_through_the_round_with_the_text_replays_moves(results_file, tmp_path):
    out = tmp_path / "game3.html"
    r = runner.invoke(
        app, ["replay", "--from", str(results_file), "--where", "game == 3", "--html", str(out)]
    )
    assert r.exit_code == 0, r.output
    assert "every move legal" in r.output
    html = out.read_text("utf-8")
    # offline: nothing is fetched (no src or href attribute at all)
    assert not re.search(r"\b(src|href)\s*=", html)
    rp = replay("official", 4, "random", 5, 3)
    want = _text_moves(rp)
    moves, end, problems = _step_through(out)
    assert not problems, problems
    assert _as_text_lines(moves) == want
    assert len(end["shown"]) == len(want)  # one click per step, each shown in turn
    assert end["over"] and end["winner"] == rp.row["winner"]
    assert end["hands"] == 4
    # the page's moves are those of the text replay, in order, one step at a time
    assert [s.split(", ", 1)[1] for s in end["shown"]] == [m["text"] for m in moves]


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="no chromium")
def test_untrusted_text_stays_text(tmp_path):
    rules = apply(OFFICIAL, {}, name=HOSTILE)
    rp = replay(rules, 3, "random", 2, 0)
    html = replay_page(rp)
    assert HOSTILE not in html and "</script><script>document" not in html
    data = html.split('id="replay-data">', 1)[1].split("</script>", 1)[0]
    assert json.loads(data)["rules"] == HOSTILE
    page = tmp_path / "hostile.html"
    page.write_text(html, "utf-8")
    moves, end, problems = _step_through(page)
    assert not problems, problems
    assert end["title"].startswith(f"unosim replay: {HOSTILE},")
    assert end["scripts"] == 2  # the data block and the page's own script, no other
    assert len(moves) == len(page_data(rp)["steps"])


def test_script_json_cannot_end_its_script_element():
    text = script_json({"a": "</script><!-- \u2028\u2029 & >"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert "\u2028" not in text and "\u2029" not in text
    assert json.loads(text) == {"a": "</script><!-- \u2028\u2029 & >"}


def test_html_takes_one_round_and_refuses_json(results_file, tmp_path):
    out = tmp_path / "p.html"
    for extra, why in ((["--limit", "2"], "--limit"), (["--json"], "--json")):
        r = runner.invoke(app, ["replay", "--from", str(results_file), "--html", str(out), *extra])
        assert r.exit_code == 2 and why in r.output, r.output
        assert not out.exists()
