"""stacking: stacking vs official (none, same, progressive) on the same games.

Usage: python analyses/stacking.py [--scale S] [--out reports] [--results results/reports]

The three stacking rules (RULES.md 8.1) are played on the same seeds, so game i starts
from the same deal under each; differences are computed game by game (common random
numbers): round length, seat 0's win rate, points, cards drawn, truncation, with the
variance reduction the pairing achieved, at 2 to 10 `random` players and with 4 `table`
players (when this version has them); and the distribution of max_stack, the largest
pending draw penalty of a round.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from common import main, realistic

from unosim.analysis.compare import METRICS, paired_metrics
from unosim.game import names as N
from unosim.game.names import DISPLAY, NOTICE
from unosim.game.rules import PRESETS
from unosim.report import escape as esc
from unosim.report.cache import PLAYER_COUNTS, Context, Results
from unosim.report.figures import forest_axis, intervals, player_axis
from unosim.report.numbers import rel
from unosim.report.page import Page, ci, num
from unosim.report.words import change, colour, noticeable, players
from unosim.stats import mean_ci, paired_diff, wilson_ci

NAME = "stacking"
ARMS = ("official", "stacking", "progressive")  # stacking = none, same, progressive
PAIRS = (("official", "stacking"), ("official", "progressive"), ("stacking", "progressive"))
# each arm in words: "no stacking", "stacking (same card)", "stacking (+4 on +2 too)"
LABEL = {a: DISPLAY["stacking"][1][PRESETS[a].stacking] for a in ARMS}
LABEL_MD = {a: esc.md_text(v) for a, v in LABEL.items()}
RATES = ("seat0_win_rate", "truncation_rate")  # differences in percentage points
DIGITS = {
    "mean_turns": 2,
    "median_turns": 1,
    "seat0_win_rate": 4,
    "mean_points": 2,
    "truncation_rate": 6,
    "mean_max_stack": 3,
    "mean_cards_drawn": 2,
}


def _pair_frames(a: pd.DataFrame, b: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The common games of two runs of one seed (the shorter run's game indices)."""
    k = min(len(a), len(b))
    return a.iloc[:k], b.iloc[:k]


def _extra(t: pd.DataFrame, fa: pd.DataFrame, fb: pd.DataFrame) -> pd.DataFrame:
    """``t`` plus the paired differences of max_stack and cards drawn."""
    for col, key, label in (
        ("max_stack", "mean_max_stack", "mean largest pending penalty"),
        ("cards_drawn", "mean_cards_drawn", "mean cards drawn"),
    ):
        ms = paired_diff(fa[col].to_numpy(np.float64), fb[col].to_numpy(np.float64))
        t.loc[key] = {
            "label": label,
            "n": ms["n"],
            "value_a": ms["mean_a"],
            "value_b": ms["mean_b"],
            "diff": ms["diff"],
            "lo": ms["lo"],
            "hi": ms["hi"],
            "se_paired": ms["se_paired"],
            "se_independent": ms["se_independent"],
            "variance_reduction": ms["variance_reduction"],
        }
    return t


def _rel(r) -> tuple[float, float, float]:
    """A paired difference as % of the first arm's value (its interval scaled alike)."""
    return tuple(rel(r[k], r["value_a"]) for k in ("diff", "lo", "hi"))


def _shown(r, key: str) -> tuple[float, float, float]:
    """A paired difference as a page shows it: a rate's in percentage points, any other
    in % of the first arm's value."""
    if key in RATES:
        return tuple(100.0 * r[k] for k in ("diff", "lo", "hi"))
    return _rel(r)


def compute(ctx: Context) -> Results:
    """The three rules on the same games, compared pair by pair (every player count with
    random players, 4 with the others), and the largest pending penalty at 4 players."""
    strats = ("random", *realistic())
    cols = ("turns", "winner", "points", "max_stack", "truncated", "cards_drawn")
    frames = {
        (a, n, "random"): ctx.standard(a, n, columns=cols) for a in ARMS for n in PLAYER_COUNTS
    }
    for st in strats[1:]:
        for a in ARMS:
            frames[a, 4, st] = ctx.standard(a, 4, st, columns=cols)
    res: dict[tuple[str, str, int, str], pd.DataFrame] = {}
    for a0, n, st in frames:
        if a0 != ARMS[0]:
            continue
        for a, b in PAIRS:
            fa, fb = _pair_frames(frames[a, n, st], frames[b, n, st])
            metrics = (
                tuple(METRICS)
                if n == 4
                else ("mean_turns", "seat0_win_rate", "mean_points", "truncation_rate")
            )
            t = paired_metrics(fa, fb, metrics=metrics).set_index("metric")
            res[a, b, n, st] = _extra(t, fa, fb)
    return ctx.results_of(
        {
            "strategies": list(strats),
            "paired": res,
            # the largest pending penalty at 4 players: rounds by cards
            "dist": {a: np.bincount(frames[a, 4, "random"]["max_stack"].to_numpy()) for a in ARMS},
            "mean_max_stack": {
                a: mean_ci(frames[a, 4, "random"]["max_stack"].to_numpy(np.float64)) for a in ARMS
            },
            "fewest": min(len(f) for f in frames.values()),
        }
    )


