"""The design command: search rules for targets, write a page and a card."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from .common import fail, on_interrupt, one_line
from .options import NoProgress, Players, Strategies, Threads


def design(
    target: list[str] = typer.Option(
        ...,
        "--target",
        help="A target, repeatable: NAME=LO..HI, NAME<=X or NAME>=X; names turns, "
        "turns_median, seat0_edge (pp), stack8_share (%), points, truncated_share (%).",
    ),
    players: Players = 5,
    source: str = typer.Option(
        "official",
        "--from",
        help="The rule set to change: a preset, a TOML file or BASE+NAME=VALUE,...",
    ),
    vary: str | None = typer.Option(
        None,
        help="Rules to search, comma separated: NAME, NAME=LO..HI or NAME=A|B "
        "(default 'stacking,seven_zero,jump_in,draw_rule,hand_size').",
    ),
    strategies: Strategies = "random",
    budget: int = typer.Option(3_000_000, help="Rounds the search plays."),
    finalists: int = typer.Option(5, help="Rule sets confirmed on fresh rounds."),
    confirm_games: int = typer.Option(
        100_000, "--confirm-games", help="Fresh rounds per finalist (and for --from)."
    ),
    seed: int = typer.Option(0, help="Seed of the search's rounds (the same for every rule set)."),
    confirm_seed: int | None = typer.Option(
        None, "--confirm-seed", help="Seed of the confirmation (default: --seed + 1)."
    ),
    out: Path = typer.Option(
        ..., help="Folder to write: design.csv, design.md, design.html, card.html."
    ),
    force: bool = typer.Option(
        False, "--force", help="Replace --out if it is an earlier unosim design."
    ),
    threads: Threads = None,
    no_progress: NoProgress = False,
) -> None:
    """Search house rules and numeric rules for rule sets that meet every target; confirm
    the finalists on fresh rounds; write the ranking, a page and a house rules card."""
    import shlex

    from ..analysis import design as ds
    from ..report.design_page import check_out, write_design
    from . import progress as pg

    try:
        targets = ds.parse_targets(target)
        space = ds.parse_vary(vary)
        ds.check_budgets(budget, finalists, confirm_games)
        check_out(out, force)
    except ValueError as e:
        fail(str(e))
    command = (
        "unosim design " + " ".join(shlex.quote(a) for a in sys.argv[2:])
        if len(sys.argv) > 2 and sys.argv[1] == "design"
        else "unosim design"
    )
    total = budget + confirm_games * (finalists + 1)

    def note(msg: str) -> None:
        print(f"unosim design: {one_line(msg)}", file=sys.stderr, flush=True)

    try:
        with on_interrupt("nothing was written"):
            with pg.progress_bar(total, 0, pg.wanted(total, no_progress)) as advance:
                d = ds.design(
                    targets,
                    players,
                    source,
                    space,
                    strategies,
                    budget,
                    finalists,
                    confirm_games,
                    seed,
                    confirm_seed,
                    threads,
                    advance,
                    None if no_progress else note,
                )
            write_design(d, out, force, one_line(command))
    except ValueError as e:
        fail(str(e))
    best = d.best
    n_t = len(d.targets)
    typer.echo(
        f"unosim design: {len(d.searched):,} rule sets searched, {d.games:,} rounds in "
        f"{d.seconds:.0f} s; best on fresh seed {d.confirm_seed}: "
        f"{best.score[0]} of {n_t} targets met"
    )
    typer.echo(f"best             {one_line(best.spec)}")
    for t in d.targets:
        est, lo, hi = best.measures[t.metric]
        typer.echo(
            f"  {t.metric:16s} {est:.3f} [{lo:.3f}, {hi:.3f}]  "
            f"{'met' if t.met(est) else 'missed'} ({one_line(t.text)})"
        )
    typer.echo(f"wrote            {out}/design.csv, design.md, design.html, card.html")
