"""The table's commands: ``unosim play`` (a table in the browser) and ``unosim mcp`` (UNO
over the Model Context Protocol)."""

from __future__ import annotations

from pathlib import Path

import typer


def mcp(
    http: bool = typer.Option(False, help="Serve streamable HTTP on 127.0.0.1 instead of stdio."),
    port: int = typer.Option(8765, help="The HTTP port (with --http)."),
) -> None:
    """Serve UNO over the Model Context Protocol (stdio; --http: 127.0.0.1 only): the
    tools new_game, observe, act and rules, for an assistant to play a round."""
    from .common import fail

    if not 0 <= port <= 65535:
        fail(f"--port must be 0 to 65535, got {port}")
    try:
        from ..table.mcp_server import serve
    except ImportError as e:
        fail(f"unosim mcp needs the table extra (pip install 'unosim[table]'): {e}")
    try:
        serve(http=http, port=port)
    except KeyboardInterrupt:
        raise typer.Exit(130) from None


def play(
    port: int = typer.Option(0, help="The port on 127.0.0.1 (0: any free port)."),
    no_browser: bool = typer.Option(False, "--no-browser", help="Do not open a browser."),
    rules: str | None = typer.Option(
        None, help="Deal at once with these rules (a preset or a --rules-file's name)."
    ),
    rules_file: list[Path] = typer.Option(
        [],
        "--rules-file",
        help="A rule file (TOML; declared cards included) offered at the table by its "
        "name; repeat for more.",
    ),
    players: int | None = typer.Option(None, help="Deal at once with this many players."),
    opponents: str | None = typer.Option(None, help="Deal at once against these opponents."),
    seed: int | None = typer.Option(None, help="Deal at once with this seed."),
    budget: int | None = typer.Option(
        None, help="Deal at once; the expert opponents' rollouts per decision (1 to 1024)."
    ),
    match: bool = typer.Option(False, "--match", help="Deal at once a match to 500."),
    agent: str | None = typer.Option(
        None,
        help="Your agent (FILE.py:NAME or module:NAME), offered as the opponent 'agent'; "
        "it runs in a process of its own (an isolated seat), never in the server.",
    ),
) -> None:
    """Play UNO in the browser against built-in players, the expert or your agent:
    serves a table on 127.0.0.1 and prints its address, with a random token, on the
    first line."""
    from urllib.parse import urlencode

    from .common import fail

    if not 0 <= port <= 65535:
        fail(f"--port must be 0 to 65535, got {port}")
    from ..report.atlas_line import atlas_line

    try:
        from ..table.web import serve
    except ImportError as e:
        fail(f"unosim play needs the table extra (pip install 'unosim[table]'): {e}")
    seated = None
    if agent is not None:
        from ..players.strategies import StrategyError
        from ..sim.isolated import isolated_agent

        try:
            seated = isolated_agent(agent)
        except (StrategyError, OSError, ValueError) as e:
            fail(f"--agent {agent[:80]}: {str(e).splitlines()[0] if str(e) else e}")
    loaded = {}
    for path in rule_files_checked(rules_file, fail):
        loaded[path[0]] = path[1]
    if budget is not None and not 1 <= budget <= 1024:
        fail(f"--budget must be 1 to 1024 rollouts, got {budget}")
    given = {
        "rules": rules,
        "players": players,
        "opponents": opponents,
        "seed": seed,
        "budget": budget,
        "match": "on" if match else None,
    }
    query = urlencode({k: v for k, v in given.items() if v is not None})
    try:
        serve(
            port,
            open_browser=not no_browser,
            query=query,
            agent=seated,
            finding=atlas_line,
            rule_files=loaded,
        )
    except OSError as e:
        fail(f"--port {port}: {e.strerror or e}")
    except KeyboardInterrupt:
        raise typer.Exit(130) from None


def rule_files_checked(paths, fail):
    """``(name, RuleSet)`` of each rule file, or one line and exit 2 for a bad one."""
    from ..game.rules import PRESETS, RuleError, resolve

    seen = {}
    for path in paths:
        try:
            rs = resolve(str(path))
        except (RuleError, OSError, ValueError) as e:
            fail(f"--rules-file {str(path)[:200]}: {str(e).splitlines()[0] if str(e) else e}")
        name = rs.name
        if name in PRESETS or name in seen:
            fail(f"--rules-file {str(path)[:200]}: the name {name!r} is already offered")
        seen[name] = rs
        yield name, rs
