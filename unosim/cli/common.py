"""What the commands share: one-line errors, interrupts, output checks, the summary."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import typer


class UserError(Exception):
    """Bad input: reported as one line on stderr, exit code 2, nothing written."""


def one_line(text: object) -> str:
    """``text`` with its line breaks and other control characters escaped, so what a
    user typed (a rule name, a condition) can never print a line of its own."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))


def fail(msg: str) -> None:
    typer.echo(f"unosim: error: {one_line(msg)}", err=True)
    raise typer.Exit(2)


@contextlib.contextmanager
def on_interrupt(left: str | Callable[[], str] | None = None) -> Iterator[None]:
    """Ctrl-C or SIGTERM in the block ends the command with one line, ``unosim:
    interrupted; LEFT`` (what the run leaves behind), and exit code 130. ``left`` may be
    a function, asked then (what is left can depend on how far the run got)."""
    try:
        yield
    except KeyboardInterrupt:
        said = left() if callable(left) else left
        typer.echo("unosim: interrupted" + (f"; {said}" if said else ""), err=True)
        raise typer.Exit(130) from None


def check_writable(out: Path) -> None:
    """Fail before any work if ``out`` cannot be written: a temporary file is created
    (and removed) where it will be (``os.access`` says yes to root everywhere).
    Temporary files an earlier, killed run left for ``out`` are removed."""
    from ..sim.results import check_path_name, probe_writable, remove_stale

    check_path_name(out)  # a name the file system takes, before it is looked at
    if out.exists() and out.is_dir():
        raise UserError(f"--out {out} is a directory")
    probe_writable(out)
    remove_stale(out)


def write_table(frame, out: Path, **to_csv) -> None:
    """Write the DataFrame ``frame`` as CSV at ``out`` at once: into a temporary file
    beside it (``.NAME.XXXXXXXX.tmp``, removed if the write fails), renamed over ``out``
    when complete (:func:`unosim.sim.results.publish`). ``to_csv``: pandas' options."""
    from ..sim.results import atomic_path, publish

    tmp = atomic_path(out)
    try:
        frame.to_csv(tmp, index=False, **to_csv)
        publish(tmp, out)
    finally:
        if tmp.exists():
            tmp.unlink()


def progress_enabled(no_progress: bool) -> bool:
    """A progress bar is drawn unless ``--no-progress`` or stderr is no terminal."""
    return not no_progress and sys.stderr.isatty()


def print_summary(df, n_players: int, seconds: float, label: str, computed=None) -> None:
    """The summary of a frame of rounds, or of an ``Aggregate`` (``computed``: the part
    of it run now, which the speed is measured on; default all of it)."""
    from ..sim.summary import Aggregate
    from ..stats import summary_table

    if isinstance(df, Aggregate):
        s = df.summary_table()
        ran = computed if computed is not None else df
        n_run, turns_total = ran.games, ran.totals["turns"]
    else:
        s = summary_table(df, n_players)
        n_run, turns_total = s["games"], int(df["turns"].sum())
    n = s["games"]
    typer.echo(f"{label}")
    if n_run == 0:
        typer.echo(f"games            {n:,} (none run now: all were done)")
    else:
        run_now = "" if n_run == n else f" ({n_run:,} run now)"
        typer.echo(
            f"games            {n:,}{run_now} in {seconds:.2f} s: "
            f"{n_run / max(seconds, 1e-9):,.0f} games/s, "
            f"{seconds / max(turns_total, 1) * 1e9:.0f} ns/turn"
        )
    typer.echo(
        f"seat win rates   (95% Wilson intervals; seat 0 acts first, seat {n_players - 1} deals)"
    )
    for row in s["seats"].itertuples():
        typer.echo(f"  seat {row.seat}  {row.rate:.4f}  [{row.lo:.4f}, {row.hi:.4f}]")
    typer.echo(
        f"turns            mean {s['turns_mean']:.2f} [{s['turns_lo']:.2f}, "
        f"{s['turns_hi']:.2f}], median {s['turns_median']:g}"
    )
    typer.echo(
        f"points           mean {s['points_mean']:.2f} [{s['points_lo']:.2f}, {s['points_hi']:.2f}]"
    )
    typer.echo(f"truncated        {s['truncated']:,} (max_turns reached; kept, no winner)")


def shown_rules(rs) -> str:
    """A rule set for a reader: its display name, then the rule syntax that gives it
    ("Official UNO with stacking (same card) = official+stacking=same"), on one line."""
    from ..game.names import display_ruleset

    shown = display_ruleset(rs)
    return one_line(rs.name if shown == rs.name else f"{shown} = {rs.name}")


def unmake_folder(out: Path | None, made: bool) -> None:
    """Remove the folder ``out`` if this run made it and it is still empty."""
    if made and out is not None:
        try:
            out.rmdir()
        except OSError:
            pass
