"""Commands that play rounds or matches: simulate, match, compare."""

from __future__ import annotations

from pathlib import Path

import typer

from .common import (
    UserError,
    check_writable,
    fail,
    on_interrupt,
    one_line,
    print_summary,
    progress_enabled,
    shown_rules,
    write_table,
)
from .options import NoProgress, Players, Rules, Seed, Strategies, Threads, check_threads


def simulate(
    rules: Rules = "official",
    house: str | None = typer.Option(
        None, help="House switches, e.g. 'stacking=same,jump_in=true'."
    ),
    players: Players = 4,
    strategies: str = typer.Option(
        "random",
        help="One strategy, or one per seat "
        "separated by commas (e.g. 'heuristic,random,random,random').",
    ),
    games: int = typer.Option(100_000, help="Rounds to simulate."),
    seed: Seed = 0,
    threads: int | None = typer.Option(
        None,
        help="Threads (default: all cores); with --executor dask, local worker processes.",
        callback=check_threads,
    ),
    out: Path | None = typer.Option(
        None,
        help="FILE.parquet: one file of rounds; DIR: a dataset folder, one Parquet part per chunk.",
    ),
    no_progress: NoProgress = False,
    executor: str | None = typer.Option(
        None, help="serial | threads | dask (default: threads on every core of this machine)."
    ),
    scheduler: str | None = typer.Option(
        None, help="tcp://HOST:PORT of a running Dask scheduler (else dask starts a LocalCluster)."
    ),
    chunk_games: int | None = typer.Option(
        None, "--chunk-games", help="Games per chunk (default 1048576; 4194304 --summary-only)."
    ),
    summary_only: bool = typer.Option(
        False,
        "--summary-only",
        help="Keep per-chunk aggregates (counts, sums, histograms), not rows.",
    ),
    resume: bool = typer.Option(
        False,
        "--resume",
        help="Continue the interrupted run in --out DIR, computing only its missing chunks.",
    ),
) -> None:
    """Simulate rounds and print a summary; optionally write Parquet with a manifest."""
    from ..sim.dataset import DatasetError
    from ..sim.runner import EXECUTORS, execute, is_file_out, prepare
    from ..sim.simulate import make_job
    from . import progress as pg

    try:
        if executor is None:
            executor = "dask" if scheduler is not None else "threads"
        if executor not in EXECUTORS:
            raise UserError(f"--executor must be one of {', '.join(EXECUTORS)}, got {executor!r}")
        job = make_job(rules, games, players, strategies, seed, house)
        if out is not None and is_file_out(out):
            check_writable(out)
        plan = prepare(
            job,
            out,
            executor=executor,
            threads=threads,
            scheduler=scheduler,
            chunk_games=chunk_games,
            summary_only=summary_only,
            resume=resume,
        )
    except (ValueError, UserError) as e:
        fail(str(e))
    if plan.damaged:
        typer.echo(
            f"resuming        {len(plan.damaged)} chunk(s) that fail their check "
            f"will be computed again: {'; '.join(map(one_line, plan.damaged))}",
            err=True,
        )
    if plan.strays and plan.root is not None:  # strays are files of a dataset folder
        from ..sim.dataset import stray_note

        typer.echo(f"unosim: note: {one_line(stray_note(plan.root, list(plan.strays)))}", err=True)
    import threading

    from ..sim.simulate import warm

    # a compile, not a load from the cache, takes over 10 s: say so while it runs
    compiling = threading.Timer(
        10.0,
        lambda: typer.echo(
            "compiling        the kernels this run needs (once: numba caches them)...", err=True
        ),
    )
    compiling.daemon = True
    compiling.start()
    try:
        compile_s = warm(job)  # the kernels compile (once) before the clock starts
    finally:
        compiling.cancel()
    if compile_s > 10.0:  # a compile, not a load from the cache
        typer.echo(
            f"compiled         the kernels in {compile_s:.1f} s (once: numba caches "
            "them; not counted in the speed below)",
            err=True,
        )
    if resume and len(plan.todo) < len(plan.chunks):
        typer.echo(
            f"resuming        {len(plan.chunks) - len(plan.todo)} of "
            f"{len(plan.chunks)} chunks already in {out}",
            err=True,
        )

    def left() -> str:
        from ..sim.dataset import MANIFEST

        if plan.root is not None and (plan.root / MANIFEST).exists():
            return (
                f"finished chunks are kept in {out}: the same command with --resume "
                "computes the rest"
            )
        return "nothing was written"

    try:
        with (
            on_interrupt(left),
            pg.progress_bar(
                job.n_games, job.n_games - plan.games_todo, pg.wanted(plan.games_todo, no_progress)
            ) as advance,
        ):
            res = execute(plan, advance)
    except (ConnectionError, DatasetError) as e:
        fail(str(e))
    except OSError as e:
        fail(f"--out {out}: {e.strerror or e}")
    label = (
        f"unosim {shown_rules(job.rules)} (rules {job.rules.hash()}), {players} players, "
        f"strategies {','.join(job.labels)}, seed {seed}"
    )
    print_summary(res.total, players, res.seconds, label, res.computed)
    if out is not None:
        n_chunks = len(plan.chunks)
        what = (
            ""
            if plan.root is None
            else (
                f" ({n_chunks} chunk{'s' if n_chunks > 1 else ''}, "
                f"{'aggregates only' if plan.manifest['summary_only'] else 'rows'})"
            )
        )
        typer.echo(f"wrote            {out}{what}")


