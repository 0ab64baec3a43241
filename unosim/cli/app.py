"""The ``unosim`` command line."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

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
        try:
            return super().invoke(ctx)
        except _usage_errors() as e:
            if type(e).__name__ == "NoArgsIsHelpError":  # `unosim rules`: the help
                raise
            fail(e.format_message())
        except ValueError as e:  # an outside agent failed, wherever it was asked (warm-up)
            outside = sys.modules.get("unosim.sim.outside")  # (no agent ran if not imported)
            if outside is None or not isinstance(e, outside.AgentError):
                raise
            fail(str(e))
        except KeyboardInterrupt:  # a command that does not say more (an agent thinking)
            typer.echo("unosim: interrupted", err=True)
            raise typer.Exit(130) from None

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


class UserError(Exception):
    """Bad input: reported as one line on stderr, exit code 2, nothing written."""


def one_line(text: object) -> str:
    """``text`` with its line breaks and other control characters escaped, so what a
    user typed (a rule name, a condition) can never print a line of its own."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))


def fail(msg: str) -> None:
    typer.echo(f"unosim: error: {one_line(msg)}", err=True)
    raise typer.Exit(2)


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


def _check_rules_option(value: str | None) -> str | None:
    """``--rules``'s first check, made while the command line is read and before the
    command imports numba: a missing rule file or a misspelt preset is a one-line error
    at once (with the name it probably meant)."""
    from ..game.spelling import precheck_rules

    why = precheck_rules(value) if value is not None else None
    if why:
        fail(why)
    return value


RULES_HELP = "Preset name or TOML rule file."


def _progress_enabled(no_progress: bool) -> bool:
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


def _shown_rules(rs) -> str:
    """A rule set for a reader: its display name, then the rule syntax that gives it
    ("Official UNO with stacking (same card) = official+stacking=same"), on one line."""
    from ..game.names import display_ruleset

    shown = display_ruleset(rs)
    return one_line(rs.name if shown == rs.name else f"{shown} = {rs.name}")


