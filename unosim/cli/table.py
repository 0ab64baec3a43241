"""The table's commands: ``unosim mcp`` (UNO over the Model Context Protocol)."""

from __future__ import annotations

import typer


def mcp(
    http: bool = typer.Option(False, help="Serve streamable HTTP on 127.0.0.1 instead of stdio."),
    port: int = typer.Option(8765, help="The HTTP port (with --http)."),
) -> None:
    """Serve UNO over the Model Context Protocol (stdio; --http: 127.0.0.1 only): the
    tools new_game, observe, act and rules, for an assistant to play a round."""
    from .app import fail

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


def register(app: typer.Typer) -> None:
    """Add the table's commands to ``app``."""
    app.command("mcp")(mcp)
