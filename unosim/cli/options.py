"""The options several commands share, defined once as ``Annotated`` aliases.

A command states the default beside the alias (``players: Players = 4``); an option
whose help says something of its own command stays in that command. The checks made
while the command line is read (``--rules``, ``--threads``) are callbacks here, so a bad
value is a one-line error before the command imports numba.
"""

from __future__ import annotations

from typing import Annotated

import typer

from .common import fail

RULES_HELP = "Preset name or TOML rule file."


def check_rules_option(value: str | None) -> str | None:
    """``--rules``'s first check, made while the command line is read and before the
    command imports numba: a missing rule file or a misspelt preset is a one-line error
    at once (with the name it probably meant)."""
    from ..game.spelling import precheck_rules

    why = precheck_rules(value) if value is not None else None
    if why:
        fail(why)
    return value


def check_threads(value: int | None) -> int | None:
    """``--threads``: none (every core) or at least 1."""
    if value is not None and value < 1:
        fail(f"--threads must be at least 1, got {value}")
    return value


Rules = Annotated[str, typer.Option(help=RULES_HELP, callback=check_rules_option)]
House = Annotated[str | None, typer.Option(help="House switches, e.g. 'stacking=same'.")]
Players = Annotated[int, typer.Option(help="Players, 2 to 10.")]
Strategies = Annotated[str, typer.Option(help="One strategy, or one per seat separated by commas.")]
Seed = Annotated[int, typer.Option(help="Root seed: same seed, same results.")]
Threads = Annotated[
    int | None, typer.Option(help="Threads (default: all cores).", callback=check_threads)
]
NoProgress = Annotated[bool, typer.Option("--no-progress", help="No progress bar.")]