def _d(r, key: str) -> str:
    """A paired difference with its interval, in the metric's digits."""
    return ci(r["diff"], r["lo"], r["hi"], DIGITS[key], sign=True)


def _ge(dist: np.ndarray, k: int) -> tuple[float, float, float]:
    """The share of rounds whose largest pending penalty was ``k`` cards or more."""
    n = int(dist.sum())
    c = int(dist[k:].sum())
    lo, hi = wilson_ci(c, n)
    return (c / n, lo, hi)


def _dpp(r) -> str:
    """A paired difference of a rate in percentage points, with its interval."""
    return ci(100 * r["diff"], 100 * r["lo"], 100 * r["hi"], 2, sign=True)


def _pct_ci(t: tuple[float, float, float]) -> str:
    """A share of rounds in %, with its interval."""
    return ci(*(100 * v for v in t), 2).replace(" [", "% [", 1)


def render(results: Results) -> Page:
    page = Page(
        NAME,
        "Stacking Draw Twos and Wild Draw Fours",
        "What does stacking Draw Twos and Wild Draw Fours (no stacking, stacking "
        "the same card, or a +4 on a +2 too; docs/rules.md 8.1) change in round "
        "length, seat advantage and points when the same games are played under "
        "each rule, and how large do the stacks get?",
    )
    res, dist, strats = results["paired"], results["dist"], results["strategies"]
    page.heading("Answer")
    page.lead(_lead(res, dist, strats))
    _main_figure(page, res, strats)
    _findings(page, res, dist, results["fewest"])
    page.heading("Figures")
    _figures(page, res, dist)
    _tables(page, res, dist, strats)
    mean_ms = results["mean_max_stack"]
    results.provenance(
        page,
        notes=[
            "Rules: "
            + "; ".join(
                f"{esc.code(a)} ({LABEL_MD[a]}) = official with `stacking = "
                f"{PRESETS[a].stacking}` (hash {esc.code(PRESETS[a].hash())})"
                for a in ARMS
            )
            + ".",
            "Mean max_stack at 4 random players: "
            + "; ".join(f"{LABEL_MD[a]} {ci(*mean_ms[a], 3)}" for a in ARMS)
            + ".",
            "Where two runs have different lengths (other player counts), the comparison uses "
            "their common games 0 .. k − 1 of the same seed.",
        ],
    )
    return page


