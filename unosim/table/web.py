"""``unosim play``: a table in the browser (Starlette, served by uvicorn on 127.0.0.1).

The page (``static/table.html``, ``table.js``, ``table.css``, shipped in the package: no
CDN) talks to a small JSON API; every request carries the random token printed with the
URL (the page's address holds it, its requests send it as ``X-Unosim-Token``), and a
request whose ``Host`` is not this server's address, or whose ``Origin`` is another
site's, is refused (DNS rebinding and cross-site requests). The person's seat is 0; the
others are built-in strategies played by the engine. Until the round ends, no response
holds a card the person's seat may not see: its view is :meth:`State.observation` of its
own seat; at the end every hand is shown.

API (JSON): ``POST /api/new`` ``{rules, house, players, opponents, seed, budget, match}``
-> a view; ``GET /api/view?game=ID``; ``POST /api/act`` ``{game, action}`` -> the view
after it; ``POST /api/next`` ``{game}`` -> a match's next round; ``POST /api/hint``
``{game}`` -> each legal action's estimated chance to win (:mod:`.hint`); ``GET
/api/setup`` -> the opponents offered.
A view: ``game``, ``seat``, ``hand`` (``[{kind, text}]``), ``top``, ``colour``, ``sizes``,
``pending``, ``events``, ``decision``, ``legal`` (``[{id, text}]``), ``over``,
``winner``, ``points``, ``match`` (``target``, ``scores``, ``round``, ``over``; None for a
single round), ``agent`` (the agent file's seats, its fallbacks and error; None without
one), and at the end ``hands`` (every seat's).
"""

from __future__ import annotations

import hmac
import json
import secrets
import socket
from importlib import resources

import numpy as np

from ..game.cards import COLOURS
from ..kernel.core import layout as L
from .games import AGENT, MAX_BUDGET, OPPONENTS, TableError, Tables
from .hint import hint
from .text import _recent, action_text, card_text

MAX_BODY = 16_384  # bytes of a request body
STATIC = {
    "table.js": "text/javascript; charset=utf-8",
    "table.css": "text/css; charset=utf-8",
}


def _cards(hand: np.ndarray) -> list[dict]:
    out = []
    for k in np.flatnonzero(hand).tolist():
        out += [{"kind": int(k), "text": card_text(k)}] * int(hand[k])
    return out


def person_view(gid: str, g) -> dict:
    """What the person's seat may see now (every hand once the round is over)."""
    s = g.state
    obs = s.observation(g.seat)
    over = s.is_terminal()
    rec = s.record()
    v = {
        "game": gid,
        "seat": g.seat,
        "rules": g.rules,
        "opponents": list(g.opponents),
        "hand": _cards(obs.hand),
        "top": {"kind": obs.top, "text": card_text(obs.top)},
        "colour": COLOURS[obs.colour],
        "direction": obs.direction,
        "sizes": [int(x) for x in obs.hand_sizes],
        "pending": obs.pending_draw,
        "draw_pile": obs.draw_pile,
        "events": _recent(obs.history, g.seat),
        "decision": s.decision,
        "legal": [
            {"id": a, "text": action_text(a, obs.decision, obs.pending_draw)}
            for a in ([] if over else obs.legal)
        ],
        "over": over,
        "winner": int(rec[L.C_WINNER]) if over else None,
        "points": int(rec[L.C_POINTS]) if over else None,
        "match": (
            {
                "target": g.target,
                "scores": list(g.scores),
                "round": g.rounds,
                "over": g.match_over,
            }
            if g.target
            else None
        ),
        "agent": (
            {"seats": list(g.agent_seats), "fallbacks": g.agent_fallbacks, "error": g.agent_error}
            if g.agent_seats
            else None
        ),
    }
    if over:
        v["finding"] = g.finding
        v["hands"] = [_cards(s.observation(q).hand) for q in range(len(v["sizes"]))]
    return v


