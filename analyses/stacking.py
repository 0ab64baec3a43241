"""stacking: stacking vs official (none, same, progressive) on the same games.

Usage: python analyses/stacking.py [--scale S] [--out reports] [--results results/reports]

The three stacking rules (RULES.md 8.1) are played on the same seeds, so game i starts
from the same deal under each; differences are computed game by game (common random
numbers): round length, seat 0's win rate, points, truncation, with the variance
reduction the pairing achieved; and the distribution of max_stack, the largest pending
draw penalty of a round.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from common import PLAYER_COUNTS, Context, main

import matplotlib.pyplot as plt
from unosim.compare import METRICS, paired_metrics
from unosim.report import Page, ci, num
from unosim.rules import PRESETS
from unosim.stats import mean_ci, paired_diff, wilson_ci

NAME = "stacking"
ARMS = ("official", "stacking", "progressive")  # stacking = none, same, progressive
PAIRS = (("official", "stacking"), ("official", "progressive"), ("stacking", "progressive"))
LABEL = {"official": "none (official)", "stacking": "same", "progressive": "progressive"}
DIGITS = {"mean_turns": 2, "median_turns": 1, "seat0_win_rate": 4, "mean_points": 2,
          "truncation_rate": 6}


def _verb(r, up: str, down: str, flat: str) -> str:
    if r["lo"] > 0:
        return up
    if r["hi"] < 0:
        return down
    return flat


def _pair_frames(a: pd.DataFrame, b: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The common games of two runs of one seed (the shorter run's game indices)."""
    k = min(len(a), len(b))
    return a.iloc[:k], b.iloc[:k]