def _lead(res: dict, dist: dict, strats) -> str:
    """The answer in plain words."""

    def pc(a: str, b: str, key: str, st: str = "random", n: int = 4) -> float:
        return _rel(res[a, b, n, st].loc[key])[0]

    t_s = res["official", "stacking", 4, "random"].loc["mean_turns"]
    t_p = res["official", "progressive", 4, "random"].loc["mean_turns"]
    same, prog = esc.md_text(LABEL["stacking"]), esc.md_text(LABEL["progressive"])
    shorter = t_s["hi"] < 0 and t_p["hi"] < 0
    lead = (
        (
            "Stacking makes rounds a little shorter, not longer: with 4 random players "
            if shorter
            else "With 4 random players "
        )
        + f"{same} makes rounds {change(pc('official', 'stacking', 'mean_turns'))} "
        f"({num(t_s['value_b'], 1)} against {num(t_s['value_a'], 1)} turns on the same "
        f"deals) and {prog} {change(pc('official', 'progressive', 'mean_turns'))}"
    )
    for st in strats[1:]:
        lead += (
            f"; with 4 {players(st, explained=True)} "
            f"{change(pc('official', 'stacking', 'mean_turns', st))}"
            f" and {change(pc('official', 'progressive', 'mean_turns', st))}"
        )
    cd_s = pc("official", "stacking", "mean_cards_drawn")
    ps = pc("official", "stacking", "mean_points")
    pp = pc("official", "progressive", "mean_points")
    drawn = (
        f"players draw {change(cd_s, 'more', 'fewer')} cards per round with {same}"
        + (", since a stacked card is played instead of drawing" if cd_s < 0 else "")
        if noticeable(cd_s)
        else f"{same} makes no practical difference to the cards players draw "
        f"({num(cd_s, 1, True)}%)"
    )
    if noticeable(ps) and noticeable(pp):
        points = f"change by {num(ps, 1, True)}% and {num(pp, 1, True)}%"
    elif noticeable(ps) or noticeable(pp):
        big, small = ((ps, same), (pp, prog)) if noticeable(ps) else ((pp, prog), (ps, same))
        points = (
            f"change by {num(big[0], 1, True)}% with {big[1]}; with {small[1]} their change, "
            f"{num(small[0], 1, True)}%, makes no practical difference"
        )
    else:
        points = f"show no practical difference ({num(ps, 1, True)}% and {num(pp, 1, True)}%)"
    lead += (
        f". The penalties are concentrated instead: someone faces 8 cards or more in "
        f"{num(100 * _ge(dist['stacking'], 8)[0], 0)}% of rounds with {same} and "
        f"{num(100 * _ge(dist['progressive'], 8)[0], 0)}% with {prog}, never without "
        f"stacking; {drawn}, and the winner's points {points}."
    )
    s0 = res["official", "progressive", 4, "random"].loc["seat0_win_rate"]
    if s0["hi"] < 0 or s0["lo"] > 0:
        d0 = 100 * abs(s0["diff"])
        lead += (
            f" Seat 0's win rate {'drops' if s0['hi'] < 0 else 'rises'} by "
            f"{num(d0, 2)} percentage points with {prog}."
            if noticeable(d0, rate=True)
            else f" Who goes first keeps the same edge: {prog} moves seat 0's win rate by "
            f"{num(d0, 2)} percentage points, no practical difference."
        )
    return lead


def _findings(page: Page, res: dict, dist: dict, fewest: int) -> None:
    """The findings under the main figure and the precision."""
    same, prog = esc.md_text(LABEL["stacking"]), esc.md_text(LABEL["progressive"])
    n4 = int(dist["official"].sum())
    vr = [res[a, b, 4, "random"].loc["mean_turns", "variance_reduction"] for a, b in PAIRS]
    m_s = res["official", "stacking", 4, "random"].loc["median_turns"]
    m_p = res["official", "progressive", 4, "random"].loc["median_turns"]
    sp = res["stacking", "progressive", 4, "random"]
    bullets = [
        f"Median length: {num(m_s['value_a'], 0)} turns without stacking, "
        f"{num(m_s['value_b'], 0)} with {same} (difference {_d(m_s, 'median_turns')}, "
        f"bootstrap interval) and {num(m_p['value_b'], 0)} with {prog} "
        f"({_d(m_p, 'median_turns')}).",
        f"{prog[0].upper() + prog[1:]} against {same}, same games: length "
        f"{_d(sp.loc['mean_turns'], 'mean_turns')} turns, seat 0's win rate "
        f"{_dpp(sp.loc['seat0_win_rate'])} percentage points, points "
        f"{_d(sp.loc['mean_points'], 'mean_points')}.",
        f"Stacks: the largest pending penalty in {n4:,} rounds was {len(dist['stacking']) - 1} "
        f"cards with {same} and {len(dist['progressive']) - 1} with {prog}, "
        f"{len(dist['official']) - 1} without stacking (one Wild Draw Four). A pending "
        f"penalty of 12 cards or more: {_pct_ci(_ge(dist['stacking'], 12))} of rounds with "
        f"{same}, {_pct_ci(_ge(dist['progressive'], 12))} with {prog}.",
        "Pairing: the variance of the length difference is "
        + ", ".join(f"{num(v, 2)}×" for v in vr)
        + f" smaller than with independent runs ({same} against no stacking, {prog} "
        f"against no stacking, {prog} against {same}), so the same precision needs "
        "that many times fewer games.",
    ]
    by_n = [
        n
        for n in PLAYER_COUNTS
        if res["official", "progressive", n, "random"].loc["mean_turns", "hi"] < 0
    ]
    bullets.append(
        f"{prog[0].upper() + prog[1:]} shortens rounds (95% interval of the paired "
        "difference below 0) at "
        + (
            "every player count from 2 to 10"
            if len(by_n) == len(PLAYER_COUNTS)
            else (", ".join(map(str, by_n)) + " players" if by_n else "no player count")
        )
        + "."
    )
    bullets.append(
        "These are simple effects: stacking switched on in Official UNO and "
        "nothing else. The [house rules page](house-rules.md) also averages "
        "stacking over combinations with Seven-Zero, Jump-In, draw until you "
        "can play and Wild Draw Four at any time, which gives other sizes; "
        "the [editions page](editions.md) shows the same simple effects as here."
    )
    page.bullets(bullets)
    hw = {
        k: max(
            max(t.loc[k, "hi"] - t.loc[k, "diff"], t.loc[k, "diff"] - t.loc[k, "lo"])
            for (a, b, n, st), t in res.items()
            if n == 4 and st == "random"
        )
        for k in ("mean_turns", "seat0_win_rate", "mean_points")
    }
    page.para(
        f"Precision: {n4:,} paired games per rule at 4 random players "
        f"({fewest:,} or more for the other runs). At 4 "
        f"random players the 95% intervals of the paired differences are within "
        f"±{num(hw['mean_turns'])} turns, ±{num(100 * hw['seat0_win_rate'], 2)} "
        f"percentage points in seat 0's win rate and ±{num(hw['mean_points'])} points: "
        "a difference is called a change only when its interval excludes 0, and one "
        f"under {num(NOTICE['relative'], 0)}% of length, points or cards drawn (under "
        f"{num(NOTICE['points'], 1)} percentage points of a win rate) makes no "
        "practical difference. Changes in length, points and cards are in percent of "
        "the first rule's value (its own uncertainty, far smaller, is left out); "
        "changes in a win rate are in percentage points."
    )


