"""The evaluate command: an agent's strength ladder."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from .common import (
    UserError,
    check_writable,
    fail,
    on_interrupt,
    one_line,
    unmake_folder,
    write_table,
)
from .options import RULES_HELP, House, Players


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
    rules: str = typer.Option("official", help=RULES_HELP),
    house: House = None,
    players: Players = 4,
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
    from ..table import openspiel_seat  # noqa: F401  (the ``openspiel:`` seats)
    from ..table.llm import invalid_move_facts, reset_move_counts

    made_out = False  # --out made by this run: removed again if nothing is written in it
    seat = None
    with on_interrupt("nothing was written"):
        try:
            if (agent is None) == (agent_cmd is None):
                raise UserError(
                    "give the agent: AGENT (FILE.py:NAME ...) or --agent-cmd CMD, one of them"
                )
            if agent_cmd is not None and isolate is False:
                raise UserError(
                    "--agent-cmd runs the agent in a process of its own: drop --in-process"
                )
            if isolate and not is_agent_spec(agent or ""):
                raise UserError(
                    f"--isolate runs an agent file or module (FILE.py:NAME), not {agent!r}"
                )
            if not 0 < agent_timeout <= 86_400:
                raise UserError(
                    f"--agent-timeout must be from 0 to 86400 seconds, got {agent_timeout}"
                )
            if games < players:
                raise UserError(f"--games must be at least --players ({players}), got {games}")
            if expert_games < players:
                raise UserError(
                    f"--expert-games must be at least --players ({players}), got {expert_games}"
                )
            if matches and matches < players:
                raise UserError(
                    f"--matches must be 0 or at least --players ({players}), got {matches}"
                )
            xs = expert_spec(expert)
            if out is not None:
                from ..sim.results import check_path_name

                # its longest file: the temporary one of ladder_matches.csv (write_table)
                check_path_name(out / ".ladder_matches.csv.XXXXXXXX.tmp", given=out)
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
            unmake_folder(out, made_out)
            fail(str(e))
        except BaseException:  # an interrupt: the folder this run made goes too
            unmake_folder(out, made_out)
            raise
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
        tables = {"ladder.csv": lad.table, "ladder_matches.csv": lad.matches}
        for file, table in tables.items():
            if table is not None:
                try:
                    write_table(table, out / file)
                except OSError as e:
                    fail(f"--out {out}: cannot write {file}: {e.strerror or e}")
                typer.echo(f"wrote {out / file}")
        from .._version import __version__
        from ..report import escape as esc
        from ..report.ladder_page import Made, write_page
        from ..versions import KERNEL_BEHAVIOUR_VERSION

        words = [name] if agent is not None else ["--agent-cmd", str(agent_cmd)]
        command = (
            "unosim evaluate " + " ".join(shlex.quote(a) for a in sys.argv[2:])
            if len(sys.argv) > 2 and sys.argv[1] == "evaluate"
            else f"unosim evaluate {shlex.join(words)} --out {shlex.quote(str(out))}"
        )
        facts = {
            "rounds per row": f"{games:,} ({expert_games:,} with an expert at the table)",
            "house rules": esc.code(house) if house else "none",
            "made by": f"unosim {__version__}, kernel behaviour {KERNEL_BEHAVIOUR_VERSION}",
            **invalid,
        }
        try:
            html = write_page(lad, out, Made(name, label, rules, players, seed, command, facts))
        except OSError as e:
            fail(f"--out {out}: cannot write the page: {e.strerror or e}")
        typer.echo(f"wrote {html} (and ladder.md, the figure in {out / 'ladder'})")
