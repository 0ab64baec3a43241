"""Tournaments: strategies rotated through every seat, so seat advantage cancels.

With ``n`` players and one strategy per seat, the ``n`` cyclic rotations of the seating
are each played on the same deals (game ``j`` of every rotation is keyed by ``(seed,
j)``): every deal is played with every strategy in every seat. A strategy's result on
deal ``j`` is its mean over the rotations (wins, points won), and its intervals come
from those per-deal means (independent across deals), so they are honest about the
pairing inside a deal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..game.rules import RuleSet, resolve
from ..kernel.core import layout as L
from ..players import strategies as strat
from ..players.seats import parse_seats
from ..sim.simulate import BLOCK, make_job, run_block, thread_count
from ..stats import mean_ci_from_sums


@dataclass
class Totals:
    """Sums over deals of each strategy's per-deal means (wins, points) and squares."""

    deals: int
    wins: np.ndarray
    wins2: np.ndarray
    points: np.ndarray
    points2: np.ndarray
    truncated: int = 0
    rounds: int = 0


def seating(n_players: int, rotation: int) -> list[int]:
    """``seating(n, r)[s]``: the position in the strategy list of the player at seat
    ``s`` in rotation ``r`` (position ``i`` sits at seat ``(i + r) % n``)."""
    return [(s - rotation) % n_players for s in range(n_players)]


def play(
    rules: str | RuleSet,
    n_players: int,
    strategies: list,  # labels, or agents (seat labels cannot load an agent object)
    deals: int,
    seed: int,
    first_deal: int = 0,
    house: str | dict | None = None,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Totals:
    """Play ``deals`` deals (games ``first_deal ..`` of ``seed``) under every rotation."""
    rs = resolve(rules, house)
    n = n_players
    if len(strategies) != n:
        raise ValueError(
            f"a tournament takes one strategy per seat: {n} players, "
            f"{len(strategies)} strategies given"
        )
    jobs = []
    for r in range(n):
        order = seating(n, r)
        jobs.append(
            make_job(
                rs, deals, n, [strategies[order[s]] for s in range(n)], seed, first_game=first_deal
            )
        )
    tot = Totals(0, np.zeros(n), np.zeros(n), np.zeros(n), np.zeros(n))
    with thread_count(threads):
        done = 0
        while done < deals:
            count = min(BLOCK // n, deals - done)
            wins = np.zeros((n, count))
            pts = np.zeros((n, count))
            for r, job in enumerate(jobs):
                rec = run_block(job, first_deal + done, count)
                winner = rec[:, L.C_WINNER]
                won = winner >= 0
                pos = np.full(count, -1)
                pos[won] = (winner[won] - r) % n  # list position of the winner
                for i in range(n):
                    hit = pos == i
                    wins[i] += hit
                    pts[i] += np.where(hit, rec[:, L.C_POINTS], 0)
                tot.truncated += int((~won).sum())
                if progress is not None:
                    progress(count)
            wins /= n
            pts /= n
            tot.wins += wins.sum(1)
            tot.wins2 += (wins**2).sum(1)
            tot.points += pts.sum(1)
            tot.points2 += (pts**2).sum(1)
            tot.deals += count
            tot.rounds += count * n
            done += count
    return tot


def table(tot: Totals, labels: list[str]) -> pd.DataFrame:
    """One row per strategy position: win rate and mean points per round, 95% CIs."""
    w, wh = mean_ci_from_sums(tot.wins, tot.wins2, tot.deals)
    p, ph = mean_ci_from_sums(tot.points, tot.points2, tot.deals)
    return pd.DataFrame(
        {
            "position": range(len(labels)),
            "strategy": labels,
            "win_rate": w,
            "win_lo": w - wh,
            "win_hi": w + wh,
            "points": p,
            "points_lo": p - ph,
            "points_hi": p + ph,
        }
    )


def tournament(
    rules: str | RuleSet = "official",
    n_players: int = 4,
    strategies: str | list[str] = "heuristic,random,random,random",
    n_games: int = 100_000,
    seed: int = 0,
    house: str | dict | None = None,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> pd.DataFrame:
    """Each strategy's win rate and mean points per round over ``n_games`` rounds.

    ``strategies``: one per seat (comma list or list, parameters as in
    ``strategies.parse``). ``n_games`` is rounded up to a multiple of the player count:
    ``n_games / n`` deals, each played in the ``n`` rotations. Returns a frame with
    ``win_rate``/``points`` and their 95% intervals; ``attrs['manifest']`` says how it
    was made.
    """
    rs = resolve(rules, house)
    _, _, labels, agents = parse_seats(strategies, n_players)  # validates, labels
    # an agent plays as itself: its label names it but cannot load it again
    players = [lab if a is None else a for lab, a in zip(labels, agents)]
    if isinstance(n_games, bool) or not isinstance(n_games, (int, np.integer)) or n_games < 1:
        raise ValueError(f"games must be a whole number of at least 1, got {n_games!r}")
    deals = -(-int(n_games) // n_players)
    tot = play(rs, n_players, players, deals, seed, threads=threads, progress=progress)
    written = isinstance(strategies, str) or all(isinstance(x, str) for x in strategies)
    shown = strat.split(strategies) if written else labels  # as written (a file, not its
    # weights), or the labels when some seat is an agent object
    df = table(tot, shown if len(shown) == n_players else labels)
    manifest = make_job(rs, deals, n_players, players, seed).manifest()
    manifest.update(
        kind="tournament",
        deals=deals,
        rounds=tot.rounds,
        rotations=n_players,
        truncated=tot.truncated,
    )
    df.attrs["manifest"] = manifest
    return df