def _figures(page: Page, res: dict, dist: dict) -> None:
    """The largest pending penalty, and the paired differences by player count."""
    n4 = int(dist["official"].sum())
    fig, ax = plt.subplots(figsize=(7, 3.6))
    width = 0.28
    for i, a in enumerate(ARMS):
        k = np.arange(len(dist[a]))
        f = dist[a] / n4
        keep = f > 0
        lo, hi = np.array([wilson_ci(int(c), n4) for c in dist[a][keep]]).T
        ax.bar(
            k[keep] + (i - 1) * width,
            100 * f[keep],
            width=width,
            color=colour(a),
            label=esc.mpl(LABEL[a]),
            yerr=[100 * (f[keep] - lo), 100 * (hi - f[keep])],
            error_kw={"lw": 0.6, "capsize": 1},
        )
    ax.set_yscale("log")
    ax.set_xlabel("largest pending draw penalty in the round (cards)")
    ax.set_ylabel("% of rounds (log scale)")
    ax.set_title("The largest penalty a player faced, 4 random players")
    ax.legend()
    page.figure(
        fig,
        "max-stack",
        "Distribution of the largest pending draw penalty of a round "
        "under each stacking rule, 4 random players (log scale, 95% intervals).",
    )

    fig, axes = plt.subplots(1, 3, figsize=(12, 3.6))
    for ax, key in zip(axes, ("mean_turns", "seat0_win_rate", "mean_points")):
        for j, (a, b) in enumerate(PAIRS[:2]):
            intervals(
                ax,
                np.array(PLAYER_COUNTS) + (j - 0.5) * 0.15,
                [_shown(res[a, b, n, "random"].loc[key], key) for n in PLAYER_COUNTS],
                marker="o",
                ms=3,
                capsize=2,
                color=colour(b),
                label=esc.mpl(f"{LABEL[b]} against no stacking"),
            )
        ax.axhline(0, color="grey", lw=0.8)
        player_axis(ax)
        unit = "percentage points" if key in RATES else "% of no stacking"
        ax.set_ylabel(f"Δ {METRICS[key]} ({unit})")
    axes[0].legend()
    fig.suptitle("Stacking against no stacking on the same deals, random players", fontsize=9)
    page.figure(
        fig,
        "by-players",
        "Paired differences from no stacking by player count, random players: "
        "length and points in % of the no-stacking value, seat 0's win rate in "
        "percentage points, with 95% intervals.",
    )


