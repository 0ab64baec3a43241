"""The text door: a seat's view in words (holding nothing the seat may not know) and
replies read back as actions (letters, words, JSON), the invalid-move policy, and the
chat-endpoint agent scored by ``unosim evaluate`` against a stand-in server on
127.0.0.1 (never the network)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest

import unosim
from unosim.game.cards import COLOURS
from unosim.kernel.outside import protocol as K
from unosim.sim.outside import card_of
from unosim.table.llm import ChatAgent, EndpointError
from unosim.table.text import (
    InvalidMove,
    MoveCounts,
    MovePolicy,
    card_text,
    fallback_action,
    legal_list,
)
from unosim.text import parse, render

HOUSE_MIX = dict(stacking="same", jump_in=True, seven_zero=True, multi_play=True, challenge=True)


def _check_every_way_of_naming(obs, seen):
    listed = legal_list(obs)
    for letter, a, words in listed:
        seen.add(obs.decision)
        assert parse(letter, obs) == a
        assert parse(f"({letter.lower()})", obs) == a
        assert parse(f"**{letter}**. {words}", obs) == a
        assert parse(f"My answer: {letter}", obs) == a
        assert parse(words, obs) == a, words
        assert parse(words.upper() + ".", obs) == a, words
        assert parse(json.dumps({"action": letter}), obs) == a
        assert parse(f'```json\n{{"id": {a}}}\n```', obs) == a
        assert parse(a, obs) == a
        if K.A_WILD <= a < K.A_DRAW:
            name, colour = card_text(card_of(a)), COLOURS[(a - K.A_WILD) % 4]
            assert parse(f"I'll play the {name}, {colour}", obs) == a
            assert parse({"card": name, "colour": colour}, obs) == a
            seen.add("wild")
    with pytest.raises(InvalidMove, match="no action"):
        parse("ZZ", obs)
    with pytest.raises(InvalidMove):
        parse("purple eleven", obs)
    with pytest.raises(InvalidMove):
        parse("", obs)
    wilds = [a for a in obs.legal if K.A_WILD <= a < K.A_DRAW]
    if len(wilds) > 1 and obs.decision == "turn":
        k = card_of(wilds[0])
        if sum(card_of(a) == k for a in wilds) > 1:
            with pytest.raises(InvalidMove, match="more than one"):
                parse(f"play {card_text(k)}", obs)  # the colour is missing


def test_every_legal_action_is_read_back_from_its_letter_words_and_json():
    seen: set = set()
    rng = np.random.default_rng(5)
    for rules, house, n in (("official", HOUSE_MIX, 4), ("official", {"draw_rule": "one"}, 3)):
        g = unosim.Game(rules, n, seed=2, **house)
        for r in range(4):
            s = g.new_round(r)
            while not s.is_terminal():
                obs = s.observation(s.current_player)
                _check_every_way_of_naming(obs, seen)
                s.apply(int(rng.choice(s.legal_actions())))
    # the walk met the kinds of decision the rules above give
    assert {"turn", "penalty", "target", "uno", "wild"} <= seen, seen


def test_a_view_holds_nothing_the_seat_may_not_know():
    """Dealing anew every card the seat cannot see leaves its view word for word the same
    (and another seat's hand changes, so the view could have shown it)."""
    g = unosim.Game("official", 4, seed=7)
    rng = np.random.default_rng(1)
    checked = 0
    for r in range(3):
        s = g.new_round(r)
        while not s.is_terminal() and checked < 60:
            seat = s.current_player
            before = render(s, seat)
            others = [s.observation(q).hand.copy() for q in range(4) if q != seat]
            if s.resample_hidden(seat, rng):
                assert render(s, seat) == before
                after = [s.observation(q).hand for q in range(4) if q != seat]
                checked += any((x != y).any() for x, y in zip(others, after))
            s.apply(int(rng.choice(s.legal_actions())))
    assert checked > 10


def test_the_view_lists_the_letters_and_ends_the_round_in_words():
    g = unosim.Game("official", 2, seed=1)
    s = g.new_round(0)
    v = render(s)
    assert (
        "Legal actions:" in v
        and "\nA. " in v
        and v.endswith("Reply with the letter of one action.")
    )
    assert render(s.observation(s.current_player)).splitlines()[1:] == v.splitlines()[1:]
    rng = np.random.default_rng(0)
    while not s.is_terminal():
        s.apply(int(rng.choice(s.legal_actions())))
    end = render(s, 0)
    assert "The round is over" in end and "Legal actions" not in end


def test_the_policy_retries_then_falls_back_and_counts():
    s = unosim.Game("official", 2, seed=3).new_round(0)
    obs = s.observation(s.current_player)
    counts = MoveCounts()
    replies = iter(["no idea", "A"])
    errors = []

    def ask(view, error):
        errors.append(error)
        return next(replies)

    assert MovePolicy(1, counts).decide(obs, ask, "view") == obs.legal[0]
    assert errors[0] is None and "names no legal action" in errors[1]
    assert counts.as_dict() == {"decisions": 1, "invalid": 1, "fallbacks": 0}
    assert MovePolicy(2, counts).decide(obs, lambda v, e: "??", "view") == fallback_action(obs)
    assert counts.as_dict() == {"decisions": 2, "invalid": 4, "fallbacks": 1}
    assert fallback_action(obs) == (K.A_DRAW if K.A_DRAW in obs.legal else obs.legal[0])


# -- the chat agent, against a stand-in endpoint --------------------------------------------


class _StandIn(BaseHTTPRequestHandler):
    """An OpenAI-compatible chat endpoint: answers the first listed letter (a play when
    there is one), except every fifth request (nonsense) and, every 50th, nonsense twice
    in a row (a fallback)."""

    calls = 0
    keys: set = set()

    def do_POST(self):  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).calls += 1
        type(self).keys.add(self.headers.get("Authorization"))
        assert self.path == "/v1/chat/completions" and body["model"] == "stand-in"
        last = body["messages"][-1]["content"]
        letters = [
            ln.split(".")[0] for ln in last.splitlines() if ln[:1].isupper() and ". " in ln[:4]
        ]
        n = type(self).calls
        reply = "I like turtles" if n % 5 == 0 or n % 50 in (1, 2) else letters[0]
        out = json.dumps({"choices": [{"message": {"role": "assistant", "content": reply}}]})
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(out.encode())

    def log_message(self, *args):
        pass