def match(
    rules: Rules = "official",
    house: str | None = typer.Option(
        None, help="House switches, e.g. 'scoring=each_own_negative,next_dealer=winner'."
    ),
    players: Players = 4,
    strategies: str = typer.Option(
        "random",
        help="One strategy, or one per PLAYER "
        "separated by commas; players keep theirs in any seat.",
    ),
    matches: int = typer.Option(100_000, help="Matches to simulate."),
    seed: Seed = 0,
    threads: Threads = None,
    out: Path | None = typer.Option(
        None,
        help="Write the matches to this Parquet file "
        "and their rounds beside it (X.rounds.parquet).",
    ),
    no_progress: NoProgress = False,
) -> None:
    """Simulate whole matches (docs/rules.md section 7) and print a summary."""
    from ..sim.match import make_match_job, rounds_path

    try:
        job = make_match_job(rules, matches, players, strategies, seed, house)
        if out is not None:
            check_writable(out)
            check_writable(rounds_path(out))
    except (ValueError, UserError) as e:
        fail(str(e))
    with on_interrupt("nothing was written"):  # no file is left half-written
        _play_matches(job, players, threads, seed, out, no_progress)


def _play_matches(job, players: int, threads, seed: int, out, no_progress: bool) -> None:
    import time

    from ..sim.match import match_manifest, match_summary, run_matches, write_matches

    matches = job.n_games
    t0 = time.perf_counter()
    try:
        if progress_enabled(no_progress) and matches >= 20_000:
            from rich.progress import Progress

            with Progress(*Progress.get_default_columns(), transient=True) as bar:
                task = bar.add_task("simulating", total=matches)
                mdf, rdf = run_matches(job, threads, progress=lambda k: bar.advance(task, k))
        else:
            mdf, rdf = run_matches(job, threads)
    except ValueError as e:
        fail(str(e))
    seconds = time.perf_counter() - t0
    rs = job.rules
    end = (
        f"penalty elimination at {rs.elimination_score}"
        if rs.penalty_elimination
        else f"to {rs.target_score}"
    )
    typer.echo(
        f"unosim {shown_rules(rs)} (rules {rs.hash()}), {players} players, strategies "
        f"{','.join(job.labels)} (by player), seed {seed}"
    )
    typer.echo(
        f"match            {end}, scoring {rs.scoring}, next dealer {rs.next_dealer}, "
        f"at most {rs.max_rounds} rounds"
    )
    s = match_summary(mdf, rdf, players)
    typer.echo(
        f"matches          {s['matches']:,} ({s['rounds']:,} rounds) in {seconds:.2f} s: "
        f"{s['matches'] / seconds:,.0f} matches/s, {s['rounds'] / seconds:,.0f} rounds/s"
    )
    typer.echo(f"match win rates  (95% Wilson intervals; player {players - 1} deals first)")
    for row in s["players"].itertuples():
        typer.echo(
            f"  player {row.player}  {row.rate:.4f}  [{row.lo:.4f}, {row.hi:.4f}]  "
            f"{job.labels[row.player]}"
        )
    if s["completed"]:
        typer.echo(
            f"rounds/match     mean {s['rounds_mean']:.2f} [{s['rounds_lo']:.2f}, "
            f"{s['rounds_hi']:.2f}], median {s['rounds_median']:g}, "
            f"90th percentile {s['rounds_p90']:g} (completed matches)"
        )
    else:
        typer.echo("rounds/match     no match completed")
    typer.echo(
        f"points/round     mean {s['points_mean']:.2f} [{s['points_lo']:.2f}, "
        f"{s['points_hi']:.2f}] (completed rounds)"
    )
    typer.echo(
        f"truncated        {s['truncated']:,} matches (max_rounds reached; kept, no "
        f"winner), {s['truncated_rounds']:,} rounds (max_turns)"
    )
    if out is not None:
        try:
            m_path, r_path = write_matches(mdf, rdf, out, match_manifest(job))
        except OSError as e:
            fail(f"--out {out}: {e.strerror or e}")
        typer.echo(f"wrote            {m_path} and {r_path}")


