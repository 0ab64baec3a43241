"""Tuning the ``weighted`` player's weights by the cross-entropy method.

Each iteration draws ``population`` weight vectors from a normal distribution, plays
every candidate against the opponents on the same deals (common random numbers: the
differences between candidates are not blurred by different deals), each deal in every
seat rotation (``tournament.play``), and refits the distribution to the best
``elite`` candidates. Iteration ``t`` plays its own deals, so the search does not fit
one set of deals. The final weights (the distribution's mean) and the starting weights
are then evaluated on fresh deals that no iteration played: games from ``2**40`` on.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .._version import __version__
from ..game.rules import RuleSet, resolve
from ..kernel.core.layout import CHALLENGE_SMART, P_W
from ..players import strategies as strat
from ..players.seats import parse as parse_seats
from ..players.seats import parse_one as parse_seat
from ..sim.results import atomic_path, publish
from ..stats import mean_ci_from_sums
from .tournament import play

FRESH = 2**40  # first game of the evaluation deals


@dataclass
class TuneResult:
    start: str  # label of the starting strategy
    weights: dict[str, float]  # the tuned weights, by feature
    label: str  # the tuned strategy as a --strategies item
    start_rate: tuple[float, float]  # win rate on fresh deals, 95% half-width
    tuned_rate: tuple[float, float]
    eval_deals: int
    history: pd.DataFrame  # per iteration: mean / best / elite fitness, sigma
    provenance: dict = field(default_factory=dict)

    def toml(self) -> str:
        """The strategy file ``--strategies weighted:FILE`` loads."""
        lines = [
            "# unosim strategy file, written by `unosim tune`",
            'strategy = "weighted"',
            "",
            "[weights]",
        ]
        lines += [f"{k} = {v!r}" for k, v in self.weights.items()]
        params = dict(zip(strat.BEHAVIOUR, parse_seat(self.label)[1][:P_W].tolist()))
        if params["challenge"] == CHALLENGE_SMART:
            params["challenge"] = "smart"
        lines += ["", "[params]"] + [f"{k} = {v!r}".replace("'", '"') for k, v in params.items()]
        lines += ["", "[provenance]"]
        for k, v in self.provenance.items():
            lines.append(f"{k} = {v!r}" if not isinstance(v, str) else f'{k} = "{v}"')
        return "\n".join(lines) + "\n"

    def write(self, path: str | Path) -> Path:
        """Atomically: a temporary file beside ``path``, renamed into place."""
        final = Path(path)
        tmp = atomic_path(final)
        try:
            tmp.write_text(self.toml())
            publish(tmp, final)
        finally:
            if tmp.exists():
                tmp.unlink()
        return final


def _with_weights(base: np.ndarray, w: np.ndarray) -> str:
    """A ``--strategies`` item: ``weighted`` with ``base``'s behaviour and weights ``w``."""
    p = base.copy()
    p[P_W:] = w
    return strat.label(strat.WEIGHTED, p)


def _rate(
    rs, n, tuned: str, opponents: str, deals: int, seed: int, first: int, threads
) -> tuple[float, float]:
    tot = play(rs, n, [tuned] + [opponents] * (n - 1), deals, seed, first, threads=threads)
    m, h = mean_ci_from_sums(tot.wins, tot.wins2, tot.deals)
    return float(m[0]), float(h[0])


