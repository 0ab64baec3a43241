"""editions: every preset of RULES.md section 9 side by side, with four players.

Usage: python analyses/editions.py [--scale S] [--out reports] [--results results/reports]

Each preset is played on the same seeds (game i of every preset keyed by (2026, i)), by
`random`, `heuristic` and realistic `table` players (when this version has them): round
length, seat 0's win rate, points,
penalty stacks, and paired differences from `official`. (This page replaces the former
`analyses/preset_summary.py`.)
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from common import main, realistic

from unosim.analysis.compare import paired_metrics
from unosim.game.rules import PRESET_NOTES, PRESETS
from unosim.report import escape as esc
from unosim.report.cache import Context, Results, standard_games
from unosim.report.figures import plain_log, symlog_percent
from unosim.report.numbers import describe, rel
from unosim.report.page import Page, ci, num
from unosim.report.words import (
    colour,
    names_and,
    noticeable,
    players,
    players_fig,
    shown,
    shown_fig,
)

NAME = "editions"
PLAYERS = 4
STRATEGIES = ("random", "heuristic")


def strategies() -> tuple[str, ...]:
    return ("random", "heuristic", *realistic())


def _sep(r) -> bool:
    """Whether a paired difference's interval excludes 0."""
    return bool(r["lo"] > 0 or r["hi"] < 0)


def _rel3(r) -> tuple[float, float, float]:
    """A paired difference in % of official's value."""
    return tuple(rel(r[k], r["value_a"]) for k in ("diff", "lo", "hi"))


def compute(ctx: Context) -> Results:
    """Every preset with four players of each model, on the same deals: statistics, and
    paired differences from Official UNO (length, seat 0's win rate, points)."""
    strats = strategies()
    names = list(PRESETS)
    stats: dict[tuple[str, str], dict] = {}
    paired: dict[tuple[str, str], pd.DataFrame] = {}
    same_as_official: dict[str, list[str]] = {s: [] for s in strats}
    for strat in strats:
        base = ctx.standard("official", PLAYERS, strat)
        for name in names:
            df = base if name == "official" else ctx.standard(name, PLAYERS, strat)
            stats[strat, name] = describe(df, PLAYERS)
            if name != "official":
                paired[strat, name] = paired_metrics(
                    base, df, metrics=("mean_turns", "seat0_win_rate", "mean_points")
                ).set_index("metric")
                cols = ["winner", "turns", "points", "cards_drawn"]
                if df[cols].equals(base[cols]):
                    same_as_official[strat].append(name)
    return ctx.results_of(
        {
            "strategies": list(strats),
            "stats": stats,
            "paired": paired,
            "same_as_official": same_as_official,
        }
    )


def render(res: Results) -> Page:
    page = Page(
        NAME,
        "Editions and presets side by side",
        "How do the presets of docs/rules.md section 9 (the editions and the named "
        "house-rule sets) differ in round length, seat 0's advantage, points and "
        "penalty stacks, with four players?",
    )
    strats, stats, paired = tuple(res["strategies"]), res["stats"], res["paired"]
    names = list(PRESETS)
    page.heading("Answer")
    page.lead(_lead(res))
    _main_figure(page, strats, paired, names[1:])
    _bullets(page, res)
    page.heading("Figures")
    _figures(page, strats, stats)
    _tables(page, res)
    page.data(_csv(stats, names), "presets", "Every number of the tables, by strategy and preset")
    res.provenance(
        page,
        notes=[
            "Presets: "
            + "; ".join(f"{esc.code(n)} ({shown(n)}) {PRESET_NOTES[n]}" for n in names)
            + ".",
            f"Games per run follow one policy shared by every page (e.g. "
            f"{standard_games('official', 4):,} rounds with 4 random players), so pages "
            "that show the same rule set and player count use the same games.",
        ],
    )
    return page


