"""Commands about strategies: tournament and tune."""

from __future__ import annotations

from pathlib import Path

import typer

from .common import UserError, check_writable, fail, progress_enabled
from .options import House, NoProgress, Players, Rules, Seed, Threads


def tournament(
    rules: Rules = "official",
    house: House = None,
    players: Players = 4,
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
    seed: Seed = 0,
    threads: Threads = None,
    out: Path | None = typer.Option(None, help="Also write the table to this CSV file."),
    no_progress: NoProgress = False,
) -> None:
    """Rotate strategies through every seat; each one's win rate and points per round."""
    import time

    from ..analysis.tournament import tournament as run

    try:
        if out is not None:
            check_writable(out)
        from ..players.seats import parse

        parse(strategies, players, agents_ok=True)  # errors before any work
        if len(strategies.split(",")) == 1:
            raise UserError(f"a tournament takes one strategy per seat ({players} comma separated)")
        t0 = time.perf_counter()
        if progress_enabled(no_progress) and games >= 100_000:
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


def tune(
    rules: Rules = "official",
    house: House = None,
    players: Players = 4,
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
    threads: Threads = None,
    out: Path = typer.Option(
        Path("weighted-tuned.toml"),
        help="Strategy file to write (load it with --strategies weighted:FILE).",
    ),
) -> None:
    """Search the weighted player's weights (cross-entropy method) and save them."""
    import time

    from ..analysis.tune import tune as run

    try:
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
