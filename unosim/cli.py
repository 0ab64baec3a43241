"""The ``unosim`` command line."""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Optional

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Monte Carlo rules analysis for UNO.")
rules_app = typer.Typer(no_args_is_help=True, help="List and show rule sets.")
app.add_typer(rules_app, name="rules")


class UserError(Exception):
    """Bad input: reported as one line on stderr, exit code 2, nothing written."""


def fail(msg: str) -> None:
    typer.echo(f"unosim: error: {msg}", err=True)
    raise typer.Exit(2)


def check_writable(out: Path) -> None:
    """Fail before any work if ``out`` cannot be written."""
    if out.exists() and out.is_dir():
        raise UserError(f"--out {out} is a directory")
    parent = out.parent if str(out.parent) else Path(".")
    probe = parent
    while not probe.exists():
        probe = probe.parent
    if not probe.is_dir() or not os.access(probe, os.W_OK | os.X_OK):
        raise UserError(f"--out {out}: cannot write in {probe}")
    if out.exists() and not os.access(out, os.W_OK):
        raise UserError(f"--out {out}: file is not writable")


def _progress_enabled(no_progress: bool) -> bool:
    return not no_progress and sys.stderr.isatty()


def print_summary(df, n_players: int, seconds: float, label: str) -> None:
    from .stats import summary_table

    s = summary_table(df, n_players)
    n = s["games"]
    turns_total = int(df["turns"].sum())
    typer.echo(f"{label}")
    typer.echo(f"games            {n:,} in {seconds:.2f} s: {n / seconds:,.0f} games/s, "
               f"{seconds / max(turns_total, 1) * 1e9:.0f} ns/turn")
    typer.echo("seat win rates   (95% Wilson intervals; seat 0 acts first, "
               f"seat {n_players - 1} deals)")
    for row in s["seats"].itertuples():
        typer.echo(f"  seat {row.seat}  {row.rate:.4f}  [{row.lo:.4f}, {row.hi:.4f}]")
    typer.echo(f"turns            mean {s['turns_mean']:.2f} [{s['turns_lo']:.2f}, "
               f"{s['turns_hi']:.2f}], median {s['turns_median']:g}")
    typer.echo(f"points           mean {s['points_mean']:.2f} [{s['points_lo']:.2f}, "
               f"{s['points_hi']:.2f}]")
    typer.echo(f"truncated        {s['truncated']:,} (max_turns reached; kept, no winner)")


@app.command()
def simulate(
    rules: str = typer.Option("official", help="Preset name or TOML rule file."),
    house: Optional[str] = typer.Option(None, help="House switches, e.g. "
                                        "'stacking=same,jump_in=true'."),
    players: int = typer.Option(4, help="Players, 2 to 10."),
    strategies: str = typer.Option("random", help="One strategy, or one per seat "
                                   "separated by commas (e.g. 'heuristic,random,random,random')."),
    games: int = typer.Option(100_000, help="Rounds to simulate."),
    seed: int = typer.Option(0, help="Root seed: same seed, same results."),
    threads: Optional[int] = typer.Option(None, help="Threads (default: all cores)."),
    out: Optional[Path] = typer.Option(None, help="Write the rounds to this Parquet file."),
    no_progress: bool = typer.Option(False, "--no-progress", help="No progress bar."),
) -> None:
    """Simulate rounds and print a summary; optionally write Parquet with a manifest."""
    from .results import write_parquet
    from .simulate import BLOCK, iter_frames, make_job

    try:
        if threads is not None and threads < 1:
            raise UserError(f"--threads must be at least 1, got {threads}")
        job = make_job(rules, games, players, strategies, seed, house)
        if out is not None:
            check_writable(out)
    except (ValueError, UserError) as e:
        fail(str(e))
    import pandas as pd

    frames = []
    t0 = time.perf_counter()
    if _progress_enabled(no_progress) and games > BLOCK // 4:
        from rich.progress import Progress

        with Progress(*Progress.get_default_columns(), transient=True) as bar:
            task = bar.add_task("simulating", total=games)
            for f in iter_frames(job, threads, block=BLOCK // 4):
                frames.append(f)
                bar.advance(task, len(f))
    else:
        frames = list(iter_frames(job, threads))
    seconds = time.perf_counter() - t0
    df = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    label = (f"unosim {job.rules.name} (rules {job.rules.hash()}), {players} players, "
             f"strategies {','.join(job.labels)}, seed {seed}")
    print_summary(df, players, seconds, label)
    if out is not None:
        write_parquet(df, out, job.manifest())
        typer.echo(f"wrote            {out}")


@rules_app.command("list")
def rules_list() -> None:
    """List the presets."""
    from .rules import PRESET_NOTES, PRESETS

    for name, rs in PRESETS.items():
        typer.echo(f"{name:20s} {rs.deck_size():4d} cards  {PRESET_NOTES[name]}")


@rules_app.command("show")
def rules_show(
    name: str = typer.Argument("official", help="Preset name or TOML rule file."),
    house: Optional[str] = typer.Option(None, help="House switches to add."),
) -> None:
    """Show every rule of a rule set (as TOML) and its hash."""
    from .rules import resolve

    try:
        rs = resolve(name, house)
    except ValueError as e:
        fail(str(e))
    typer.echo(f"# rule set {rs.name}: {rs.deck_size()} cards, hash {rs.hash()}")
    typer.echo(rs.to_toml())


def main() -> None:
    app()


if __name__ == "__main__":
    main()
