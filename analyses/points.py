"""points: what a round is worth, and how many rounds a match to 500 takes.

Usage: python analyses/points.py [--scale S] [--out reports] [--results results/reports]

Round points (RULES.md section 5: the winner scores the other hands) by edition and
player count with `random` players: distribution, mean, median, 90th percentile and the
tail probabilities P(points >= 100) and P(points >= 200), every count from 2 to 10,
and every preset at 4 players; then whole matches to 500
(RULES.md section 7, ``unosim.simulate_matches``): rounds per match.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from common import main

from unosim.game.rules import PRESETS
from unosim.report.cache import BASE_OTHER, BASE_RUNAWAY, PLAYER_COUNTS, Context, Results
from unosim.report.figures import hist_panels, intervals, player_axis
from unosim.report.numbers import describe, half, rel
from unosim.report.page import Page, ci, num
from unosim.report.words import by_players_table, change, colour, shown, shown_fig
from unosim.stats import mean_ci, quantile_ci

NAME = "points"
EDITIONS = ("official", "official-2018", "pokemon", "motu", "copag", "portugal")
BASE_MATCHES = 20_000  # matches at 4 players, and for `official` at every count
BASE_MATCHES_OTHER = 5_000  # matches of the other editions at other counts


def compute(ctx: Context) -> Results:
    """Points per round by edition and player count (every preset at 4 players), and
    rounds per match to 500."""
    stats: dict[tuple[str, int], dict] = {}
    pts_official: dict[int, np.ndarray] = {}
    for ed in EDITIONS:
        for n in PLAYER_COUNTS:
            df = ctx.standard(ed, n)
            stats[ed, n] = describe(df, n)
            if ed == "official":
                done = ~df["truncated"].to_numpy(bool)
                pts_official[n] = df["points"].to_numpy()[done]
    # every preset at 4 players, house-rule presets too (the same runs as other pages)
    at4 = {
        p: (stats[p, 4] if (p, 4) in stats else describe(ctx.standard(p, 4), 4)) for p in PRESETS
    }

    mstats: dict[tuple[str, int], dict] = {}
    rounds_of: dict[str, np.ndarray] = {}
    for ed in EDITIONS:
        for n in PLAYER_COUNTS:
            base = BASE_MATCHES if (n == 4 or ed == "official") else BASE_MATCHES_OTHER
            m = ctx.matches(ed, n, base)
            done = ~m["truncated"].to_numpy(bool)
            r = m["rounds"].to_numpy()[done].astype(np.float64)
            mstats[ed, n] = {
                "matches": len(m),
                "truncated": int((~done).sum()),
                "mean": mean_ci(r),
                "median": quantile_ci(r, 0.5),
                "p90": quantile_ci(r, 0.9),
                "max": int(r.max()),
            }
            if n == 4:
                rounds_of[ed] = r
    return ctx.results_of(
        {
            "stats": stats,
            "official": pts_official,
            "at4": at4,
            "matches": mstats,
            "rounds_of": rounds_of,
        }
    )


def render(res: Results) -> Page:
    page = Page(
        NAME,
        "Points per round and rounds per match",
        "How many points is a round worth, by edition and number of players, how "
        "often is it worth 100 or 200 points or more, and how many rounds does a "
        "match to 500 take?",
    )
    page.heading("Answer")
    _answer(page, res)
    page.heading("Figures")
    _figures(page, res["stats"], res["matches"], res["rounds_of"])
    _tables(page, res["stats"], res["matches"], res["at4"])
    res.provenance(page)
    return page


def _answer(page: Page, res: Results) -> None:
    """The lead, the main figure, the findings and the precision."""
    page.lead(_lead(res))
    _points_figure(page, res["official"])
    page.bullets(_findings(res))
    page.para(_precision(res))


def _mean4(res: Results) -> dict:
    """Mean points per round at 4 players, (mean, lo, hi) per preset."""
    at4 = res["at4"]
    return {p: at4[p]["points_mean"] for p in PRESETS}


def _lead(res: Results) -> str:
    """What an official round is worth, how long a match lasts, and the presets whose
    rounds are worth most and least."""
    stats, mstats = res["stats"], res["matches"]
    o4 = stats["official", 4]
    base = o4["points_mean"][0]
    mean4 = _mean4(res)
    top = max(mean4, key=lambda p: mean4[p][0])
    low = min(mean4, key=lambda p: mean4[p][0])
    top_ed = max(EDITIONS, key=lambda e: mean4[e][0])

    def worth(p: str) -> str:
        return change(rel(mean4[p][0] - base, base), "more", "less", 0)

    lead = (
        f"A 4-player official round is worth about {num(base, 0)} points to its winner "
        f"(half the rounds {num(o4['points_median'][0], 0)} or less): "
        f"{num(100 * o4['points_ge_100'][0], 0)}% of rounds bring 100 points or more "
        f"and {num(100 * o4['points_ge_200'][0], 0)}% 200 or more"
    )
    mo = mstats["official", 4]
    lead += (
        f", so a match to 500 takes about {num(mo['mean'][0], 0)} rounds (9 "
        f"matches in 10 end within {num(mo['p90'][0], 0)})"
    )
    o2, o10 = stats["official", 2], stats["official", 10]
    lead += (
        f". More players, richer rounds: {num(o2['points_mean'][0], 0)} points at 2 "
        f"players, {num(o10['points_mean'][0], 0)} at 10"
        + f", and a match shrinks from {num(mstats['official', 2]['mean'][0], 0)} "
        f"rounds to {num(mstats['official', 10]['mean'][0], 0)}"
        + f". Of all {len(PRESETS)} presets (editions and house rules) rounds are worth "
        f"most under {shown(top)}, {worth(top)} than under Official UNO, and least "
        f"under {shown(low)}, {worth(low)}"
        + (
            f"; among the editions alone, most under {shown(top_ed)}, {worth(top_ed)}"
            if top_ed != top
            else ""
        )
        + " (random players)."
    )
    return lead


def _points_figure(page: Page, pts_official: dict) -> None:
    """The main figure: official points per round, one panel per player count."""
    xmax = float(np.quantile(pts_official[PLAYER_COUNTS[-1]], 0.99))
    fig = hist_panels(
        {f"{n} players": pts_official[n] for n in PLAYER_COUNTS},
        {f"{n} players": colour("official") for n in PLAYER_COUNTS},
        "points scored by the round's winner",
        xmax,
        ncols=3,
        unit=" points",
        integer=False,
        bins=60,
        width=10,
        height=1.35,
    )
    fig.suptitle("Official UNO: points per round by player count (black line: mean)", fontsize=9)
    page.figure(
        fig,
        "points-by-players-hist",
        "Distribution of the points a round is "
        "worth under Official UNO, one panel per player count (random players, "
        "completed rounds), mean marked.",
        main=True,
    )


def _findings(res: Results) -> list[str]:
    """Mean points per preset, the rich rounds by player count, and the truncated
    matches and rounds."""
    stats, mstats = res["stats"], res["matches"]
    o4, o2, o10 = stats["official", 4], stats["official", 2], stats["official", 10]
    mean4 = _mean4(res)

    def pct_ci(t) -> str:
        return f"{num(100 * t[0], 1)}% [{num(100 * t[1], 1)}, {num(100 * t[2], 1)}]"

    bullets = [
        f"Mean points per round at 4 players: Official UNO {ci(*o4['points_mean'])}; "
        + "; ".join(
            f"{shown(p)} {ci(*mean4[p])}"
            for p in sorted(PRESETS, key=lambda q: -mean4[q][0])
            if p != "official"
        )
        + ".",
        f"The share of rounds worth 200 points or more goes from "
        f"{pct_ci(o2['points_ge_200'])} at 2 players to {pct_ci(o10['points_ge_200'])} at "
        "10 (Official UNO): more opponents, more cards "
        "left in their hands.",
    ]
    mtrunc = sum(s["truncated"] for s in mstats.values())
    if mtrunc:
        bullets.append(
            f"{mtrunc:,} matches stopped at the round limit with no winner; "
            "rounds per match count completed matches only."
        )
    rtrunc = sum(s["truncated"] for s in stats.values())
    if rtrunc:
        worst = max(stats, key=lambda k: stats[k]["trunc_rate"][0])
        bullets.append(
            f"{rtrunc:,} rounds reached the turn limit and scored nothing; their "
            "points are left out of the points statistics (the most under "
            f"{shown(worst[0])} with {worst[1]} players: "
            f"{ci(*stats[worst]['trunc_rate'], 4)})."
        )
    return bullets


def _precision(res: Results) -> str:
    """The rounds and matches behind the page and their widest intervals."""
    stats, mstats = res["stats"], res["matches"]
    hw_mean = max(half(s["points_mean"]) for s in stats.values())
    hw_tail = max(max(half(s["points_ge_100"]), half(s["points_ge_200"])) for s in stats.values())
    prec = (
        f"Precision: {stats['official', 4]['games']:,} rounds per edition at 4 players (and "
        f"for Official UNO at every count), {res.games(BASE_OTHER):,} for the others "
        f"({res.games(BASE_RUNAWAY):,} for {shown('motu')} at 5 players and more). "
        f"Every 95% interval of mean points is within ±{num(hw_mean)}, of a tail "
        f"probability within ±{num(hw_tail, 4)}"
    )
    hw_m = max(half(s["mean"]) for s in mstats.values())
    prec += (
        f"; {mstats['official', 4]['matches']:,} matches per edition at 4 players "
        f"and for Official UNO at every count, "
        f"{min(s['matches'] for s in mstats.values()):,} for the others, give "
        f"mean rounds per match within ±{num(hw_m)}"
    )
    return prec + "."


def _figures(page: Page, stats: dict, mstats: dict, rounds_of: dict) -> None:
    """Rounds per match, and points and matches by player count."""
    hi = max(int(r.max()) for r in rounds_of.values())
    fig, axes = plt.subplots(2, 3, figsize=(10, 4.4), sharex=True, sharey=True)
    for ax, ed in zip(axes.flat, EDITIONS):
        r = rounds_of[ed].astype(np.int64)
        c = np.bincount(r, minlength=hi + 1)
        ax.bar(np.arange(hi + 1), 100 * c / c.sum(), width=0.9, color=colour(ed))
        ax.axvline(r.mean(), color="black", lw=1)
        ax.set_title(shown_fig(ed), fontsize=8)
        ax.text(
            0.98,
            0.95,
            f"mean {num(r.mean(), 1)}\nlongest {r.max()}",
            transform=ax.transAxes,
            ha="right",
            va="top",
            fontsize=7,
            bbox={"facecolor": "white", "alpha": 0.8, "lw": 0, "pad": 1},
        )
    for ax in axes[-1]:
        ax.set_xlabel("rounds in the match")
    for ax in axes[:, 0]:
        ax.set_ylabel("% of matches")
    axes[0, 0].set_xlim(0, hi + 1)
    fig.suptitle(
        "Rounds per match to 500, 4 random players (whole range; black line: mean)", fontsize=9
    )
    page.figure(
        fig,
        "rounds-per-match",
        "Rounds per match to 500 with 4 players, one panel per edition, over the whole range.",
    )

    keys = [
        ("points_mean", "mean points per round (points)"),
        ("points_ge_100", "rounds worth >= 100 points (%)"),
        ("points_ge_200", "rounds worth >= 200 points (%)"),
    ]
    fig, axes = plt.subplots(1, 4, figsize=(13, 3.6))
    for ax, (key, label) in zip(axes, keys):
        f = 1.0 if key == "points_mean" else 100.0
        for ed in EDITIONS:
            intervals(
                ax,
                PLAYER_COUNTS,
                f * np.array([stats[ed, n][key] for n in PLAYER_COUNTS]),
                marker="o",
                ms=3,
                lw=1,
                capsize=2,
                color=colour(ed),
                label=shown_fig(ed),
            )
        player_axis(ax)
        ax.set_ylabel(label)
    for ed in EDITIONS:
        intervals(
            axes[3],
            PLAYER_COUNTS,
            [mstats[ed, n]["mean"] for n in PLAYER_COUNTS],
            marker="o",
            ms=3,
            lw=1,
            capsize=2,
            color=colour(ed),
        )
    player_axis(axes[3])
    axes[3].set_ylabel("mean rounds per match to 500")
    axes[0].legend(fontsize=7)
    page.figure(
        fig,
        "points-by-players",
        "Mean points, tail probabilities and rounds per "
        "match by player count and edition, with 95% intervals (UNO in Portugal plays "
        "exactly Official UNO's rounds with random players and hides its points).",
    )


def _tables(page: Page, stats: dict, mstats: dict, at4: dict) -> None:
    """Every statistic as tables and a CSV file."""
    base = stats["official", 4]["points_mean"][0]
    page.heading("Points per round with 4 players")
    rows = []
    for p in PRESETS:
        s = at4[p]
        rows.append(
            {
                "preset": shown(p),
                "mean": ci(*s["points_mean"]),
                "vs Official UNO": f"{num(rel(s['points_mean'][0] - base, base), 1, True)}%",
                "median": ci(*s["points_median"], 0),
                "90th pct": ci(*s["points_p90"], 0),
                "P(>= 100)": ci(*s["points_ge_100"], 4),
                "P(>= 200)": ci(*s["points_ge_200"], 4),
                "completed rounds": f"{s['completed']:,}",
            }
        )
    page.table(pd.DataFrame(rows))
    for key, title, dg in (
        ("points_mean", "Mean points per round by player count", 1),
        ("points_ge_100", "P(points >= 100) by player count", 3),
        ("points_ge_200", "P(points >= 200) by player count", 3),
    ):
        page.heading(title, 3)
        page.table(by_players_table(stats, EDITIONS, "edition", key, dg))
    page.heading("Rounds per match to 500")
    rows = []
    for ed in EDITIONS:
        row = {"edition": shown(ed)}
        for n in PLAYER_COUNTS:
            s = mstats[ed, n]
            row[f"{n}"] = f"{ci(*s['mean'], 2)}; {num(s['median'][0], 0)} / {num(s['p90'][0], 0)}"
        rows.append(row)
    page.table(pd.DataFrame(rows))
    page.para(
        "Columns: players at the table. Each cell: mean rounds per completed "
        "match [95% interval]; median / 90th percentile. UNO Pokémon passes the "
        "deal to the round's winner; the others rotate it."
    )
    page.para(
        "Points statistics use completed rounds (a truncated round has no winner). "
        "Means with Student t intervals, quantiles with order-statistic intervals, "
        "probabilities with Wilson intervals."
    )

    page.data(_csv(stats, mstats), "points", "Every statistic by edition and player count")


def _csv(stats: dict, mstats: dict) -> pd.DataFrame:
    rows = []
    for (ed, n), s in stats.items():
        row = {
            "edition": ed,
            "rules_hash": PRESETS[ed].hash(),
            "players": n,
            "rounds": s["games"],
            "completed": s["completed"],
        }
        for key in ("points_mean", "points_median", "points_p90", "points_ge_100", "points_ge_200"):
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
    main(NAME, compute, render, __doc__)
