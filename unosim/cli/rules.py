"""Commands that list what there is: strategies, rules list, show and table."""

from __future__ import annotations

from pathlib import Path

import typer

from .common import fail


def strategies() -> None:
    """List the players (--strategies NAME), one line each: its name and how it plays;
    parameters and outside players are in docs/players.md."""
    from ..players.expert import NAME, SUMMARY
    from ..players.params import STRATEGY_DECLARATIONS

    lines = [(s.name, s.doc) for s in STRATEGY_DECLARATIONS] + [(NAME, SUMMARY)]
    width = max(len(name) for name, _ in lines)
    for name, doc in lines:
        typer.echo(f"{name:<{width}}  {doc}")


def rules_list() -> None:
    """List the presets."""
    from ..game.rules import PRESET_NOTES, PRESETS

    for name, rs in PRESETS.items():
        typer.echo(f"{name:20s} {rs.deck_size():4d} cards  {PRESET_NOTES[name]}")


def rules_show(
    name: str = typer.Argument("official", help="Preset name or TOML rule file."),
    house: str | None = typer.Option(None, help="House switches to add."),
) -> None:
    """Show every rule of a rule set (as TOML) and its hash."""
    from ..game.rules import annotated_toml, resolve

    try:
        rs = resolve(name, house)
    except ValueError as e:
        fail(str(e))
    typer.echo(f"# rule set {rs.name}: {rs.deck_size()} cards, hash {rs.hash()}")
    typer.echo(annotated_toml(rs))


def rules_table_cmd(
    doc: Path | None = typer.Argument(
        None, help="Markdown file whose rules table (between its rules-table markers) is rewritten."
    ),
) -> None:
    """Print the table of every rule, or rewrite it in DOC (docs/rules.md)."""
    from ..game.rules import rules_table, update_rules_doc

    if doc is None:
        typer.echo(rules_table(), nl=False)
        return
    try:
        changed = update_rules_doc(doc)
    except (OSError, ValueError) as e:
        fail(str(e))
    typer.echo(f"{doc}: {'updated' if changed else 'up to date'}")
