"""The Typer application: its group (one-line usage errors, interrupts) and SIGTERM."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import typer

from .common import fail, on_interrupt

if TYPE_CHECKING:
    import click


def _usage_errors() -> tuple[type[click.UsageError], ...]:
    """click's UsageError, and that of the click typer bundles (typer >= 0.24; the same
    class in another module)."""
    import click

    bundled = getattr(typer.core, "_click", None)
    return (click.UsageError,) + ((bundled.exceptions.UsageError,) if bundled else ())


class _Group(typer.core.TyperGroup):
    """A mistyped command, option or value (a usage error) is one `unosim: error:` line
    with exit code 2, like every other bad input."""

    def invoke(self, ctx):
        with on_interrupt():  # a command that does not say more (an agent thinking)
            try:
                return super().invoke(ctx)
            except _usage_errors() as e:
                if type(e).__name__ == "NoArgsIsHelpError":  # `unosim rules`: the help
                    raise
                fail(e.format_message())
            except ValueError as e:  # an outside agent failed, wherever it was asked
                outside = sys.modules.get("unosim.sim.outside")  # (none ran if not imported)
                if outside is None or not isinstance(e, outside.AgentError):
                    raise
                fail(str(e))

    def format_commands(self, ctx, formatter) -> None:
        """Each command with the whole first sentence of its help, wrapped to the
        terminal (click's own list cuts it at the width with '...')."""
        rows = []
        for name in self.list_commands(ctx):
            cmd = self.get_command(ctx, name)
            if cmd is not None and not cmd.hidden:
                rows.append((name, cmd.get_short_help_str(limit=10_000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


# Plain click help (rich_markup_mode=None): it rewraps each paragraph to the terminal,
# never breaking a sentence where the source line ends, and it spares every command
# the import of rich (0.3-0.7 s), so help and one-line errors come at once.
app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    cls=_Group,
    help="Monte Carlo rules analysis for UNO.",
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)
rules_app = typer.Typer(
    no_args_is_help=True, cls=_Group, help="List and show rule sets.", rich_markup_mode=None
)
app.add_typer(rules_app, name="rules")


class Terminated(KeyboardInterrupt):
    """SIGTERM, handled like Ctrl-C: temporary files removed, finished chunks kept."""


def _on_sigterm(signum, frame) -> None:
    raise Terminated()


@app.callback()
def _setup() -> None:
    import signal
    import threading

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _on_sigterm)