def _lead(res: Results) -> str:
    """The answer's opening paragraph: length under each preset against Official UNO,
    and what table players change."""
    strats, stats, paired = tuple(res["strategies"]), res["stats"], res["paired"]
    same_as_official = res["same_as_official"]
    names = list(PRESETS)
    R = {n: stats["random", n] for n in names}
    off = R["official"]
    others = names[1:]
    d_len = {n: paired["random", n].loc["mean_turns"] for n in others}
    pl = {n: _rel3(d_len[n])[0] for n in others}
    order = sorted(others, key=lambda n: -pl[n])
    big = [n for n in order if abs(pl[n]) >= 10]
    mid = [n for n in order if 4 <= abs(pl[n]) < 10]
    small = [n for n in order if abs(pl[n]) < 4]
    lead = (
        f"With 4 players an official round lasts {num(off['turns_mean'][0], 0)} turns; "
        + "rounds last "
        + names_and(
            [
                f"{num(abs(pl[n]), 0)}% {'longer' if pl[n] > 0 else 'shorter'} under {shown(n)}"
                for n in big + mid
            ]
        )
        + (
            f", and the other {len(small)} presets stay within "
            f"{num(max(abs(pl[n]) for n in small), 0) if small else 0}% of it"
            if small
            else ""
        )
        + " (random players, same deals)."
    )
    lead += _lead_table(strats, paired, same_as_official, order, d_len)
    return lead


def _lead_table(strats, paired, same_as_official, order, d_len) -> str:
    """What the lead adds for table players (none without them)."""
    others = list(PRESETS)[1:]
    lead = ""
    real = strats[-1]
    if real == "table":
        pt = paired["table", "portugal"]
        d, lo, hi = pt.loc["mean_turns", ["diff", "lo", "hi"]]
        s0 = pt.loc["seat0_win_rate"]
        lead += (
            " With table players, who sometimes bluff a Wild Draw Four and forget to "
            f"say UNO, {shown('portugal')} (no challenges, a 1-card UNO penalty) "
            + (
                f"plays {num(abs(_rel3(pt.loc['mean_turns'])[0]), 1)}% "
                f"{'longer' if d > 0 else 'shorter'} rounds than Official UNO "
                f"({num(d, 2, True)} turns [{num(lo, 2, True)}, {num(hi, 2, True)}])"
                if (lo > 0 or hi < 0) and noticeable(_rel3(pt.loc["mean_turns"])[0])
                else "makes no practical difference to length against Official UNO "
                f"({ci(d, lo, hi, 2, True)} turns)"
            )
            + (
                ""
                if "portugal" not in same_as_official["random"]
                else ", while random players, who never bluff or forget, play exactly "
                "Official UNO's games under it"
            )
            + (
                f"; seat 0's win rate moves by {num(100 * s0['diff'], 2, True)} "
                f"percentage points [{num(100 * s0['lo'], 2, True)}, "
                f"{num(100 * s0['hi'], 2, True)}]"
                if _sep(s0) and noticeable(100 * s0["diff"], rate=True)
                else ""
            )
            + "."
        )
    if real == "table":
        tl = {n: paired["table", n].loc["mean_turns"] for n in others}
        flip = [
            n
            for n in order
            if _sep(d_len[n])
            and _sep(tl[n])
            and (d_len[n]["diff"] > 0) != (tl[n]["diff"] > 0)
            and noticeable(_rel3(tl[n])[0])
        ]
        if flip:
            lead += (
                " Table players turn some of this round: "
                + names_and(
                    [
                        f"rounds under {shown(n)} are {num(abs(_rel3(tl[n])[0]), 0)}% "
                        f"{'longer' if tl[n]['diff'] > 0 else 'shorter'} for them, not "
                        f"{'shorter' if tl[n]['diff'] > 0 else 'longer'}"
                        for n in flip
                    ]
                )
                + "."
            )
    return lead


