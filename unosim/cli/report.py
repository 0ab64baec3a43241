"""The report command: a page for your own question."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from .common import fail, one_line
from .options import NoProgress, Threads


def report(
    rules: list[str] = typer.Argument(
        ...,
        help="One rule set, or several each compared with "
        "the first (the baseline): a preset, a TOML file, or "
        "BASE+NAME=VALUE,... as for compare.",
    ),
    house: str | None = typer.Option(
        None, help="House switches added to every rule set, e.g. 'seven_zero=true'."
    ),
    players: str = typer.Option(
        "4", help="Players, 2 to 10: one count or several, e.g. '4,2,6' (the first leads)."
    ),
    strategies: str = typer.Option(
        "random", help="One strategy, or one per seat separated by commas (e.g. 'table')."
    ),
    games: int | None = typer.Option(
        None,
        help="Rounds per rule set and player count "
        "(default: 1,500,000 shared out, 20,000 to "
        "500,000).",
    ),
    seed: int = typer.Option(0, help="Root seed: round i of every rule set is keyed by (seed, i)."),
    out: Path = typer.Option(
        Path("report"), help="Folder to write: report.md, report.html, figures and CSVs in report/."
    ),
    title: str | None = typer.Option(None, help="Title of the page."),
    name: list[str] | None = typer.Option(
        None,
        "--name",
        help="The label of a rule set on the page, one --name per rule set in their "
        "order (default: display names, e.g. 'Official UNO with stacking (same card)').",
    ),
    force: bool = typer.Option(
        False,
        "--force",
        help="Replace --out if it is an earlier "
        "report (unosim's .unosim-report file in it, nothing else "
        "added); any other folder is refused.",
    ),
    seconds_per_turn: float = typer.Option(
        6.0,
        "--seconds-per-turn",
        help="The pace at your table, for minutes beside turns (default 6: an "
        "assumption, see docs/reports.md).",
    ),
    threads: Threads = None,
    no_progress: NoProgress = False,
) -> None:
    """A report page for your own question: one rule set described, or rule sets compared
    with the first on the same games, in plain sentences, figures and tables (Markdown,
    offline HTML, CSV); prints its opening sentences and the page to open."""
    import shlex
    import time

    from ..report.ask import Question, check_out, parse_players, prepare, write_report
    from ..report.escape import markup_text
    from . import progress as pg

    t0 = time.perf_counter()
    try:
        q = Question(
            list(rules),
            parse_players(players),
            strategies,
            games,
            seed,
            house,
            title,
            list(name) if name else None,
            seconds_per_turn,
        )
        prepare(q)
        check_out(out, force)
    except ValueError as e:
        fail(str(e))
    total = q.n_games * len(q.rules) * len(q.players)
    command = (
        "unosim report " + " ".join(shlex.quote(a) for a in sys.argv[2:])
        if len(sys.argv) > 2 and sys.argv[1] == "report"
        else None
    )
    try:
        with pg.progress_bar(total, 0, pg.wanted(total, no_progress)) as advance:
            page = write_report(q, out, force, threads, advance, command)
    except ValueError as e:
        fail(str(e))
    n_rules = len(q.rules)
    typer.echo(
        f"unosim report: {n_rules} rule set{'s' if n_rules > 1 else ''} x "
        f"{len(q.players)} player count{'s' if len(q.players) > 1 else ''}, "
        f"{q.n_games:,} rounds each, seed {seed}, {time.perf_counter() - t0:.1f} s"
    )
    if len(q.players) > 1:
        typer.echo(f"with {q.players[0]} players:")
    for sentence in page.opening:  # the plain findings, as plain text on one line each
        typer.echo(f"  {one_line(markup_text(sentence))}")
    for sentence in page.at_the_table:  # minutes, going first: in a family's words
        typer.echo(f"at the table     {one_line(markup_text(sentence))}")
    typer.echo(
        f"wrote            {one_line(out / (page.name + '.md'))} and "
        f"{len(page.figures)} figures in {one_line(out / page.name)}"
    )
    typer.echo(f"open             {one_line(out / (page.name + '.html'))}")