def build_app(token: str, port_ref: list[int], tables: Tables | None = None):
    """The Starlette app; ``port_ref[0]`` is the port it is served on (known once bound)."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, PlainTextResponse, Response
    from starlette.routing import Route

    tables = tables or Tables()

    def allowed(request: Request, need_token: bool) -> Response | None:
        port = port_ref[0]
        hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}
        if request.headers.get("host", "") not in hosts:
            return PlainTextResponse("wrong Host", status_code=403)
        origin = request.headers.get("origin")
        if origin is not None and origin not in {f"http://{h}" for h in hosts}:
            return PlainTextResponse("wrong Origin", status_code=403)
        if need_token:
            given = request.headers.get("x-unosim-token") or request.query_params.get("token", "")
            if not hmac.compare_digest(given.encode(), token.encode()):
                return PlainTextResponse("wrong or missing token", status_code=403)
        return None

    def static(name: str) -> bytes:
        return resources.files("unosim.table").joinpath("static").joinpath(name).read_bytes()

    async def page(request: Request) -> Response:
        bad = allowed(request, True)
        if bad:
            return bad
        return Response(static("table.html"), media_type="text/html; charset=utf-8")

    async def asset(request: Request) -> Response:
        bad = allowed(request, False)
        if bad:
            return bad
        name = request.path_params["name"]
        if name not in STATIC:
            return PlainTextResponse("not found", status_code=404)
        return Response(static(name), media_type=STATIC[name])

    async def body(request: Request) -> dict:
        raw = await request.body()
        if len(raw) > MAX_BODY:
            raise TableError("request body too large")
        try:
            d = json.loads(raw or b"{}")
        except ValueError:
            raise TableError("the request body is not JSON") from None
        if not isinstance(d, dict):
            raise TableError("the request body must be a JSON object")
        return d

    def refused(e: Exception) -> Response:
        return JSONResponse({"error": str(e)}, status_code=400)

    async def new(request: Request) -> Response:
        bad = allowed(request, True)
        if bad:
            return bad
        try:
            d = await body(request)
            players = _int(d.get("players", 4), "players")
            seed = _int(d.get("seed", 0), "seed")
            budget = _int(d["budget"], "budget") if d.get("budget") not in (None, "") else None
            gid, g = tables.new(
                str(d.get("rules", "official")),
                players,
                str(d.get("opponents", "random")),
                seed,
                0,
                str(d["house"]) if d.get("house") else None,
                budget=budget,
                match=d.get("match") in (True, "true", "on", "1", 1),
            )
        except TableError as e:
            return refused(e)
        return JSONResponse(person_view(gid, g))

    async def view(request: Request) -> Response:
        bad = allowed(request, True)
        if bad:
            return bad
        gid = request.query_params.get("game", "")
        try:
            return JSONResponse(person_view(gid, tables.get(gid)))
        except TableError as e:
            return refused(e)

    async def act(request: Request) -> Response:
        bad = allowed(request, True)
        if bad:
            return bad
        try:
            d = await body(request)
            gid = str(d.get("game", ""))
            g = tables.act(gid, d.get("action"))
        except TableError as e:
            return refused(e)
        return JSONResponse(person_view(gid, g))

    async def next_round(request: Request) -> Response:
        bad = allowed(request, True)
        if bad:
            return bad
        try:
            d = await body(request)
            gid = str(d.get("game", ""))
            g = tables.next_round(gid)
        except TableError as e:
            return refused(e)
        return JSONResponse(person_view(gid, g))

    async def give_hint(request: Request) -> Response:
        bad = allowed(request, True)
        if bad:
            return bad
        try:
            d = await body(request)
            gid = str(d.get("game", ""))
            with tables.lock:
                g = tables.get(gid)
                v = person_view(gid, g)
                texts = {a["id"]: a["text"] for a in v["legal"]}
                return JSONResponse(hint(g.state, g.seat, texts))
        except TableError as e:
            return refused(e)

    async def setup(request: Request) -> Response:
        bad = allowed(request, True)
        if bad:
            return bad
        names = list(OPPONENTS) + ([AGENT] if tables.agent is not None else [])
        return JSONResponse(
            {
                "opponents": names,
                "agent": tables.agent.label if tables.agent is not None else None,
                "max_budget": MAX_BUDGET,
            }
        )

    return Starlette(
        routes=[
            Route("/", page),
            Route("/static/{name}", asset),
            Route("/api/new", new, methods=["POST"]),
            Route("/api/view", view),
            Route("/api/act", act, methods=["POST"]),
            Route("/api/next", next_round, methods=["POST"]),
            Route("/api/hint", give_hint, methods=["POST"]),
            Route("/api/setup", setup),
        ]
    )


def _int(v, name: str) -> int:
    if isinstance(v, bool):
        raise TableError(f"{name} must be a whole number")
    try:
        return int(str(v)[:30])
    except ValueError:
        raise TableError(f"{name} must be a whole number") from None


def serve(
    port: int = 0,
    open_browser: bool = True,
    query: str = "",
    agent=None,
    finding=None,
    rule_files=None,
) -> None:
    """Bind 127.0.0.1:``port`` (0: any free port), print the URL with its token on the
    first line, open the browser (unless told not to), and serve until interrupted.
    ``agent``: an isolated seat (``unosim.sim.isolated.isolated_agent``) offered as the
    opponent ``agent``; ``finding``: a line on the rules after each round (``Tables``)."""
    import uvicorn

    token = secrets.token_urlsafe(24)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(128)  # connections wait from now on, before uvicorn is ready
    bound = sock.getsockname()[1]
    app = build_app(token, [bound], Tables(agent=agent, finding=finding, rule_files=rule_files))
    url = f"http://127.0.0.1:{bound}/?token={token}" + (f"&{query}" if query else "")
    print(url, flush=True)
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    config = uvicorn.Config(app, log_level="warning", access_log=False)
    uvicorn.Server(config).run(sockets=[sock])