def tune(
    rules: str | RuleSet = "official",
    n_players: int = 4,
    opponents: str = "random",
    budget: int = 2_000_000,
    seed: int = 0,
    start: str = "weighted",
    population: int = 16,
    elite: int = 4,
    iterations: int = 8,
    eval_games: int = 200_000,
    house: str | dict | None = None,
    threads: int | None = None,
    progress: Callable[[str], None] | None = None,
    sigma: float = 1.0,
) -> TuneResult:
    """Search the weights of a weighted-family ``start`` strategy against ``n - 1``
    ``opponents``, spending ``budget`` rounds on the search; see the module docstring.
    ``sigma`` is the initial spread of every weight around the start's (smaller to go
    on from weights already tuned).

    Returns the tuned weights, their win rate and the start's on ``eval_games`` fresh
    rounds (each deal played in every seat rotation), and the search history."""
    rs = resolve(rules, house)
    n = int(n_players)
    rs.check_players(n)
    sid, sp, labels = parse_seats(start, 1)
    if sid[0] < strat.FIRST_WEIGHTED:
        raise ValueError(
            f"tune searches weights: the start must be of the weighted family "
            f"({', '.join(strat.NAMES[strat.FIRST_WEIGHTED :])}), got {start!r}"
        )
    if len(strat.split(opponents)) != 1:
        raise ValueError(
            f"--opponents takes one strategy, played by every opponent, got {opponents!r}"
        )
    parse_seats(opponents, 1)  # validate it
    for name, v, lo in (
        ("budget", budget, 1),
        ("population", population, 2),
        ("elite", elite, 1),
        ("iterations", iterations, 1),
        ("eval_games", eval_games, 1),
    ):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < lo:
            raise ValueError(f"{name} must be a whole number >= {lo}, got {v!r}")
    if not (isinstance(sigma, (int, float)) and math.isfinite(sigma) and sigma > 0):
        raise ValueError(f"sigma must be a positive number, got {sigma!r}")
    if elite >= population:
        raise ValueError(f"elite ({elite}) must be smaller than population ({population})")
    deals = budget // (iterations * population * n)
    if deals < 1:
        raise ValueError(
            f"budget {budget:,} is too small for {iterations} iterations of "
            f"{population} candidates x {n} seatings"
        )
    base = sp[0]
    mu = base[P_W:].copy()
    spread = np.full_like(mu, float(sigma))
    rng = np.random.default_rng([int(seed), 0x70E5])
    rows = []
    for t in range(iterations):
        cand = np.clip(
            mu + spread * rng.standard_normal((population, mu.size)),
            -strat.MAX_WEIGHT,
            strat.MAX_WEIGHT,
        )
        fit = np.empty(population)
        for i in range(population):
            tot = play(
                rs,
                n,
                [_with_weights(base, cand[i])] + [opponents] * (n - 1),
                deals,
                seed,
                t * deals,
                threads=threads,
            )
            fit[i] = tot.wins[0] / tot.deals
        top = np.argsort(-fit, kind="stable")[:elite]
        mu = 0.3 * mu + 0.7 * cand[top].mean(0)
        spread = 0.3 * spread + 0.7 * cand[top].std(0) + 0.02
        rows.append(
            {
                "iteration": t,
                "deals": deals,
                "mean": fit.mean(),
                "best": fit.max(),
                "elite": fit[top].mean(),
                "sigma": float(spread.mean()),
            }
        )
        if progress is not None:
            progress(
                f"iteration {t + 1}/{iterations}: win rate mean {fit.mean():.4f}, "
                f"elite {fit[top].mean():.4f}, best {fit.max():.4f}"
            )
    tuned = _with_weights(base, mu)
    ev = max(1, math.ceil(eval_games / n))
    start_rate = _rate(rs, n, labels[0], opponents, ev, seed, FRESH, threads)
    tuned_rate = _rate(rs, n, tuned, opponents, ev, seed, FRESH, threads)
    weights = {f: float(round(v, 6)) for f, v in zip(strat.FEATURES, mu)}
    prov = {
        "unosim_version": __version__,
        "rules": rs.name,
        "rules_hash": rs.hash(),
        "players": n,
        "opponents": opponents,
        "start": labels[0],
        "seed": int(seed),
        "budget": int(budget),
        "population": population,
        "elite": elite,
        "sigma": float(sigma),
        "iterations": iterations,
        "deals_per_candidate": deals,
        "eval_rounds": ev * n,
        "eval_first_game": FRESH,
        "start_win_rate": round(start_rate[0], 5),
        "tuned_win_rate": round(tuned_rate[0], 5),
        "tuned_win_rate_ci95": round(tuned_rate[1], 5),
    }
    return TuneResult(
        labels[0],
        weights,
        _with_weights(base, np.array(list(weights.values()))),
        start_rate,
        tuned_rate,
        ev * n,
        pd.DataFrame(rows),
        prov,
    )