@app.command()
def simulate(
    rules: str = typer.Option("official", help=RULES_HELP, callback=_check_rules_option),
    house: str | None = typer.Option(
        None, help="House switches, e.g. 'stacking=same,jump_in=true'."
    ),
    players: int = typer.Option(4, help="Players, 2 to 10."),
    strategies: str = typer.Option(
        "random",
        help="One strategy, or one per seat "
        "separated by commas (e.g. 'heuristic,random,random,random').",
    ),
    games: int = typer.Option(100_000, help="Rounds to simulate."),
    seed: int = typer.Option(0, help="Root seed: same seed, same results."),
    threads: int | None = typer.Option(
        None, help="Threads (default: all cores); with --executor dask, local worker processes."
    ),
    out: Path | None = typer.Option(
        None,
        help="FILE.parquet: one file of rounds; DIR: a dataset folder, one Parquet part per chunk.",
    ),
    no_progress: bool = typer.Option(False, "--no-progress", help="No progress bar."),
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
        if threads is not None and threads < 1:
            raise UserError(f"--threads must be at least 1, got {threads}")
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
    try:
        with pg.progress_bar(
            job.n_games, job.n_games - plan.games_todo, pg.wanted(plan.games_todo, no_progress)
        ) as advance:
            res = execute(plan, advance)
    except (ConnectionError, DatasetError) as e:
        fail(str(e))
    except OSError as e:
        fail(f"--out {out}: {e.strerror or e}")
    except KeyboardInterrupt:
        from ..sim.dataset import MANIFEST

        if plan.root is not None and (plan.root / MANIFEST).exists():
            typer.echo(
                f"unosim: interrupted; finished chunks are kept in {out}: the same "
                "command with --resume computes the rest",
                err=True,
            )
        else:
            typer.echo("unosim: interrupted; nothing was written", err=True)
        raise typer.Exit(130) from None
    label = (
        f"unosim {_shown_rules(job.rules)} (rules {job.rules.hash()}), {players} players, "
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


@app.command()
def match(
    rules: str = typer.Option("official", help=RULES_HELP, callback=_check_rules_option),
    house: str | None = typer.Option(
        None, help="House switches, e.g. 'scoring=each_own_negative,next_dealer=winner'."
    ),
    players: int = typer.Option(4, help="Players, 2 to 10."),
    strategies: str = typer.Option(
        "random",
        help="One strategy, or one per PLAYER "
        "separated by commas; players keep theirs in any seat.",
    ),
    matches: int = typer.Option(100_000, help="Matches to simulate."),
    seed: int = typer.Option(0, help="Root seed: same seed, same results."),
    threads: int | None = typer.Option(None, help="Threads (default: all cores)."),
    out: Path | None = typer.Option(
        None,
        help="Write the matches to this Parquet file "
        "and their rounds beside it (X.rounds.parquet).",
    ),
    no_progress: bool = typer.Option(False, "--no-progress", help="No progress bar."),
) -> None:
    """Simulate whole matches (docs/rules.md section 7) and print a summary."""
    from ..sim.match import make_match_job, rounds_path

    try:
        if threads is not None and threads < 1:
            raise UserError(f"--threads must be at least 1, got {threads}")
        job = make_match_job(rules, matches, players, strategies, seed, house)
        if out is not None:
            check_writable(out)
            check_writable(rounds_path(out))
    except (ValueError, UserError) as e:
        fail(str(e))
    try:
        _play_matches(job, players, threads, seed, out, no_progress)
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: no file is left half-written
        typer.echo("unosim: interrupted; nothing was written", err=True)
        raise typer.Exit(130) from None


def _play_matches(job, players: int, threads, seed: int, out, no_progress: bool) -> None:
    import time

    from ..sim.match import match_manifest, match_summary, run_matches, write_matches

    matches = job.n_games
    t0 = time.perf_counter()
    try:
        if _progress_enabled(no_progress) and matches >= 20_000:
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
        f"unosim {_shown_rules(rs)} (rules {rs.hash()}), {players} players, strategies "
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


@app.command()
def compare(
    rules: list[str] = typer.Argument(
        ...,
        help="Two or more rule sets, each compared with "
        "the first: a preset, a TOML file, or "
        "BASE+NAME=VALUE,... (e.g. "
        "'official+stacking=same,jump_in=true').",
    ),
    players: int = typer.Option(4, help="Players, 2 to 10."),
    strategies: str = typer.Option(
        "random", help="One strategy, or one per seat separated by commas."
    ),
    games: int = typer.Option(100_000, help="Rounds per rule set."),
    seed: int = typer.Option(0, help="Root seed: game i of every rule set is keyed by (seed, i)."),
    threads: int | None = typer.Option(None, help="Threads (default: all cores)."),
    boot: int = typer.Option(
        1000, "--boot", help="Bootstrap replicates for the difference of medians."
    ),
    out: Path | None = typer.Option(None, help="Also write the table as CSV."),
    no_progress: bool = typer.Option(False, "--no-progress", help="No progress bar."),
) -> None:
    """Play rule sets on the same seeds; paired differences against the first."""
    from ..analysis.compare import compare as run_compare
    from ..analysis.compare import parse_spec
    from ..sim.simulate import make_job
    from . import progress as pg

    try:
        if len(rules) < 2:
            raise UserError("compare needs at least two rule sets")
        if threads is not None and threads < 1:
            raise UserError(f"--threads must be at least 1, got {threads}")
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
        from ..sim.results import atomic_path, publish

        try:
            tmp = atomic_path(out)
            try:
                res.table.to_csv(tmp, index=False, float_format="%.10g", lineterminator="\n")
                publish(tmp, out)
            finally:
                if tmp.exists():
                    tmp.unlink()
        except OSError as e:
            fail(f"--out {out}: {e.strerror or e}")
        typer.echo(f"wrote            {out}")


@app.command()
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
    threads: int | None = typer.Option(None, help="Threads (default: all cores)."),
    no_progress: bool = typer.Option(False, "--no-progress", help="No progress bar."),
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
        if threads is not None and threads < 1:
            raise UserError(f"--threads must be at least 1, got {threads}")
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
    except (ValueError, UserError) as e:
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


@app.command()
def design(
    target: list[str] = typer.Option(
        ...,
        "--target",
        help="A target, repeatable: NAME=LO..HI, NAME<=X or NAME>=X; names turns, "
        "turns_median, seat0_edge (pp), stack8_share (%), points, truncated_share (%).",
    ),
    players: int = typer.Option(5, help="Players, 2 to 10."),
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
    strategies: str = typer.Option(
        "random", help="One strategy, or one per seat separated by commas."
    ),
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
    threads: int | None = typer.Option(None, help="Threads (default: all cores)."),
    no_progress: bool = typer.Option(False, "--no-progress", help="No progress bar."),
) -> None:
    """Search house rules and numeric rules for rule sets that meet every target; confirm
    the finalists on fresh rounds; write the ranking, a page and a house rules card."""
    import shlex

    from ..analysis import design as ds
    from ..report.design_page import check_out, write_design
    from . import progress as pg

    try:
        if threads is not None and threads < 1:
            raise UserError(f"--threads must be at least 1, got {threads}")
        targets = ds.parse_targets(target)
        space = ds.parse_vary(vary)
        ds.check_budgets(budget, finalists, confirm_games)
        check_out(out, force)
    except (ValueError, UserError) as e:
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
    except KeyboardInterrupt:
        typer.echo("unosim: interrupted; nothing was written", err=True)
        raise typer.Exit(130) from None
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


@app.command()
def replay(
    rules: str | None = typer.Option(
        None, help="Preset name or TOML rule file (default official)."
    ),
    house: str | None = typer.Option(None, help="House switches, e.g. 'stacking=same'."),
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
) -> None:
    """Replay rounds event by event, exactly as their run played them; every move is
    checked against docs/rules.md (exit 1 if the checker finds a violation)."""
    import warnings

    from ..sim.dataset import DatasetWarning
    from ..sim.replay import NoMatch, dumps_json, format_text, stream_replays

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
    broken = False
    try:
        for j, rp in enumerate(reps):  # each replay printed as soon as it is made
            if as_json:
                typer.echo(dumps_json(rp))
            else:
                typer.echo(("\n" if j or note else "") + format_text(rp, hands))
            broken = broken or bool(rp.violations)
    except ValueError as e:
        fail(str(e))
    except KeyboardInterrupt:
        typer.echo("unosim: interrupted", err=True)
        raise typer.Exit(130) from None
    if broken:
        raise typer.Exit(1)


def _unmake(out: Path | None, made: bool) -> None:
    """Remove the folder ``out`` if this run made it and it is still empty."""
    if made and out is not None:
        try:
            out.rmdir()
        except OSError:
            pass


@app.command()
def evaluate(
    agent: str | None = typer.Argument(
        None,
        help="The agent: path/to/file.py:NAME or package.module:NAME (or a built-in "
        "strategy); or none, with --agent-cmd.",
    ),
    agent_cmd: str | None = typer.Option(
        None,
        "--agent-cmd",
        help="The agent is this command (any language), run in a process of its own that "
        "reads one JSON observation per line and answers one action per line "
        "(docs/players.md, 'An isolated seat').",
    ),
    isolate: bool | None = typer.Option(
        None,
        "--isolate/--in-process",
        help="Run the AGENT file in a process of its own, seeing only its observations "
        "(for code you did not write: it cannot look at other hands or forge moves); "
        "always so with --agent-cmd. Default: in this process (fast, for your own code).",
    ),
    agent_timeout: float = typer.Option(
        10.0, help="Seconds an isolated agent may think about one decision."
    ),
    rules: str = typer.Option("official", help="Preset name or TOML rule file."),
    house: str | None = typer.Option(None, help="House switches, e.g. 'stacking=same'."),
    players: int = typer.Option(4, help="Players, 2 to 10."),
    games: int = typer.Option(20_000, help="Rounds per row (shared over the seats)."),
    expert_games: int = typer.Option(
        2_000, help="Rounds per row with an expert at the table (the first of the same deals)."
    ),
    expert: str = typer.Option(
        "expert",
        help="The expert of the reference rows and opponents: expert[:PARAMS], 'strong' "
        "for its strength budget (about 23 times slower than the default), or "
        "'strong-fast' for that strength at about a tenth of its cost.",
    ),
    matches: int = typer.Option(
        0, help="Also the rate of matches won, on this many matches per row (0: none)."
    ),
    seed: int = typer.Option(2026, help="Root seed of the pre-declared deals."),
    out: Path | None = typer.Option(
        None, help="Folder for ladder.csv, the page ladder.html (and ladder_matches.csv)."
    ),
    cache: bool = typer.Option(
        True,
        help="Keep the rows of built-in players (which do not depend on the agent) in the "
        "user's cache folder and reuse them in later ladders; --no-cache plays every row.",
    ),
) -> None:
    """The strength ladder: the agent's win rate against 3 random, heuristic, table, tuned
    weighted and expert players, every seat in turn, beside built-in random, the best
    built-in, the expert and the see-all-hands expert (a cheating upper bound) on the same
    deals. With --out, also a page (ladder.html, ladder.md) with its figure."""
    import shlex

    from ..analysis.evaluate import cache_dir, expert_spec, ladder, render
    from ..players.agents import is_agent_spec, load
    from ..sim.isolated import command_agent, isolated_agent
    from ..table.llm import invalid_move_facts, reset_move_counts

    made_out = False  # --out made by this run: removed again if nothing is written in it
    seat = None
    try:
        if (agent is None) == (agent_cmd is None):
            raise UserError(
                "give the agent: AGENT (FILE.py:NAME ...) or --agent-cmd CMD, one of them"
            )
        if agent_cmd is not None and isolate is False:
            raise UserError("--agent-cmd runs the agent in a process of its own: drop --in-process")
        if isolate and not is_agent_spec(agent or ""):
            raise UserError(f"--isolate runs an agent file or module (FILE.py:NAME), not {agent!r}")
        if not 0 < agent_timeout <= 86_400:
            raise UserError(f"--agent-timeout must be from 0 to 86400 seconds, got {agent_timeout}")
        if games < players:
            raise UserError(f"--games must be at least --players ({players}), got {games}")
        if expert_games < players:
            raise UserError(
                f"--expert-games must be at least --players ({players}), got {expert_games}"
            )
        if matches and matches < players:
            raise UserError(f"--matches must be 0 or at least --players ({players}), got {matches}")
        xs = expert_spec(expert)
        if out is not None:
            from ..sim.results import check_path_name

            check_path_name(out / ".ladder_matches.csv.tmp", given=out)  # its longest file
            if out.exists() and not out.is_dir():
                raise UserError(f"--out {out} is a file, not a folder")
            made_out = not out.exists()
            out.mkdir(parents=True, exist_ok=True)
            check_writable(out / "ladder.csv")
            if matches:
                check_writable(out / "ladder_matches.csv")
        name = agent if agent is not None else f"--agent-cmd {agent_cmd}"
        if agent_cmd is not None:
            seat = command_agent(agent_cmd, agent_timeout)
        elif isolate:
            seat = isolated_agent(name, agent_timeout)
        elif is_agent_spec(name):
            seat = load(name)
        label = seat.label if seat is not None else name
        counted = reset_move_counts(getattr(seat, "source", None))
        lad = ladder(
            seat if seat is not None else name,
            rules,
            players,
            games,
            seed,
            house,
            expert_games=expert_games,
            expert=xs,
            matches=matches,
            progress=lambda what: typer.echo(f"  row {one_line(what)}", err=True),
            cache=cache_dir() if cache else None,
        )
    except (ValueError, UserError) as e:
        _unmake(out, made_out)
        fail(str(e))
    except KeyboardInterrupt:
        _unmake(out, made_out)
        typer.echo("unosim: interrupted; nothing was written", err=True)
        raise typer.Exit(130) from None
    finally:
        if seat is not None and hasattr(seat.source, "close"):
            seat.source.close()  # an isolated agent's process ends with the ladder
    typer.echo(
        one_line(
            f"unosim evaluate {name}: {rules}, {players} players, seed {seed}; "
            f"expert {lad.expert} (see-all-hands: the same, dealt the true hands)"
        )
    )
    typer.echo(render(lad, players))
    for note in lad.notes:  # cache files not used, one line each
        typer.echo(f"unosim: note: {one_line(note)}", err=True)
    agent_rounds = int(lad.table.loc[lad.table.player == "agent", "rounds"].sum())
    invalid = invalid_move_facts(counted, agent_rounds)
    for what, line in invalid.items():
        typer.echo(f"{what}: {line}")
    if lad.kept:
        typer.echo(
            one_line(
                f"{lad.kept} rows of built-in players were kept from an earlier ladder "
                f"({cache_dir()}); --no-cache plays them again"
            )
        )
    if out is not None:
        tmp = out / ".ladder.csv.tmp"
        lad.table.to_csv(tmp, index=False)
        tmp.replace(out / "ladder.csv")
        typer.echo(f"wrote {out / 'ladder.csv'}")
        if lad.matches is not None:
            tmp = out / ".ladder_matches.csv.tmp"
            lad.matches.to_csv(tmp, index=False)
            tmp.replace(out / "ladder_matches.csv")
            typer.echo(f"wrote {out / 'ladder_matches.csv'}")
        from .._version import __version__
        from ..kernel import KERNEL_BEHAVIOUR
        from ..report import escape as esc
        from ..report.ladder_page import Made, write_page

        words = [name] if agent is not None else ["--agent-cmd", str(agent_cmd)]
        command = (
            "unosim evaluate " + " ".join(shlex.quote(a) for a in sys.argv[2:])
            if len(sys.argv) > 2 and sys.argv[1] == "evaluate"
            else f"unosim evaluate {shlex.join(words)} --out {shlex.quote(str(out))}"
        )
        facts = {
            "rounds per row": f"{games:,} ({expert_games:,} with an expert at the table)",
            "house rules": esc.code(house) if house else "none",
            "made by": f"unosim {__version__}, kernel behaviour {KERNEL_BEHAVIOUR}",
            **invalid,
        }
        try:
            html = write_page(lad, out, Made(name, label, rules, players, seed, command, facts))
        except OSError as e:
            fail(f"--out {out}: cannot write the page: {e.strerror or e}")
        typer.echo(f"wrote {html} (and ladder.md, the figure in {out / 'ladder'})")


@app.command()
def tournament(
    rules: str = typer.Option("official", help=RULES_HELP, callback=_check_rules_option),
    house: str | None = typer.Option(None, help="House switches, e.g. 'stacking=same'."),
    players: int = typer.Option(4, help="Players, 2 to 10."),
    strategies: str = typer.Option(
        ...,
        help="One strategy per seat, comma separated, "
        "e.g. 'weighted,heuristic,colour-counter,random'.",
    ),
    games: int = typer.Option(
        100_000,
        help="Rounds in all (rounded up to a multiple of "
        "the players: each deal is played in every seat rotation).",
    ),
    seed: int = typer.Option(0, help="Root seed: same seed, same results."),
    threads: int | None = typer.Option(None, help="Threads (default: all cores)."),
    out: Path | None = typer.Option(None, help="Also write the table to this CSV file."),
    no_progress: bool = typer.Option(False, "--no-progress", help="No progress bar."),
) -> None:
    """Rotate strategies through every seat; each one's win rate and points per round."""
    import time

    from ..analysis.tournament import tournament as run

    try:
        if threads is not None and threads < 1:
            raise UserError(f"--threads must be at least 1, got {threads}")
        if out is not None:
            check_writable(out)
        from ..players.seats import parse

        parse(strategies, players, agents_ok=True)  # errors before any work
        if len(strategies.split(",")) == 1:
            raise UserError(f"a tournament takes one strategy per seat ({players} comma separated)")
        t0 = time.perf_counter()
        if _progress_enabled(no_progress) and games >= 100_000:
            from rich.progress import Progress

            with Progress(*Progress.get_default_columns(), transient=True) as bar:
                task = bar.add_task("playing", total=-(-games // players) * players)
                df = run(
                    rules,
                    players,
                    strategies,
                    games,
                    seed,
                    house,
                    threads,
                    progress=lambda k: bar.advance(task, k),
                )
        else:
            df = run(rules, players, strategies, games, seed, house, threads)
    except (ValueError, UserError) as e:
        fail(str(e))
    seconds = time.perf_counter() - t0
    m = df.attrs["manifest"]
    typer.echo(
        f"unosim tournament: {m['rules_name']} (rules {m['rules_hash']}), {players} "
        f"players, seed {seed}"
    )
    typer.echo(
        f"rounds           {m['rounds']:,} ({m['deals']:,} deals x {players} seat "
        f"rotations) in {seconds:.2f} s: {m['rounds'] / seconds:,.0f} rounds/s; "
        f"{m['truncated']:,} truncated"
    )
    typer.echo(
        "strategy                         win rate [95% interval]      points/round [95% interval]"
    )
    for r in df.itertuples():
        typer.echo(
            f"  {r.strategy:30s} {r.win_rate:.4f} [{r.win_lo:.4f}, {r.win_hi:.4f}]  "
            f"{r.points:7.2f} [{r.points_lo:.2f}, {r.points_hi:.2f}]"
        )
    typer.echo(
        f"(1/{players} = {1 / players:.4f}; intervals from per-deal means over the rotations)"
    )
    if out is not None:
        from ..sim.results import write_csv

        try:
            write_csv(df, out, m)
        except OSError as e:
            fail(f"--out {out}: {e.strerror or e}")
        typer.echo(f"wrote            {out}")


@app.command()
def tune(
    rules: str = typer.Option("official", help=RULES_HELP, callback=_check_rules_option),
    house: str | None = typer.Option(None, help="House switches, e.g. 'stacking=same'."),
    players: int = typer.Option(4, help="Players, 2 to 10."),
    opponents: str = typer.Option(
        "random", help="The strategy of every opponent (random, heuristic, or any one strategy)."
    ),
    budget: int = typer.Option(2_000_000, help="Rounds spent on the search."),
    seed: int = typer.Option(0, help="Root seed: same seed, same weights."),
    start: str = typer.Option(
        "weighted",
        help="Starting strategy of the weighted family, "
        "with its parameters (e.g. 'weighted:challenge=never').",
    ),
    population: int = typer.Option(16, help="Candidates per iteration."),
    elite: int = typer.Option(4, help="Best candidates the next iteration is fitted to."),
    iterations: int = typer.Option(8, help="Iterations of the cross-entropy method."),
    sigma: float = typer.Option(
        1.0,
        help="Initial spread of every weight around the "
        "start's (smaller to go on from tuned weights).",
    ),
    eval_games: int = typer.Option(
        200_000, help="Fresh rounds the final weights and the start are evaluated on."
    ),
    threads: int | None = typer.Option(None, help="Threads (default: all cores)."),
    out: Path = typer.Option(
        Path("weighted-tuned.toml"),
        help="Strategy file to write (load it with --strategies weighted:FILE).",
    ),
) -> None:
    """Search the weighted player's weights (cross-entropy method) and save them."""
    import time

    from ..analysis.tune import tune as run

    try:
        if threads is not None and threads < 1:
            raise UserError(f"--threads must be at least 1, got {threads}")
        check_writable(out)
        t0 = time.perf_counter()
        res = run(
            rules,
            players,
            opponents,
            budget,
            seed,
            start,
            population,
            elite,
            iterations,
            eval_games,
            house,
            threads,
            progress=lambda msg: typer.echo(msg, err=True),
            sigma=sigma,
        )
    except (ValueError, UserError) as e:
        fail(str(e))
    try:
        res.write(out)
    except OSError as e:
        fail(f"--out {out}: {e.strerror or e}")
    seconds = time.perf_counter() - t0
    p = res.provenance
    typer.echo(
        f"unosim tune: {p['rules']} (rules {p['rules_hash']}), {players} players, "
        f"against {opponents}, budget {budget:,} rounds, seed {seed}, {seconds:.0f} s"
    )
    typer.echo("weights          " + ", ".join(f"{k}={v:.3g}" for k, v in res.weights.items()))
    typer.echo(
        f"win rate on {res.eval_deals:,} fresh rounds (95% interval; 1/{players} = "
        f"{1 / players:.4f}):"
    )
    typer.echo(f"  start  {res.start_rate[0]:.4f} +- {res.start_rate[1]:.4f}  {res.start}")
    typer.echo(f"  tuned  {res.tuned_rate[0]:.4f} +- {res.tuned_rate[1]:.4f}")
    typer.echo(f"wrote            {out}  (use: --strategies weighted:{out})")


@app.command()
def strategies() -> None:
    """List the players (--strategies NAME), one line each: its name and how it plays;
    parameters and outside players are in docs/players.md."""
    from ..players.expert import NAME, SUMMARY
    from ..players.params import STRATEGY_DECLARATIONS

    lines = [(s.name, s.doc) for s in STRATEGY_DECLARATIONS] + [(NAME, SUMMARY)]
    width = max(len(name) for name, _ in lines)
    for name, doc in lines:
        typer.echo(f"{name:<{width}}  {doc}")


@rules_app.command("list")
def rules_list() -> None:
    """List the presets."""
    from ..game.rules import PRESET_NOTES, PRESETS

    for name, rs in PRESETS.items():
        typer.echo(f"{name:20s} {rs.deck_size():4d} cards  {PRESET_NOTES[name]}")


@rules_app.command("show")
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


@rules_app.command("table")
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


class Terminated(KeyboardInterrupt):
    """SIGTERM, handled like Ctrl-C: temporary files removed, finished chunks kept."""


from .table import register as _register_table  # noqa: E402  (unosim mcp, unosim play)

_register_table(app)


def _on_sigterm(signum, frame) -> None:
    raise Terminated()


@app.callback()
def _setup() -> None:
    import signal
    import threading

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _on_sigterm)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