def build(ctx: Context) -> Page:
    page = Page(NAME, "Stacking Draw Twos and Wild Draw Fours",
                "What does stacking (none, same, progressive; RULES.md 8.1) change in "
                "round length, seat advantage and points when the same games are played "
                "under each rule, and how large do the stacks get?", ctx.out)
    cols = ("turns", "winner", "points", "max_stack", "truncated")
    frames = {(a, n): ctx.standard(a, n, columns=cols) for a in ARMS for n in PLAYER_COUNTS}
    res: dict[tuple[str, str, int], pd.DataFrame] = {}
    for n in PLAYER_COUNTS:
        for a, b in PAIRS:
            fa, fb = _pair_frames(frames[a, n], frames[b, n])
            metrics = tuple(METRICS) if n == 4 else ("mean_turns", "seat0_win_rate",
                                                      "mean_points", "truncation_rate")
            t = paired_metrics(fa, fb, metrics=metrics).set_index("metric")
            ms = paired_diff(fa["max_stack"].to_numpy(np.float64),
                             fb["max_stack"].to_numpy(np.float64))
            t.loc["mean_max_stack"] = {"label": "mean max_stack", "n": ms["n"],
                                       "value_a": ms["mean_a"], "value_b": ms["mean_b"],
                                       "diff": ms["diff"], "lo": ms["lo"], "hi": ms["hi"],
                                       "se_paired": ms["se_paired"],
                                       "se_independent": ms["se_independent"],
                                       "variance_reduction": ms["variance_reduction"]}
            res[a, b, n] = t
    DIGITS["mean_max_stack"] = 3

    # max_stack distributions at 4 players
    dist = {}
    for a in ARMS:
        ms = frames[a, 4]["max_stack"].to_numpy()
        dist[a] = np.bincount(ms)
    n4 = len(frames["official", 4])

    # ---------------------------------------------------------------- the answer
    s_ = res["official", "stacking", 4]
    p_ = res["official", "progressive", 4]
    t_s, t_p = s_.loc["mean_turns"], p_.loc["mean_turns"]
    w_s, w_p = s_.loc["seat0_win_rate"], p_.loc["seat0_win_rate"]
    q_s, q_p = s_.loc["mean_points"], p_.loc["mean_points"]

    def d(r, key: str) -> str:
        return ci(r["diff"], r["lo"], r["hi"], DIGITS[key], sign=True)

    def ge(a: str, k: int) -> tuple[float, float, float]:
        c = int(dist[a][k:].sum())
        lo, hi = wilson_ci(c, n4)
        return (c / n4, lo, hi)

    def eff(r, key: str, unit: str = "") -> str:
        up, down = ("longer", "shorter") if key == "mean_turns" else ("higher", "lower")
        return f"{d(r, key)}{unit} ({_verb(r, up, down, 'not separated from 0')})"

    headline = (f"With 4 random players, on the same games, `stacking = same` changes the "
                f"mean round length by {eff(t_s, 'mean_turns', ' turns')} and `progressive` "
                f"by {eff(t_p, 'mean_turns', ' turns')}; seat 0's win rate by "
                f"{eff(w_s, 'seat0_win_rate')} and {eff(w_p, 'seat0_win_rate')}; the "
                f"winner's points by {eff(q_s, 'mean_points')} and "
                f"{eff(q_p, 'mean_points')}. A penalty of 8 cards or more is pending at "
                f"some point in {ci(*ge('stacking', 8), 4)} of rounds with `same` and "
                f"{ci(*ge('progressive', 8), 4)} with `progressive`.")
    page.headline = headline
    page.heading("Answer")
    page.para(headline)
    vr = [res[a, b, 4].loc["mean_turns", "variance_reduction"] for a, b in PAIRS]
    m_s, m_p = s_.loc["median_turns"], p_.loc["median_turns"]
    bullets = [
        f"Median length: {num(m_s['value_a'], 0)} turns without stacking, "
        f"{num(m_s['value_b'], 0)} with `same` (difference {d(m_s, 'median_turns')}, "
        f"bootstrap interval) and {num(m_p['value_b'], 0)} with `progressive` "
        f"({d(m_p, 'median_turns')}).",
        f"Progressive against same stacking, same games: length "
        f"{d(res['stacking', 'progressive', 4].loc['mean_turns'], 'mean_turns')} turns, "
        f"seat 0 {d(res['stacking', 'progressive', 4].loc['seat0_win_rate'], 'seat0_win_rate')}"
        f", points {d(res['stacking', 'progressive', 4].loc['mean_points'], 'mean_points')}.",
        f"Stacks: the largest pending penalty in {n4:,} rounds was {len(dist['stacking']) - 1} "
        f"cards with `same` and {len(dist['progressive']) - 1} with `progressive`, "
        f"{len(dist['official']) - 1} without stacking (one Wild Draw Four). "
        "P(max_stack >= 12): "
        f"{ci(*ge('stacking', 12), 4)} (`same`), {ci(*ge('progressive', 12), 4)} "
        "(`progressive`).",
        "Pairing: the variance of the length difference is "
        + ", ".join(f"{num(v, 2)}×" for v in vr)
        + " smaller than with independent runs (same − none, progressive − none, "
        "progressive − same), so the same precision needs that many times fewer games.",
    ]
    by_n = [n for n in PLAYER_COUNTS
            if res["official", "progressive", n].loc["mean_turns", "hi"] < 0]
    bullets.append(f"Of the player counts {', '.join(map(str, PLAYER_COUNTS))}, "
                   "`progressive` shortens rounds (95% interval of the paired difference "
                   "below 0) at " + ("every one" if len(by_n) == len(PLAYER_COUNTS) else
                                      ", ".join(map(str, by_n)) if by_n else "none") + ".")
    page.bullets(bullets)
    hw = {k: max(max(t.loc[k, "hi"] - t.loc[k, "diff"], t.loc[k, "diff"] - t.loc[k, "lo"])
                 for (a, b, n), t in res.items() if n == 4)
          for k in ("mean_turns", "seat0_win_rate", "mean_points")}
    page.para(f"Precision: {n4:,} paired games per rule at 4 players "
              f"({min(len(f) for f in frames.values()):,} or more at the other counts). At 4 "
              f"players the 95% intervals of the paired differences are within "
              f"±{num(hw['mean_turns'])} turns, ±{num(hw['seat0_win_rate'], 4)} in seat 0's "
              f"win rate and ±{num(hw['mean_points'])} points: a difference is called a "
              "change only when its interval excludes 0.")

    # ---------------------------------------------------------------- tables
    page.heading("Paired differences with 4 players")
    rows = []
    for a, b in PAIRS:
        t = res[a, b, 4]
        for key, r in t.iterrows():
            dg = DIGITS[key]
            v = r["variance_reduction"]
            rows.append({"comparison": f"{LABEL[b]} − {LABEL[a]}", "metric": r["label"],
                         "A": num(r["value_a"], dg), "B": num(r["value_b"], dg),
                         "B − A [95% interval]": d(r, key),
                         "variance reduction": "n/a" if np.isnan(v) else f"{num(v, 2)}×"})
    page.table(pd.DataFrame(rows))
    page.para("Means: t interval on the per-game differences; median: Poisson bootstrap "
              "of the pairs (1,000 replicates); rates: Newcombe's interval for paired "
              "proportions. Variance reduction: variance of the difference from two "
              "independent runs of this size over its variance from the pairs (n/a when "
              "neither varies, e.g. no truncated round in either arm).")

    page.heading("By player count", 3)
    rows = []
    for n in PLAYER_COUNTS:
        row = {"players": n}
        for a, b in PAIRS[:2]:
            t = res[a, b, n]
            row[f"{LABEL[b]}: Δ turns"] = d(t.loc["mean_turns"], "mean_turns")
            row[f"{LABEL[b]}: Δ seat 0"] = d(t.loc["seat0_win_rate"], "seat0_win_rate")
            row[f"{LABEL[b]}: Δ points"] = d(t.loc["mean_points"], "mean_points")
        rows.append(row)
    page.table(pd.DataFrame(rows))

    page.heading("max_stack with 4 players", 3)
    kmax = max(len(v) for v in dist.values())
    rows = []
    for k in range(kmax):
        if not any(k < len(dist[a]) and dist[a][k] for a in ARMS):
            continue
        row = {"max_stack": k}
        for a in ARMS:
            c = int(dist[a][k]) if k < len(dist[a]) else 0
            lo, hi = wilson_ci(c, n4)
            row[LABEL[a]] = f"{c / n4:.6f} [{lo:.6f}, {hi:.6f}]"
        rows.append(row)
    page.table(pd.DataFrame(rows))
    page.para("Fraction of rounds whose largest pending draw penalty was exactly k cards "
              "(Wilson intervals); it counts the setup Draw Two's 2 and a last card's "
              "penalty (RULES.md section 6).")

    # ---------------------------------------------------------------- figures
    page.heading("Figures")
    fig, axes = plt.subplots(1, 4, figsize=(13, 3.2), sharey=True)
    y = np.arange(len(PAIRS))
    for ax, key in zip(axes, ("mean_turns", "median_turns", "seat0_win_rate", "mean_points")):
        rs = [res[a, b, 4].loc[key] for a, b in PAIRS]
        est = np.array([r["diff"] for r in rs])
        lo, hi = np.array([r["lo"] for r in rs]), np.array([r["hi"] for r in rs])
        ax.errorbar(est, y, xerr=[est - lo, hi - est], fmt="o", capsize=3)
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_title("Δ " + METRICS[key])
    axes[0].set_yticks(y, [f"{LABEL[b]} − {LABEL[a]}" for a, b in PAIRS])
    axes[0].invert_yaxis()
    fig.suptitle("Paired differences, 4 random players (95% intervals)")
    page.figure(fig, "paired-differences", "Paired differences between stacking rules on "
                "the same games, 4 random players, with 95% intervals.")

    fig, ax = plt.subplots(figsize=(7, 4))
    width = 0.28
    for i, a in enumerate(ARMS):
        k = np.arange(len(dist[a]))
        f = dist[a] / n4
        keep = f > 0
        ax.bar(k[keep] + (i - 1) * width, f[keep], width=width, label=LABEL[a])
    ax.set_yscale("log")
    ax.set_xlabel("max_stack (largest pending draw penalty in the round, cards)")
    ax.set_ylabel("fraction of rounds")
    ax.set_title("max_stack, 4 random players")
    ax.legend(title="stacking")
    page.figure(fig, "max-stack", "Distribution of max_stack under each stacking rule, "
                "4 random players (log scale).")

    fig, axes = plt.subplots(1, 3, figsize=(12, 3.8))
    for ax, key in zip(axes, ("mean_turns", "seat0_win_rate", "mean_points")):
        for a, b in PAIRS[:2]:
            rs = [res[a, b, n].loc[key] for n in PLAYER_COUNTS]
            est = np.array([r["diff"] for r in rs])
            lo, hi = np.array([r["lo"] for r in rs]), np.array([r["hi"] for r in rs])
            ax.errorbar(PLAYER_COUNTS, est, yerr=[est - lo, hi - est], marker="o", ms=3,
                        capsize=2, label=f"{LABEL[b]} − none")
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xlabel("players")
        ax.set_title("Δ " + METRICS[key])
    axes[0].legend()
    page.figure(fig, "by-players", "Paired differences from no stacking by player count, "
                "with 95% intervals.")

    rows = []
    for (a, b, n), t in res.items():
        for key, r in t.iterrows():
            rows.append({"a": a, "b": b, "players": n, "metric": key, **{
                c: r[c] for c in ("n", "value_a", "value_b", "diff", "lo", "hi", "se_paired",
                                  "se_independent", "variance_reduction")}})
    page.data(pd.DataFrame(rows), "paired", "Every paired comparison")
    mean_ms = {a: mean_ci(frames[a, 4]["max_stack"].to_numpy(np.float64)) for a in ARMS}
    ctx.provenance(page, notes=[
        "Rules: " + "; ".join(f"`{a}` = official with `stacking = "
                              f"{PRESETS[a].stacking}` (hash `{PRESETS[a].hash()}`)"
                              for a in ARMS) + ".",
        "Mean max_stack at 4 players: " + "; ".join(f"{LABEL[a]} {ci(*mean_ms[a], 3)}"
                                                    for a in ARMS) + ".",
        "Where two runs have different lengths (other player counts), the comparison uses "
        "their common games 0 .. k − 1 of the same seed."])
    return page


if __name__ == "__main__":
    main(NAME, build, __doc__)
