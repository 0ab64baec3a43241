"""The strength ladder: an agent's rate of rounds won against built-in opponents.

Against each opponent strategy the agent takes each seat in turn on the same
pre-declared deals, games ``0 .. per_seat - 1`` of root seed ``seed``, which do not
depend on the agent. Beside it, on the same deals and seats, reference rows: built-in
``random`` (against 3 random its rate is exactly 1/4: each deal is played once from
every seat, and all-random games do not depend on which seat is "the player") and the
best built-in strategy of those tried. Intervals are Wilson's 95% (taking the rounds as
independent, which the shared deals make only approximately true).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..kernel import layout as L
from ..sim.simulate import make_job, run_block
from ..stats import wilson_ci

OPPONENTS = ("random", "heuristic", "table", "weighted")
BUILTINS = ("heuristic", "table", "aggressive", "colour-counter", "weighted")
COLUMNS = ["player", "opponents", "rounds", "win_rate", "ci_low", "ci_high"]


@dataclass(frozen=True)
class Ladder:
    table: pd.DataFrame
    best: str


def _wins(player, opponent, rules, n, per_seat, seed, house) -> tuple[int, int]:
    """Rounds won and played by ``player`` seated at each seat in turn."""
    won = played = 0
    for s in range(n):
        spec = [opponent] * n
        spec[s] = player
        job = make_job(rules, per_seat, n, spec, seed, house)
        raw = run_block(job, 0, per_seat)
        won += int((raw[:, L.C_WINNER] == s).sum())
        played += per_seat
    return won, played


def _row(player, opponents, won, played):
    lo, hi = wilson_ci(won, played)
    return {
        "player": player,
        "opponents": opponents,
        "rounds": played,
        "win_rate": won / played,
        "ci_low": lo,
        "ci_high": hi,
    }


def ladder(
    agent,
    rules="official",
    n_players: int = 4,
    games: int = 20_000,
    seed: int = 2026,
    house=None,
    opponents=OPPONENTS,
) -> Ladder:
    """The ladder of ``agent`` (a seat label or an agent object): one row per opponent
    strategy for ``agent``, ``random`` and the best built-in, ``games`` rounds each
    (shared over the seats)."""
    per_seat = max(1, games // n_players)
    rows = []
    totals: dict[str, list[tuple[int, int]]] = {}
    for opp in opponents:
        rows.append(_row("agent", opp, *_wins(agent, opp, rules, n_players, per_seat, seed, house)))
        rows.append(
            _row("random", opp, *_wins("random", opp, rules, n_players, per_seat, seed, house))
        )
        for b in BUILTINS:
            totals.setdefault(b, []).append(_wins(b, opp, rules, n_players, per_seat, seed, house))
    best = max(BUILTINS, key=lambda b: sum(w for w, _ in totals[b]))
    for opp, (w, p) in zip(opponents, totals[best]):
        rows.append(_row(best, opp, w, p))
    table = pd.DataFrame(rows, columns=COLUMNS)
    order = {"agent": 0, "random": 1, best: 2}
    table = table.sort_values(
        ["opponents", "player"],
        key=lambda c: (
            c.map(order) if c.name == "player" else c.map({o: i for i, o in enumerate(opponents)})
        ),
        kind="stable",
    ).reset_index(drop=True)
    return Ladder(table, best)


def render(lad: Ladder, n_players: int) -> str:
    """The ladder as text, one line per row."""
    lines = [f"{'player':<16} {'opponents':<12} {'rounds':>8}  win rate [95% CI]"]
    for r in lad.table.itertuples():
        lines.append(
            f"{r.player:<16} {f'{n_players - 1} x {r.opponents}':<12} "
            f"{r.rounds:>8,}  {r.win_rate:.4f} [{r.ci_low:.4f}, {r.ci_high:.4f}]"
        )
    return "\n".join(lines)
