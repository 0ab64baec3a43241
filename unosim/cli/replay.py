"""The replay command: rounds event by event, every move checked."""

from __future__ import annotations

from pathlib import Path

import typer

from .common import fail, one_line
from .options import House


def replay(
    rules: str | None = typer.Option(
        None, help="Preset name or TOML rule file (default official)."
    ),
    house: House = None,
    players: int | None = typer.Option(None, help="Players, 2 to 10 (default 4)."),
    strategies: str | None = typer.Option(None, help="As for simulate (default random)."),
    seed: int | None = typer.Option(None, help="Root seed of the run (default 0)."),
    game: int | None = typer.Option(None, help="Game index in the run (default 0)."),
    source: Path | None = typer.Option(
        None,
        "--from",
        help="Results of a run (simulate "
        "--out FILE or DIR): replay its games; rules, "
        "players, strategies, seed come from its manifest.",
    ),
    where: str | None = typer.Option(
        None,
        help="With --from: a condition on its "
        "rounds, e.g. 'max_stack >= 12 and winner == 0' "
        "(columns, numbers, comparisons, and/or/not, in "
        "[...]; never run as code).",
    ),
    limit: int = typer.Option(1, help="With --from: replay at most this many matching games."),
    hands: bool = typer.Option(False, "--hands", help="Show the hands each event changes."),
    as_json: bool = typer.Option(
        False,
        "--json",
        help="Print the events as JSON, one object per game and line, instead of text.",
    ),
    html: Path | None = typer.Option(
        None,
        "--html",
        help="Write the round as one offline page that steps through it with every "
        "hand open (one game: --limit 1), instead of printing it.",
    ),
) -> None:
    """Replay rounds event by event, exactly as their run played them; every move is
    checked against docs/rules.md (exit 1 if the checker finds a violation)."""
    import warnings

    from ..sim.dataset import DatasetWarning
    from ..sim.replay import NoMatch, dumps_json, format_text, stream_replays

    if html is not None:
        if as_json or hands:
            fail("--html writes a page: drop --json and --hands")
        if limit != 1:
            fail(f"--html writes one round: drop --limit {limit}")
        from ..sim.results import probe_writable

        try:
            probe_writable(html, "--html")
        except ValueError as e:
            fail(str(e))
    try:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always", DatasetWarning)
            reps, note = stream_replays(
                rules, house, players, strategies, seed, game, source, where, limit
            )
    except NoMatch as e:
        typer.echo(f"unosim: {e}", err=True)
        raise typer.Exit(1) from None
    except ValueError as e:
        fail(str(e))
    for w in seen:
        if issubclass(w.category, DatasetWarning):
            typer.echo(f"unosim: note: {one_line(w.message)}", err=True)
    if note:
        typer.echo(note, err=as_json)
    if html is not None:
        _write_page(reps, html)
        return
    broken = False
    try:
        for j, rp in enumerate(reps):  # each replay printed as soon as it is made
            if as_json:
                typer.echo(dumps_json(rp))
            else:
                typer.echo(("\n" if j or note else "") + format_text(rp, hands))
            broken = broken or bool(rp.violations)
    except ValueError as e:  # (an interrupt: the group's one line, exit 130)
        fail(str(e))
    if broken:
        raise typer.Exit(1)


def _write_page(reps, path: Path) -> None:
    """Replay the one round and write its page to ``path`` atomically (exit 1 if the
    checker finds a violation: the page is written all the same, marked)."""
    from ..sim.results import atomic_path, publish
    from ..table.watch import replay_page

    try:
        rp = next(iter(reps))
        text = replay_page(rp)
    except ValueError as e:
        fail(str(e))
    tmp = atomic_path(path)
    try:
        tmp.write_text(text, encoding="utf-8")
        publish(tmp, path)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        fail(f"--html {path}: {e.strerror or e}")
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    verdict = f"{len(rp.violations)} violation(s)" if rp.violations else "every move legal"
    typer.echo(f"wrote {path}: game {rp.game}, the move checker finds {verdict}")
    if rp.violations:
        raise typer.Exit(1)