def compare(
    rules: list[str] = typer.Argument(
        ...,
        help="Two or more rule sets, each compared with "
        "the first: a preset, a TOML file, or "
        "BASE+NAME=VALUE,... (e.g. "
        "'official+stacking=same,jump_in=true').",
    ),
    players: Players = 4,
    strategies: Strategies = "random",
    games: int = typer.Option(100_000, help="Rounds per rule set."),
    seed: int = typer.Option(0, help="Root seed: game i of every rule set is keyed by (seed, i)."),
    threads: Threads = None,
    boot: int = typer.Option(
        1000, "--boot", help="Bootstrap replicates for the difference of medians."
    ),
    out: Path | None = typer.Option(None, help="Also write the table as CSV."),
    no_progress: NoProgress = False,
) -> None:
    """Play rule sets on the same seeds; paired differences against the first."""
    from ..analysis.compare import compare as run_compare
    from ..analysis.compare import parse_spec
    from ..sim.simulate import make_job
    from . import progress as pg

    try:
        if len(rules) < 2:
            raise UserError("compare needs at least two rule sets")
        from ..analysis.compare import MAX_BOOT, check_size

        if not 2 <= boot <= MAX_BOOT:
            raise UserError(f"--boot must be between 2 and {MAX_BOOT:,}, got {boot:,}")
        specs = [parse_spec(r) for r in rules]
        check_size(len(specs), games)
        for rs in specs:  # every input checked before any game is played
            make_job(rs, games, players, strategies, seed)
        if out is not None:
            check_writable(out)
    except (ValueError, UserError) as e:
        fail(str(e))
    total = games * len(specs)
    with pg.progress_bar(total, 0, pg.wanted(total, no_progress)) as advance:
        res = run_compare(
            specs, players, games, seed, strategies, threads, n_boot=boot, progress=advance
        )
    typer.echo(res.format())
    if out is not None:
        try:
            write_table(res.table, out, float_format="%.10g", lineterminator="\n")
        except OSError as e:
            fail(f"--out {out}: {e.strerror or e}")
        typer.echo(f"wrote            {out}")
