"""``unosim play`` in headless Chromium: a whole round clicked through ``data-action``
elements to ``data-round-over``, with every API response read to check that none before
the end holds a card the person's seat may not see; and the server's refusals (token,
Host, Origin)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from check_pages import Browser, click, evaluate, open_tab  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
VIEW_KEYS = {
    "game",
    "seat",
    "rules",
    "opponents",
    "hand",
    "top",
    "colour",
    "direction",
    "sizes",
    "pending",
    "draw_pile",
    "events",
    "decision",
    "legal",
    "over",
    "winner",
    "points",
    "match",
    "agent",
}
AGENT_FILE = """
import os
with open(os.environ["UNOSIM_TEST_AGENT_PIDS"], "a") as f:  # who imports this file
    f.write(f"{os.getpid()}\\n")


def agent(obs):
    return obs.legal[0]  # a card where one is legal: a draw at every turn made rounds long
"""


def _serve(*extra, env=None):
    proc = subprocess.Popen(
        [sys.executable, "-m", "unosim.cli.app", "play", "--no-browser", "--port", "0", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    url = proc.stdout.readline().strip()
    assert url.startswith("http://127.0.0.1:") and "?token=" in url, (url, proc.stderr.read())
    return proc, url


@pytest.fixture(scope="module")
def server():
    proc, url = _serve()
    yield url
    proc.terminate()
    proc.wait(timeout=20)


@pytest.fixture(scope="module")
def agent_server(tmp_path_factory):
    """A server offering an agent file as the opponent ``agent``; the file notes the
    process id of whoever imports it."""
    folder = tmp_path_factory.mktemp("agent")
    (folder / "first_legal.py").write_text(AGENT_FILE)
    pids = folder / "pids.txt"
    env = dict(os.environ, UNOSIM_TEST_AGENT_PIDS=str(pids))
    proc, url = _serve("--agent", f"{folder / 'first_legal.py'}:agent", env=env)
    yield url, proc.pid, pids
    proc.terminate()
    proc.wait(timeout=20)


def _request(url, headers=None, data=None):
    req = urllib.request.Request(url, headers=headers or {}, data=data)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_the_server_checks_the_token_host_and_origin(server):
    base, token = server.split("/?token=")
    assert _request(server)[0] == 200
    assert _request(f"{base}/?token=wrong")[0] == 403
    assert _request(f"{base}/api/view?game=x")[0] == 403
    assert _request(server, {"Host": "evil.example"})[0] == 403
    assert _request(server, {"Origin": "http://evil.example"})[0] == 403
    status, body = _request(f"{base}/api/new", {"X-Unosim-Token": token}, b'{"players": 11}')
    assert status == 400 and "players" in json.loads(body)["error"]
    status, body = _request(f"{base}/static/table.js")
    assert status == 200 and "data-action" in body


def _api_bodies(br, sid, seen_ids):
    """The bodies of the API responses that arrived since the last call."""
    out = []
    keep = []
    for e in br.events:
        if (
            e.get("method") == "Network.responseReceived"
            and "/api/" in e["params"]["response"]["url"]
        ):
            seen_ids.append(e["params"]["requestId"])
        elif e.get("method") == "Network.loadingFinished" and e["params"]["requestId"] in seen_ids:
            rid = e["params"]["requestId"]
            seen_ids.remove(rid)
            body = br.call("Network.getResponseBody", {"requestId": rid}, session=sid)["body"]
            data = json.loads(body)
            if "game" in data:
                out.append(data)
            else:  # the page's first request: the opponents offered, no cards
                assert set(data) == {"opponents", "agent", "max_budget"}, data
        else:
            keep.append(e)
    br.events[:] = keep
    return out


def _play_round(url, query, deadline=600.0):
    br = Browser(CHROMIUM)
    try:
        _, sid = open_tab(br)
        br.call("Page.navigate", {"url": f"{url}&{query}"}, session=sid)
        pending: list = []
        views = []
        clicks = 0
        end = time.monotonic() + deadline
        while True:
            views += _api_bodies(br, sid, pending)
            state = evaluate(
                br,
                sid,
                """(() => {
                  const over = document.querySelector('[data-round-over]');
                  if (over) return {over: true, winner: over.dataset.winner};
                  const b = Array.from(document.querySelectorAll('[data-action]'))
                    .filter(x => !x.disabled);
                  const err = document.getElementById('error');
                  return {over: false, actions: b.map(x => x.dataset.action),
                          error: err ? err.textContent : ''};
                })()""",
            )
            assert not state.get("error"), state
            if state["over"]:
                break
            assert time.monotonic() < end, "the round did not end in time"
            if state["actions"]:
                pick = state["actions"][clicks * 7 % len(state["actions"])]
                click(br, sid, f'[data-action="{pick}"]')
                clicks += 1
            time.sleep(0.05)
        time.sleep(0.3)
        views += _api_bodies(br, sid, pending)
        clickable = evaluate(
            br, sid, "document.querySelectorAll('button:not([data-action]):not([disabled])').length"
        )
        return state, views, clicks, clickable
    finally:
        br.close()


def _check_views(views, n):
    assert views and views[-1]["over"]
    for v in views[:-1]:
        assert not v["over"]
        assert set(v) == VIEW_KEYS, set(v) ^ VIEW_KEYS  # no "hands" before the end
        assert len(v["sizes"]) == n and len(v["hand"]) == v["sizes"][v["seat"]]
    assert len(views[-1]["hands"]) == n
    assert set(views[-1]) == VIEW_KEYS | {"hands", "finding"}


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="no chromium")
@pytest.mark.parametrize(
    "query",
    [
        "players=4&opponents=random&seed=1",
        "players=4&opponents=expert&seed=2",
        "players=4&opponents=expert&budget=8&seed=3",
    ],
)
def test_a_whole_round_is_played_by_clicking_legal_moves(server, query):
    state, views, clicks, clickable = _play_round(server, query)
    _check_views(views, 4)
    assert int(state["winner"]) == views[-1]["winner"]
    assert clicks > 0
    # besides the legal moves, only the setup's Deal and the end's Deal again
    assert clickable <= 2


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="no chromium")
def test_a_round_against_your_agent_file_in_its_own_process(agent_server):
    url, server_pid, pids = agent_server
    state, views, clicks, _ = _play_round(url, "players=4&opponents=agent,random,agent&seed=5")
    _check_views(views, 4)
    assert all(v["agent"]["seats"] == [1, 3] for v in views)
    assert views[-1]["agent"]["fallbacks"] == 0, views[-1]["agent"]
    # the agent ran in a process of its own, never in the server's
    seen = {int(x) for x in pids.read_text().split()}
    assert seen and server_pid not in seen


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="no chromium")
def test_a_match_goes_on_to_its_next_round(server):
    state, views, clicks, _ = _play_round(server, "players=3&opponents=random&seed=6&match=on")
    _check_views(views, 3)
    m = views[-1]["match"]
    assert m["target"] == 500 and m["round"] == 1
    w = views[-1]["winner"]
    assert m["scores"] == [views[-1]["points"] if q == w else 0 for q in range(3)]
    assert all(v["match"]["scores"] == [0, 0, 0] for v in views[:-1])


def test_the_hint_and_the_next_round_through_the_api(server):
    base, token = server.split("/?token=")
    head = {"X-Unosim-Token": token, "Content-Type": "application/json"}
    status, body = _request(
        f"{base}/api/new", head, b'{"players": 2, "opponents": "random", "seed": 9, "match": true}'
    )
    assert status == 200, body
    v = json.loads(body)
    gid = v["game"]
    status, body = _request(f"{base}/api/hint", head, json.dumps({"game": gid}).encode())
    assert status == 200, body
    h = json.loads(body)
    assert [a["id"] for a in h["actions"]] == [a["id"] for a in v["legal"]]
    assert h["best"] in [a["id"] for a in v["legal"]]
    if len(v["legal"]) > 1:
        assert h["deals"] >= 1
        for a in h["actions"]:
            assert 0 <= a["low"] <= a["win"] <= a["high"] <= 1
    assert set(h) == {"actions", "best", "deals", "note"}  # no cards but the moves' names
    status, body = _request(f"{base}/api/next", head, json.dumps({"game": gid}).encode())
    assert status == 400 and "not over" in json.loads(body)["error"]
    while not v["over"]:
        a = v["legal"][0]["id"]
        status, body = _request(
            f"{base}/api/act", head, json.dumps({"game": gid, "action": a}).encode()
        )
        assert status == 200, body
        v = json.loads(body)
    status, body = _request(f"{base}/api/next", head, json.dumps({"game": gid}).encode())
    assert status == 200, body
    v2 = json.loads(body)
    assert v2["match"]["round"] == 2 and v2["match"]["scores"] == v["match"]["scores"]
    assert not v2["over"] and "hands" not in v2


@pytest.fixture(scope="module")
def cards_server():
    """A server offering two declared-card rule files by their names."""
    files = [ROOT / "examples" / "cards" / f for f in ("wild-draw-six.toml", "mixed.toml")]
    proc, url = _serve(*(x for f in files for x in ("--rules-file", str(f))))
    yield url
    proc.terminate()
    proc.wait(timeout=20)


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="no chromium")
@pytest.mark.parametrize("rules", ["wild-draw-six", "mixed"])
def test_a_whole_round_with_a_declared_deck(cards_server, rules):
    state, views, clicks, clickable = _play_round(
        cards_server, f"rules={rules}&players=4&opponents=random&seed=5"
    )
    _check_views(views, 4)
    assert int(state["winner"]) == views[-1]["winner"]
    assert clicks > 0


def test_a_rule_file_is_refused_in_one_line_and_a_browser_names_no_file(tmp_path):
    from cli_checks import invoke, one_line_error

    from unosim.table.games import TableError, Tables

    bad = tmp_path / "bad.toml"
    bad.write_text('preset = "official"\n[cards.x]\neffect = ["no_such_step"]\n')
    one_line_error(invoke("play", "--no-browser", "--rules-file", bad), "--rules-file")
    with pytest.raises(TableError, match="rules must be one of"):
        Tables().new(rules=str(ROOT / "examples" / "cards" / "mixed.toml"))