@pytest.fixture
def endpoint(monkeypatch):
    server = ThreadingHTTPServer(("127.0.0.1", 0), _StandIn)
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    _StandIn.calls = 0
    monkeypatch.setenv("UNOSIM_LLM_URL", f"http://127.0.0.1:{server.server_address[1]}/v1")
    monkeypatch.setenv("UNOSIM_LLM_MODEL", "stand-in")
    monkeypatch.setenv("UNOSIM_LLM_KEY", "sk-test")
    yield server
    server.shutdown()
    server.server_close()


def test_the_chat_agent_plays_through_the_endpoint_and_counts_invalid_replies(endpoint):
    agent = ChatAgent()
    g = unosim.Game("official", 3, seed=8, opponents=[None, "random", "random"])
    for r in range(3):
        s = g.new_round(r)
        while not s.is_terminal():
            s.apply(agent.act(s.observation(s.current_player)))
    c = agent.counts.as_dict()
    assert c["decisions"] > 0 and c["invalid"] > 0 and c["fallbacks"] >= 1
    assert agent.requests == c["decisions"] - c["fallbacks"] + c["invalid"]  # a reply each
    assert _StandIn.keys == {"Bearer sk-test"}


def test_the_chat_agent_says_what_is_missing_in_one_line(monkeypatch):
    monkeypatch.delenv("UNOSIM_LLM_URL", raising=False)
    obs = unosim.Game("official", 2, seed=3).new_round(0).observation(0)
    with pytest.raises(EndpointError, match="UNOSIM_LLM_URL"):
        ChatAgent(model="m").act(obs)
    with pytest.raises(EndpointError, match="127.0.0.1:9"):
        ChatAgent(url="http://127.0.0.1:9/v1", model="m", timeout=2).act(obs)


def test_evaluate_scores_the_chat_agent_and_reports_invalid_moves(endpoint, tmp_path):
    from typer.testing import CliRunner

    from unosim.cli.app import app

    args = ["evaluate", "unosim.table.llm:agent", "--players", "2", "--games", "4"]
    args += ["--expert-games", "2", "--expert", "expert:rollouts=16;more=1", "--no-cache"]
    r = CliRunner().invoke(app, [*args, "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    line = next(ln for ln in r.output.splitlines() if ln.startswith("invalid moves:"))
    assert " per round" in line and "fallback" in line
    assert "invalid moves" in (tmp_path / "ladder.md").read_text()
    assert _StandIn.calls > 10