def _tables(page: Page, res: dict, dist: dict, strats) -> None:
    """Every paired comparison and the largest pending penalty, as tables and a CSV."""
    n4 = int(dist["official"].sum())
    for st in strats:
        page.heading(f"Paired differences with {players(st, 4)}")
        rows = []
        for a, b in PAIRS:
            t = res[a, b, 4, st]
            for key, r in t.iterrows():
                dg = DIGITS[key]
                v = r["variance_reduction"]
                rows.append(
                    {
                        "comparison": f"{LABEL_MD[b]} − {LABEL_MD[a]}",
                        "metric": r["label"],
                        "A": num(r["value_a"], dg),
                        "B": num(r["value_b"], dg),
                        "B − A [95% interval]": _d(r, key),
                        "B − A (% of A)": (
                            "n/a (a rate)" if key in RATES else f"{num(_rel(r)[0], 2, True)}%"
                        ),
                        "variance reduction": "n/a" if np.isnan(v) else f"{num(v, 2)}×",
                    }
                )
        page.table(pd.DataFrame(rows))
    page.para(
        "Means: t interval on the per-game differences; median: Poisson bootstrap "
        "of the pairs (1,000 replicates); rates: Newcombe's interval for paired "
        "proportions. Variance reduction: variance of the difference from two "
        "independent runs of this size over its variance from the pairs (n/a when "
        "neither varies, e.g. no truncated round in either arm). A rate's difference "
        "is not given in % of A: its difference in percentage points is B − A times 100."
    )

    page.heading("By player count (random players)", 3)
    rows = []
    for n in PLAYER_COUNTS:
        row = {"players": n}
        for a, b in PAIRS[:2]:
            t = res[a, b, n, "random"]
            row[f"{LABEL_MD[b]}: Δ turns"] = _d(t.loc["mean_turns"], "mean_turns")
            row[f"{LABEL_MD[b]}: Δ seat 0 (pp)"] = _dpp(t.loc["seat0_win_rate"])
            row[f"{LABEL_MD[b]}: Δ points"] = _d(t.loc["mean_points"], "mean_points")
        rows.append(row)
    page.table(pd.DataFrame(rows))
    page.para("pp: percentage points.")

    page.heading("The largest pending penalty with 4 random players", 3)
    kmax = max(len(v) for v in dist.values())
    rows = []
    for k in range(kmax):
        if not any(k < len(dist[a]) and dist[a][k] for a in ARMS):
            continue
        row = {"cards": k}
        for a in ARMS:
            c = int(dist[a][k]) if k < len(dist[a]) else 0
            lo, hi = wilson_ci(c, n4)
            row[LABEL_MD[a]] = (
                ci(c / n4, lo, hi, 4) if c / n4 >= 1e-3 else f"{c / n4:.2e} [{lo:.2e}, {hi:.2e}]"
            )
        rows.append(row)
    page.table(pd.DataFrame(rows))
    page.para(
        "Fraction of rounds whose largest pending draw penalty (max_stack) was exactly "
        "so many cards "
        "(Wilson intervals); it counts the setup Draw Two's 2 and a last card's "
        "penalty (docs/rules.md section 6)."
    )

    rows = []
    for (a, b, n, st), t in res.items():
        for key, r in t.iterrows():
            rows.append(
                {
                    "a": a,
                    "b": b,
                    "players": n,
                    "strategies": st,
                    "metric": key,
                    **{
                        c: r[c]
                        for c in (
                            "n",
                            "value_a",
                            "value_b",
                            "diff",
                            "lo",
                            "hi",
                            "se_paired",
                            "se_independent",
                            "variance_reduction",
                        )
                    },
                }
            )
    page.data(pd.DataFrame(rows), "paired", "Every paired comparison")


FIG_METRICS = (
    ("mean_turns", "mean turns"),
    ("mean_cards_drawn", "cards drawn"),
    ("mean_points", "winner's points"),
    ("seat0_win_rate", "seat 0 win rate"),
)


def _main_figure(page: Page, res, strats) -> None:
    fig, axes = plt.subplots(1, len(FIG_METRICS), figsize=(12, 2.6), sharey=True)
    rows = [(b, st) for st in strats for b in ("stacking", "progressive")]
    labels = [f"{LABEL[b]}, {N.PLAYERS_DISPLAY[st]}" for b, st in rows]
    for ax, (key, title) in zip(axes, FIG_METRICS):
        e = np.array([_shown(res["official", b, 4, st].loc[key], key) for b, st in rows])
        forest_axis(ax, labels, e[:, 0], e[:, 1], e[:, 2], [colour(b) for b, _ in rows])
        unit = "percentage points" if key in RATES else "% of no stacking"
        ax.set_xlabel(f"Δ {title}\n({unit})")
    fig.suptitle(
        "Stacking against no stacking on the same deals, 4 players (95% intervals)", fontsize=9
    )
    page.figure(
        fig,
        "paired-differences",
        "Paired differences from no stacking on the same deals, 4 players: length, "
        "cards drawn and points in % of the no-stacking value, seat 0's win rate in "
        "percentage points, with 95% intervals.",
        main=True,
    )


if __name__ == "__main__":
    main(NAME, compute, render, __doc__)
