"""The expert's rows for the skill page (issue 16), ready for analyses/skill.py.

``expert_rows`` plays the ``expert`` (kernel/expert.py) against 3 ``random`` and 3
``heuristic`` players under each rule set, every seat in turn (``tournament.play``),
next to its own rollout policy on the same deals, and ``match_odds`` turns a run's
rounds into the chance of winning a match to 500 and the rounds after which the lead is
significant. Matches with an expert seat do not run in the kernel yet
(``expert.refuse_matches``), so ``match_odds`` plays matches by drawing whole rounds of
the run at random (winner and points of each): exact for winner-takes-all scoring when
rounds are independent, which they are (each round is a fresh deal; the seat that starts
varies with the dealer, averaged over by the tournament's rotations).

Budget: ``expert_rows(["official"], deals=500)`` plays 2 x 2 x 2,000 rounds with the
expert's default budget, about 30 s per rule set on 2 cores.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from unosim.expert import TUNED
from unosim.kernel import layout as L
from unosim.rules import resolve
from unosim.simulate import make_job, run_block
from unosim.stats import mean_ci_from_sums

EXPERT = "expert"


def _per_deal(rules, me: str, opponent: str, deals: int, seed: int, first: int):
    """(wins, points) of ``me`` per deal against 3 ``opponent``, mean over the 4 seats."""
    rs = resolve(rules)
    wins = np.zeros(deals)
    points = np.zeros(deals)
    for r in range(4):
        labels = [opponent] * 4
        labels[r] = me
        rec = run_block(make_job(rs, deals, 4, labels, seed), first, deals)
        hit = rec[:, L.C_WINNER] == r
        wins += hit
        points += np.where(hit, rec[:, L.C_POINTS], 0)
    return wins / 4, points / 4


def expert_rows(rule_sets, deals: int = 500, seed: int = 16,
                opponents=("random", "heuristic"), first: int = 2 ** 42) -> pd.DataFrame:
    """One row per (rule set, opponents): the expert's and its policy's win rates with
    95% intervals, the skill margin (win rate - 1/4) and the paired gain of the search."""
    rows = []
    for rules in rule_sets:
        for opp in opponents:
            ew, _ = _per_deal(rules, EXPERT, opp, deals, seed, first)
            pw, _ = _per_deal(rules, TUNED, opp, deals, seed, first)
            w, h = mean_ci_from_sums(np.array([ew.sum()]), np.array([(ew ** 2).sum()]), deals)
            d = ew - pw
            dm, dh = mean_ci_from_sums(np.array([d.sum()]), np.array([(d ** 2).sum()]), deals)
            rows.append({"rules": rules, "opponents": f"3 {opp}", "expert": w[0],
                         "expert_ci": h[0], "margin": w[0] - 0.25,
                         "policy": pw.mean(), "search_gain": dm[0], "search_gain_ci": dh[0],
                         "rounds": 4 * deals})
    return pd.DataFrame(rows)


def match_odds(rules, opponent: str, deals: int = 500, seed: int = 16, matches: int = 20000,
               target: int = 500, first: int = 2 ** 42) -> dict:
    """The expert's chance to win a match to ``target`` against 3 ``opponent``, from
    ``matches`` matches of rounds drawn from a run of ``4 * deals`` rounds, and the rounds
    after which its lead in rounds won is significant (2 sigma, 1/4 each by chance).
    ``match_win_ci`` covers the drawing of matches only, not the run's own sampling."""
    rs = resolve(rules)
    winners, points = [], []
    for r in range(4):
        labels = [opponent] * 4
        labels[r] = EXPERT
        rec = run_block(make_job(rs, deals, 4, labels, seed), first, deals)
        w = rec[:, L.C_WINNER]
        winners.append(np.where(w >= 0, (w - r) % 4, -1))  # 0: the expert
        points.append(rec[:, L.C_POINTS])
    winners = np.concatenate(winners)
    points = np.concatenate(points)
    rng = np.random.default_rng(seed)
    won = 0
    rounds = []
    for _ in range(matches):
        score = np.zeros(4)
        n = 0
        while score.max() < target and n < 10000:
            i = rng.integers(len(winners))
            if winners[i] >= 0:
                score[winners[i]] += points[i]
            n += 1
        won += score.argmax() == 0
        rounds.append(n)
    p = (winners == 0).mean()
    margin = p - 0.25
    significant = (4 * p * (1 - p)) / margin ** 2 if margin > 0 else float("inf")
    return {"rules": rules, "opponents": f"3 {opponent}", "round_win_rate": p,
            "match_win": won / matches,
            "match_win_ci": 1.96 * np.sqrt(won / matches * (1 - won / matches) / matches),
            "rounds_per_match": float(np.mean(rounds)),
            "rounds_until_significant": significant}