def _bullets(page: Page, res: Results) -> None:
    """The answer's bullets and its precision paragraph."""
    strats, stats, paired = tuple(res["strategies"]), res["stats"], res["paired"]
    same_as_official = res["same_as_official"]
    names = list(PRESETS)
    R = {n: stats["random", n] for n in names}
    off = R["official"]
    others = names[1:]
    d_len = {n: paired["random", n].loc["mean_turns"] for n in others}
    d_s0 = {n: paired["random", n].loc["seat0_win_rate"] for n in others}
    pts = {n: R[n]["points_mean"] for n in names}
    pts_hi = max(names, key=lambda n: pts[n][0])
    pts_lo = min(names, key=lambda n: pts[n][0])
    stackers = [n for n in names if PRESETS[n].stacking != "none"]
    bullets = [
        "Length (mean turns, 4 random players), longest first: "
        + "; ".join(
            f"{shown(n)} {ci(*R[n]['turns_mean'])}"
            for n in sorted(names, key=lambda k: -R[k]["turns_mean"][0])
        )
        + ".",
        f"Points a round is worth (completed rounds): highest under {shown(pts_hi)} "
        f"({ci(*pts[pts_hi])}), lowest under {shown(pts_lo)} ({ci(*pts[pts_lo])}); "
        f"Official UNO {ci(*off['points_mean'])}.",
        "Seat 0 (first to act) against Official UNO (paired differences of its win rate "
        "in percentage points, random players; under 0.5 no practical difference): "
        + "; ".join(
            f"{shown(n)} {_diff_pp(d_s0[n])}" for n in sorted(d_s0, key=lambda k: d_s0[k]["diff"])
        )
        + ".",
        "Penalty stacks: the share of rounds in which someone faces 8 cards or more is "
        + "; ".join(f"{shown(n)} {_pct_ci(R[n]['stack_ge_8'])}" for n in stackers)
        + f"; without stacking the largest pending penalty seen in any round of any "
        f"preset is {max(R[n]['max_stack_max'] for n in names if n not in stackers)} cards.",
    ]
    for strat in strats:
        if same_as_official[strat]:
            lst = names_and([shown(n) for n in same_as_official[strat]])
            bullets.append(
                f"With {players(strat)} {lst} played every game exactly as "
                "Official UNO (same winner, turns, points and draws in each "
                "paired game): their differences from it (UNO penalty, "
                "challenges) need a player who forgets UNO or bluffs."
            )
    bullets.append(
        "The house-rule presets here ("
        + names_and(
            [shown(n) for n in ("stacking", "progressive", "seven-zero", "jump-in")]
            + [shown("draw-until-playable")]
        )
        + ") are each one switch on Official UNO, "
        "so their differences are the switches' simple effects; the "
        "[house rules page](house-rules.md) also averages each switch over "
        "the other switches' settings, which can differ in size and even sign."
    )
    page.bullets(bullets)
    hw_d = max(max(r["hi"] - r["diff"], r["diff"] - r["lo"]) for r in d_len.values())
    sep_len = sum(1 for r in d_len.values() if r["lo"] > 0 or r["hi"] < 0)
    sep_s0 = sum(1 for r in d_s0.values() if r["lo"] > 0 or r["hi"] < 0)
    n_len = sum(1 for r in d_len.values() if _sep(r) and noticeable(_rel3(r)[0]))
    n_s0 = sum(1 for r in d_s0.values() if _sep(r) and noticeable(100 * r["diff"], rate=True))
    page.para(
        "Precision: "
        + ", ".join(
            f"{stats[s, 'official']['games']:,} rounds per preset with {players(s)}" for s in strats
        )
        + f". With random players the paired differences of mean length from "
        f"Official UNO are within ±{num(hw_d)} turns; {sep_len} of the {len(d_len)} "
        f"other presets differ from Official UNO in mean length and {sep_s0} in seat "
        "0's win rate (95% interval of the paired difference excluding 0), and "
        f"{n_len} and {n_s0} of them by enough to notice (1% of length; 0.5 percentage "
        "points of a win rate)."
    )


