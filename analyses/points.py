"""points: what a round is worth, and how many rounds a match to 500 takes.

Usage: python analyses/points.py [--scale S] [--out reports] [--results results/reports]

Round points (RULES.md section 5: the winner scores the other hands) by edition and
player count with `random` players: distribution, mean, median, 90th percentile and the
tail probabilities P(points >= 100) and P(points >= 200); then whole matches to 500
(RULES.md section 7, ``unosim.simulate_matches``): rounds per match.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from common import PLAYER_COUNTS, Context, describe, ecdf, half, leaders, main, names_and

import matplotlib.pyplot as plt
from unosim.report import Page, ci, num
from unosim.rules import PRESETS
from unosim.stats import mean_ci, quantile_ci

NAME = "points"
EDITIONS = ("official", "official-2018", "pokemon", "motu", "copag", "portugal")
BASE_MATCHES = 20_000


def build(ctx: Context) -> Page:
    page = Page(NAME, "Points per round and rounds per match",
                "How many points is a round worth, by edition and number of players, how "
                "often is it worth 100 or 200 points or more, and how many rounds does a "
                "match to 500 take?", ctx.out)
    stats: dict[tuple[str, int], dict] = {}
    pts_ecdf: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for ed in EDITIONS:
        for n in PLAYER_COUNTS:
            df = ctx.standard(ed, n)
            stats[ed, n] = describe(df, n)
            if n == 4:
                done = ~df["truncated"].to_numpy(bool)
                pts_ecdf[ed] = ecdf(df["points"].to_numpy()[done])

    # whole matches (needs unosim.simulate_matches)
    mstats: dict[tuple[str, int], dict] = {}
    rounds_hist: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    have_matches = True
    for ed in EDITIONS:
        for n in PLAYER_COUNTS:
            m = ctx.matches(ed, n, BASE_MATCHES)
            if m is None:
                have_matches = False
                break
            done = ~m["truncated"].to_numpy(bool)
            r = m["rounds"].to_numpy()[done].astype(np.float64)
            mstats[ed, n] = {"matches": len(m), "truncated": int((~done).sum()),
                             "mean": mean_ci(r), "median": quantile_ci(r, 0.5),
                             "p90": quantile_ci(r, 0.9),
                             "points": float(m["points_total"].sum()
                                             / max(m["rounds"].sum(), 1))}
            if n == 4:
                v, c = np.unique(r.astype(np.int64), return_counts=True)
                rounds_hist[ed] = (v, c / c.sum())
        if not have_matches:
            break

    # ---------------------------------------------------------------- the answer
    o4 = stats["official", 4]
    mean4 = {ed: stats[ed, 4]["points_mean"] for ed in EDITIONS}
    top = leaders(mean4, highest=True)
    low = leaders(mean4, highest=False)
    headline = (f"A 4-player official round is worth {ci(*o4['points_mean'])} points on "
                f"average (median {num(o4['points_median'][0], 0)}); "
                f"{ci(*o4['points_ge_100'], 3)} of rounds are worth 100 or more and "
                f"{ci(*o4['points_ge_200'], 3)} 200 or more")
    if have_matches:
        mo = mstats["official", 4]
        headline += (f"; a match to 500 takes {ci(*mo['mean'])} rounds on average (median "
                     f"{num(mo['median'][0], 0)}, 90th percentile {num(mo['p90'][0], 0)})")
    headline += " (random players)."
    page.headline = headline
    page.heading("Answer")
    page.para(headline)
    bullets = [
        "Most points per round at 4 players: "
        + names_and([f"`{e}` ({ci(*mean4[e])})" for e in top])
        + "; fewest: " + names_and([f"`{e}` ({ci(*mean4[e])})" for e in low]) + ".",
        f"More players, richer rounds: an official round is worth "
        f"{ci(*stats['official', 2]['points_mean'])} points with 2 players and "
        f"{ci(*stats['official', 10]['points_mean'])} with 10; P(points >= 200) goes from "
        f"{ci(*stats['official', 2]['points_ge_200'], 3)} to "
        f"{ci(*stats['official', 10]['points_ge_200'], 3)}.",
    ]
    if have_matches:
        mtop = leaders({e: mstats[e, 4]["mean"] for e in EDITIONS}, highest=False)
        bullets.append(
            "Matches: fewest rounds to 500 at 4 players under "
            + names_and([f"`{e}` ({ci(*mstats[e, 4]['mean'])})" for e in mtop])
            + f"; an official match takes {ci(*mstats['official', 2]['mean'])} rounds with "
            f"2 players and {ci(*mstats['official', 10]['mean'])} with 10.")
        mtrunc = sum(s["truncated"] for s in mstats.values())
        if mtrunc:
            bullets.append(f"{mtrunc:,} matches stopped at `max_rounds` with no winner; "
                           "rounds per match count completed matches only.")
    else:
        bullets.append("Rounds per match are left out: `unosim.simulate_matches` is not "
                       "available in this version.")
    rtrunc = sum(s["truncated"] for s in stats.values())
    if rtrunc:
        worst = max(stats, key=lambda k: stats[k]["trunc_rate"][0])
        bullets.append(f"{rtrunc:,} rounds reached `max_turns` and scored nothing; their "
                       "points are left out of the points statistics (the most under "
                       f"`{worst[0]}` with {worst[1]} players: "
                       f"{ci(*stats[worst]['trunc_rate'], 4)}).")
    page.bullets(bullets)
    hw_mean = max(half(s["points_mean"]) for s in stats.values())
    hw_tail = max(max(half(s["points_ge_100"]), half(s["points_ge_200"]))
                  for s in stats.values())
    prec = (f"Precision: {o4['games']:,} rounds per edition at 4 players (and for `official` "
            f"at every count), {min(s['games'] for s in stats.values()):,} for the others. "
            f"Every 95% interval of mean points is within ±{num(hw_mean)}, of a tail "
            f"probability within ±{num(hw_tail, 4)}")
    if have_matches:
        hw_m = max(half(s["mean"]) for s in mstats.values())
        prec += (f"; {mstats['official', 4]['matches']:,} matches per edition and player "
                 f"count give mean rounds per match within ±{num(hw_m)}")
    page.para(prec + ".")

    # ---------------------------------------------------------------- tables
    page.heading("Points per round with 4 players")
    rows = []
    for ed in EDITIONS:
        s = stats[ed, 4]
        rows.append({"edition": f"`{ed}`", "mean": ci(*s["points_mean"]),
                     "median": ci(*s["points_median"], 0), "90th pct": ci(*s["points_p90"], 0),
                     "P(>= 100)": ci(*s["points_ge_100"], 4),
                     "P(>= 200)": ci(*s["points_ge_200"], 4),
                     "completed rounds": f"{s['completed']:,}"})
    page.table(pd.DataFrame(rows))
    for key, title, dg in (("points_mean", "Mean points per round by player count", 1),
                           ("points_ge_100", "P(points >= 100) by player count", 3),
                           ("points_ge_200", "P(points >= 200) by player count", 3)):
        page.heading(title, 3)
        rows = []
        for ed in EDITIONS:
            row = {"edition": f"`{ed}`"}
            for n in PLAYER_COUNTS:
                row[f"{n} players"] = ci(*stats[ed, n][key], dg)
            rows.append(row)
        page.table(pd.DataFrame(rows))
    if have_matches:
        page.heading("Rounds per match to 500")
        rows = []
        for ed in EDITIONS:
            row = {"edition": f"`{ed}`"}
            for n in PLAYER_COUNTS:
                s = mstats[ed, n]
                row[f"{n} players"] = (f"{ci(*s['mean'], 2)}; "
                                       f"{num(s['median'][0], 0)} / {num(s['p90'][0], 0)}")
            rows.append(row)
        page.table(pd.DataFrame(rows))
        page.para("Each cell: mean rounds per completed match [95% interval]; median / "
                  "90th percentile. `pokemon` passes the deal to the round's winner "
                  "(`next_dealer = winner`); the others rotate it.")
    page.para("Points statistics use completed rounds (a truncated round has no winner). "
              "Means with Student t intervals, quantiles with order-statistic intervals, "
              "probabilities with Wilson intervals.")

    # ---------------------------------------------------------------- figures
    page.heading("Figures")
    cmap = plt.get_cmap("tab10")
    fig, ax = plt.subplots(figsize=(7, 4))
    for i, ed in enumerate(EDITIONS):
        v, f = pts_ecdf[ed]
        ax.step(v, f, where="post", color=cmap(i), label=ed)
    for x in (100, 200):
        ax.axvline(x, color="grey", lw=0.8, ls="--")
    ax.set_xlim(0, 500)
    ax.set_xlabel("points scored by the round's winner")
    ax.set_ylabel("fraction of rounds ≤ x")
    ax.set_title("Points per round, 4 random players")
    ax.legend()
    page.figure(fig, "points-ecdf", "ECDF of round points with 4 players, every edition "
                "(dashed: 100 and 200 points).")

    fig, axes = plt.subplots(1, 3, figsize=(12, 4))
    for ax, key, title in zip(axes, ("points_mean", "points_ge_100", "points_ge_200"),
                              ("mean points per round", "P(points >= 100)",
                               "P(points >= 200)")):
        for i, ed in enumerate(EDITIONS):
            est = np.array([stats[ed, n][key][0] for n in PLAYER_COUNTS])
            lo = np.array([stats[ed, n][key][1] for n in PLAYER_COUNTS])
            hi = np.array([stats[ed, n][key][2] for n in PLAYER_COUNTS])
            ax.errorbar(PLAYER_COUNTS, est, yerr=[est - lo, hi - est], marker="o", ms=3,
                        lw=1, capsize=2, color=cmap(i), label=ed)
        ax.set_xlabel("players")
        ax.set_title(title)
    axes[0].legend(fontsize=7)
    page.figure(fig, "points-by-players", "Mean points and tail probabilities by player "
                "count and edition, with 95% intervals.")

    if have_matches:
        fig, axes = plt.subplots(1, 2, figsize=(11, 4))
        width = 0.8 / len(EDITIONS)
        for i, ed in enumerate(EDITIONS):
            v, f = rounds_hist[ed]
            axes[0].bar(v + (i - len(EDITIONS) / 2 + 0.5) * width, f, width=width,
                        color=cmap(i), label=ed)
            est = np.array([mstats[ed, n]["mean"][0] for n in PLAYER_COUNTS])
            lo = np.array([mstats[ed, n]["mean"][1] for n in PLAYER_COUNTS])
            hi = np.array([mstats[ed, n]["mean"][2] for n in PLAYER_COUNTS])
            axes[1].errorbar(PLAYER_COUNTS, est, yerr=[est - lo, hi - est], marker="o",
                             ms=3, lw=1, capsize=2, color=cmap(i), label=ed)
        axes[0].set_xlim(0.5, 15.5)
        axes[0].set_xlabel("rounds in the match")
        axes[0].set_ylabel("fraction of matches")
        axes[0].set_title("Rounds per match to 500, 4 players")
        axes[0].legend(fontsize=7)
        axes[1].set_xlabel("players")
        axes[1].set_title("mean rounds per match")
        page.figure(fig, "rounds-per-match", "Rounds per match to 500: distribution with 4 "
                    "players, and mean by player count (95% intervals).")

    page.data(_csv(stats, mstats), "points", "Every statistic by edition and player count")
    ctx.provenance(page)
    return page


def _csv(stats: dict, mstats: dict) -> pd.DataFrame:
    rows = []
    for (ed, n), s in stats.items():
        row = {"edition": ed, "rules_hash": PRESETS[ed].hash(), "players": n,
               "rounds": s["games"], "completed": s["completed"]}
        for key in ("points_mean", "points_median", "points_p90", "points_ge_100",
                    "points_ge_200"):
            row[key], row[key + "_lo"], row[key + "_hi"] = s[key]
        m = mstats.get((ed, n))
        if m:
            row["matches"] = m["matches"]
            row["matches_truncated"] = m["truncated"]
            for key in ("mean", "median", "p90"):
                k = f"rounds_per_match_{key}"
                row[k], row[k + "_lo"], row[k + "_hi"] = m[key]
        rows.append(row)
    return pd.DataFrame(rows)


if __name__ == "__main__":
    main(NAME, build, __doc__)
