"""UNO over the Model Context Protocol: ``unosim mcp`` (the official ``mcp`` SDK, 2.x).

Four tools, for an assistant that speaks MCP to play a round with any rules:

``new_game(rules, players, opponents, seed, seat, house)``
    a round of ``rules`` (a preset name; ``house`` switches such as ``stacking=same``)
    with the caller at ``seat`` and built-in ``opponents`` (one name for all, or one per
    other seat, comma-separated); returns ``game_id`` and the caller's view.
``observe(game_id)``
    the caller's view in words (:func:`unosim.text.render`) and, as structured content,
    ``legal`` (a list of ``{id, text}``), ``over``, ``winner``, ``seat``, ``decision``.
``act(game_id, action)``
    play an action: its id, its letter or words (``"B"``, ``"red 7"``); an invalid one
    is a tool error naming why, the game unchanged; returns the view after it.
``rules(rules, house)``
    the rule set in words (its annotated TOML).

Games live in the server's memory, at most ``games.MAX_GAMES`` (the oldest is dropped).
"""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, TextContent

from ..game.rules import annotated_toml
from ..kernel.core import layout as L
from .games import Seated, TableError, Tables, rule_set
from .text import action_text, render


def view(game_id: str, g: Seated) -> tuple[str, dict]:
    """The caller's view: text, and the structured content."""
    s = g.state
    over = s.is_terminal()
    winner = int(s.record()[L.C_WINNER]) if over else None
    obs = s.observation(g.seat)
    legal = [
        {"id": a, "text": action_text(a, obs.decision, obs.pending_draw)}
        for a in (obs.legal if not over else [])
    ]
    data = {
        "game_id": game_id,
        "seat": g.seat,
        "rules": g.rules,
        "decision": s.decision,
        "legal": legal,
        "over": over,
        "winner": winner,
        "hand_sizes": [int(x) for x in obs.hand_sizes],
    }
    text = render(s, g.seat, rules=g.rules)
    return text, data


def rules_words(rules: str = "official", house: str | None = None) -> str:
    rs = rule_set(rules, house)
    return f"# rule set {rs.name}: {rs.deck_size()} cards\n" + annotated_toml(rs)


def build_server(tables: Tables | None = None):
    """The MCP server (``mcp.server.mcpserver.MCPServer``) with the four tools."""
    tables = tables or Tables()
    server = MCPServer(
        "unosim",
        instructions=(
            "Play UNO: new_game starts a round with you at one seat; observe shows your "
            "view and the legal actions; act plays one (an id, a letter or words)."
        ),
    )

    def result(game_id: str, g: Seated) -> CallToolResult:
        text, data = view(game_id, g)
        return CallToolResult(
            content=[TextContent(type="text", text=text)], structured_content=data
        )

    def refused(e: Exception) -> CallToolResult:
        return CallToolResult(content=[TextContent(type="text", text=str(e))], is_error=True)

    @server.tool()
    def new_game(
        rules: str = "official",
        players: int = 4,
        opponents: str = "random",
        seed: int = 0,
        seat: int = 0,
        house: str | None = None,
    ) -> CallToolResult:
        """Start a round of UNO: rules (a preset name), players (2-10), opponents (a
        built-in strategy for every other seat, or one per seat, comma-separated:
        random, heuristic, table, expert...), seed, your seat, house switches (e.g.
        'stacking=same,jump_in=true'). Returns game_id and your view."""
        try:
            gid, g = tables.new(rules, players, opponents, seed, seat, house)
        except TableError as e:
            return refused(e)
        return result(gid, g)

    @server.tool()
    def observe(game_id: str) -> CallToolResult:
        """Your view of the game: your hand, the table, and the legal actions (ids and
        words); over and winner at the end."""
        try:
            return result(game_id, tables.get(game_id))
        except TableError as e:
            return refused(e)

    @server.tool()
    def act(game_id: str, action: str) -> CallToolResult:
        """Play one legal action: its id ('80'), its letter in the view ('B') or its
        words ('red 7', 'wild draw four, blue', 'draw'). Returns the view after it."""
        try:
            return result(game_id, tables.act(game_id, action))
        except TableError as e:
            return refused(e)

    @server.tool()
    def rules(rules: str = "official", house: str | None = None) -> str:
        """The rule set in words: every rule with its meaning (annotated TOML)."""
        try:
            return rules_words(rules, house)
        except TableError as e:
            return f"error: {e}"

    return server


def serve(http: bool = False, port: int = 8765) -> None:
    """Serve on stdio, or streamable HTTP on 127.0.0.1:``port``."""
    server = build_server()
    if http:
        server.run("streamable-http", host="127.0.0.1", port=port)
    else:
        server.run("stdio")