def _figures(page: Page, strats, stats) -> None:
    """Every preset's mean turns, points and seat 0's win rate, by player model."""
    names = list(PRESETS)
    fig, axes = plt.subplots(1, 3, figsize=(11, 4.4), sharey=True)
    y = np.arange(len(names))
    k = len(strats)
    for ax, key, title in zip(
        axes,
        ("turns_mean", "points_mean", "seat0"),
        ("mean turns per round", "mean points per round (points)", "seat 0 win rate (%)"),
    ):
        f = 100.0 if key == "seat0" else 1.0
        for j, (strat, mk) in enumerate(zip(strats, ("o", "s", "D"))):
            e = f * np.array([stats[strat, n][key] for n in names])
            ax.errorbar(
                e[:, 0],
                y + (j - (k - 1) / 2) * 0.22,
                xerr=[e[:, 0] - e[:, 1], e[:, 2] - e[:, 0]],
                fmt=mk,
                ms=4,
                capsize=2,
                color=colour(strat),
                label=players_fig(strat),
            )
        if key == "seat0":
            ax.axvline(25, color="grey", lw=0.8, ls="--")
        if key == "turns_mean":
            ax.set_xscale("log")
            ax.margins(x=0.1)
            plain_log(ax, "x", (40, 50, 60, 80, 100))
            title += " (log scale)"
        ax.set_xlabel(title)
        ax.margins(x=0.1)
    axes[0].set_yticks(y, [shown_fig(n) for n in names])
    axes[0].set_ylim(len(names) - 0.5, -0.5)
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncol=k)
    page.figure(
        fig,
        "presets",
        "Mean turns, mean points and seat 0's win rate of every "
        "preset with 4 players of each model, with 95% intervals (dashed: a fair "
        "25%).",
    )


def _tables(page: Page, res: Results) -> None:
    """One table of every preset per player model, and the penalty stacks."""
    strats, stats, paired = tuple(res["strategies"]), res["stats"], res["paired"]
    names = list(PRESETS)
    R = {n: stats["random", n] for n in names}
    for strat in strats:
        page.heading(
            f"All presets, {players(strat, 4)} ({stats[strat, 'official']['games']:,} rounds each)"
        )
        rows = []
        for n in names:
            s = stats[strat, n]
            t = paired.get((strat, n))
            rows.append(
                {
                    "preset": shown(n),
                    "cards": PRESETS[n].deck_size(),
                    "mean turns": ci(*s["turns_mean"]),
                    "Δ turns vs Official UNO": ("" if t is None else _diff(t.loc["mean_turns"], 2)),
                    "seat 0 wins": ci(*s["seat0"], 4),
                    "Δ seat 0 (pp)": "" if t is None else _diff_pp(t.loc["seat0_win_rate"]),
                    "mean points": ci(*s["points_mean"]),
                    "cards drawn": ci(*s["drawn_mean"]),
                    "penalty of 8+ cards": ci(*s["stack_ge_8"], 4),
                    "truncated": f"{s['truncated']:,}",
                }
            )
        page.table(pd.DataFrame(rows))
    other_deck = [n for n in names if PRESETS[n].deck != PRESETS["official"].deck]
    vr_other = [
        paired["random", n].loc[m, "variance_reduction"]
        for n in other_deck
        for m in ("mean_turns", "seat0_win_rate", "mean_points")
    ]
    page.para(
        "Intervals are 95%: Student t for means, Wilson for rates; Δ: the paired "
        "difference from Official UNO on the same game index (pp: percentage "
        "points). cards drawn counts every card drawn after the deal; penalty of 8+ "
        "cards: the share of rounds in which someone faced a pending draw penalty of 8 "
        "cards or more (max_stack >= 8). Seat 0 acts first and seat 3 deals; a "
        "fair seat would win 0.25. Presets with another deck ("
        + names_and([shown(n) for n in other_deck])
        + ") deal other hands from the "
        "same seeds, so pairing gains little for them (variance reduction "
        f"{num(min(vr_other), 2)}× to {num(max(vr_other), 2)}×)."
    )
    page.heading("Penalty stacks")
    page.bullets(
        f"{shown(n)}: largest pending penalty median {num(R[n]['max_stack_q'][0], 0)}, 90th "
        f"percentile {num(R[n]['max_stack_q'][1], 0)}, 99th "
        f"{num(R[n]['max_stack_q'][2], 0)}, largest {R[n]['max_stack_max']}"
        for n in names
    )


