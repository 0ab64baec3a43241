"""How Wild Draw Four challenges turn out, by challenger: from traced rounds.

A round's row counts its challenges and bluffs, not who challenged or who won, so this
replays rounds with the kernel's trace on (the same games a run plays) and reads every
``E_CHALLENGE`` event: the challenger's seat and whether it caught a bluff. Against
accepting the penalty, a challenge that catches a bluff saves the challenger 4 cards; one
that finds the play legal costs it ``challenge_penalty`` more (RULES.md section 4.3).

``python -m unosim.analysis.challenges [GAMES] [SEED]`` prints the table of every built-in
strategy's default against the default opponents (``random``, ``heuristic``, ``table``),
with 4 players under ``official``.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy.stats import norm

from ..game.rules import RuleSet, resolve
from ..kernel.core import layout as L

__all__ = ["challenge_outcomes", "challenge_table", "CHALLENGERS", "OPPONENTS"]

CHALLENGERS = ("heuristic", "table", "points-dumper", "aggressive", "colour-counter", "weighted")
OPPONENTS = ("random", "heuristic", "table")


def challenge_outcomes(
    rules: str | RuleSet,
    n_players: int,
    strategies: str,
    n_games: int,
    seed: int = 0,
    seat: int = 0,
    confidence: float = 0.95,
) -> dict:
    """Challenges made by ``seat`` in games ``0 .. n_games - 1`` of the run, and their
    outcomes.

    Returns
    -------
    dict
        ``games``, ``challenges``, ``caught`` (bluffs caught), ``rate`` (caught /
        challenges) with ``rate_lo``, ``rate_hi``, and ``net`` (mean cards won per
        challenge against accepting the penalty: ``4 rate - penalty (1 - rate)``) with
        ``net_lo``, ``net_hi``, ``penalty``. Intervals are normal, with the variance of a
        ratio of sums over independent games (challenges of one round kept together);
        NaN without a challenge.
    """
    from ..sim import engine
    from ..sim.simulate import make_job

    rs = rules if isinstance(rules, RuleSet) else resolve(rules)
    k = make_job(rs, 1, n_players, strategies, seed).kernel
    made = np.zeros(n_games, np.int64)
    won = np.zeros(n_games, np.int64)
    for game in range(n_games):
        _, trace = engine.trace(k, seed, game)
        ev = trace[(trace[:, L.EV_TYPE] == L.E_CHALLENGE) & (trace[:, L.EV_SEAT] == seat)]
        made[game] = len(ev)
        won[game] = int(np.count_nonzero(ev[:, L.EV_FLAGS] & L.F_CAUGHT))
    pen = int(rs.challenge_penalty)
    total, caught = int(made.sum()), int(won.sum())
    out = {"games": int(n_games), "challenges": total, "caught": caught, "penalty": pen}
    if total == 0:
        nan = math.nan
        return {
            **out,
            "rate": nan,
            "rate_lo": nan,
            "rate_hi": nan,
            "net": nan,
            "net_lo": nan,
            "net_hi": nan,
        }
    r = caught / total
    # ratio of sums over games: var(r) = sum (won - r made)^2 / total^2 * G / (G - 1)
    resid = won - r * made
    var = float(resid @ resid) / total**2 * n_games / max(n_games - 1, 1)
    half = float(norm.ppf(0.5 + confidence / 2.0)) * math.sqrt(var)
    lo, hi = max(0.0, r - half), min(1.0, r + half)
    scale = 4 + pen  # net = (4 + pen) r - pen
    return {
        **out,
        "rate": r,
        "rate_lo": lo,
        "rate_hi": hi,
        "rate_se": math.sqrt(var),
        "net": scale * r - pen,
        "net_lo": scale * lo - pen,
        "net_hi": scale * hi - pen,
    }


def challenge_table(
    n_games: int = 20_000,
    seed: int = 1,
    rules: str = "official",
    n_players: int = 4,
    challengers: Sequence[str] = CHALLENGERS,
    opponents: Sequence[str] = OPPONENTS,
) -> pd.DataFrame:
    """Every challenger's default policy in seat 0 against ``n_players - 1`` opponents
    of each default strategy: one row per (challenger, opponents)."""
    rows = []
    for x in challengers:
        for o in opponents:
            spec = ",".join([x] + [o] * (n_players - 1))
            rows.append(
                {
                    "challenger": x,
                    "opponents": o,
                    **challenge_outcomes(rules, n_players, spec, n_games, seed),
                }
            )
    return pd.DataFrame(rows)


def main(argv: Sequence[str] = ()) -> None:
    games = int(argv[0]) if len(argv) > 0 else 20_000
    seed = int(argv[1]) if len(argv) > 1 else 1
    df = challenge_table(games, seed)
    print(
        f"official, 4 players, challenger in seat 0, {games:,} games per row, seed {seed}; "
        "net = cards won per challenge against accepting the penalty (95% intervals)"
    )
    for r in df.itertuples():
        if r.challenges == 0:
            print(f"  {r.challenger:15s} vs {r.opponents:9s}  no challenge")
            continue
        print(
            f"  {r.challenger:15s} vs {r.opponents:9s}  {r.challenges:6,d} challenges, "
            f"caught {r.rate:.3f} [{r.rate_lo:.3f}, {r.rate_hi:.3f}], "
            f"net {r.net:+.2f} [{r.net_lo:+.2f}, {r.net_hi:+.2f}] cards"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