def _main_figure(page: Page, strats, paired, others) -> None:
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.9), sharey=True)
    order = sorted(others, key=lambda n: -paired["random", n].loc["mean_turns", "diff"])
    k = len(strats)
    y = np.arange(len(order))
    for ax, m, label in zip(
        axes,
        ("mean_turns", "mean_points", "seat0_win_rate"),
        (
            "Δ mean turns (% of Official UNO)",
            "Δ mean points (% of Official UNO)",
            "Δ seat 0 win rate (percentage points)",
        ),
    ):
        for j, (strat, mk) in enumerate(zip(strats, ("o", "s", "D"))):
            rows = [paired[strat, n].loc[m] for n in order]
            if m == "seat0_win_rate":
                e = np.array([[100 * r[c] for c in ("diff", "lo", "hi")] for r in rows])
            else:
                e = np.array([_rel3(r) for r in rows])
            for i, n in enumerate(order):
                ax.errorbar(
                    e[i, 0],
                    y[i] + (j - (k - 1) / 2) * 0.22,
                    xerr=[[e[i, 0] - e[i, 1]], [e[i, 2] - e[i, 0]]],
                    fmt=mk,
                    ms=4,
                    capsize=2,
                    color=colour(n),
                    mfc=colour(n) if strat == "random" else "white",
                )
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_xlabel(label)
        if m != "seat0_win_rate":
            symlog_percent(ax)
            ax.set_xlabel(label + "\n(log scale beyond ±10%)")
        ax.margins(x=0.1)
    axes[0].set_yticks(y, [shown_fig(n) for n in order])
    axes[0].set_ylim(len(order) - 0.5, -0.5)
    from matplotlib.lines import Line2D

    handles = [
        Line2D(
            [],
            [],
            ls="",
            marker=mk,
            color="#555555",
            mfc="#555555" if s == "random" else "white",
            label=players_fig(s),
        )
        for s, mk in zip(strats, ("o", "s", "D"))
    ]
    fig.legend(handles=handles, loc="outside lower center", ncol=k, fontsize=8)
    fig.suptitle(
        "Each preset against Official UNO on the same deals, 4 players (95% intervals)",
        fontsize=9,
    )
    page.figure(
        fig,
        "paired-differences",
        "Each preset's paired difference from "
        "Official UNO in mean length, points and seat 0's win rate, for each player "
        "model (marker), with 95% intervals.",
        main=True,
    )


def _diff(r, digits: int) -> str:
    """A paired difference with its interval, or 'identical games'."""
    if r["se_paired"] == 0 and r["diff"] == 0:
        return "0 (identical games)"
    return ci(r["diff"], r["lo"], r["hi"], digits, True)


def _diff_pp(r) -> str:
    """A paired difference of a rate in percentage points with its interval, or
    'identical games'."""
    if r["se_paired"] == 0 and r["diff"] == 0:
        return "0 (identical games)"
    return ci(100 * r["diff"], 100 * r["lo"], 100 * r["hi"], 2, True)


def _pct_ci(t) -> str:
    """A share of rounds ``(est, lo, hi)`` in %, with its interval."""
    return f"{num(100 * t[0], 2)}% [{num(100 * t[1], 2)}, {num(100 * t[2], 2)}]"


def _csv(stats: dict, names: list[str]) -> pd.DataFrame:
    rows = []
    for (strat, n), s in stats.items():
        row = {
            "strategies": strat,
            "preset": n,
            "rules_hash": PRESETS[n].hash(),
            "games": s["games"],
            "truncated": s["truncated"],
        }
        for key in (
            "turns_mean",
            "turns_median",
            "seat0",
            "points_mean",
            "drawn_mean",
            "max_stack_mean",
            "stack_ge_8",
        ):
            row[key], row[key + "_lo"], row[key + "_hi"] = s[key]
        rows.append(row)
    return pd.DataFrame(rows)


if __name__ == "__main__":
    main(NAME, compute, render, __doc__)
