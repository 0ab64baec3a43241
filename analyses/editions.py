"""editions: every preset of RULES.md section 9 side by side, with four players.

Usage: python analyses/editions.py [--scale S] [--out reports] [--results results/reports]

Each preset is played on the same seeds (game i of every preset keyed by (2026, i)), by
`random` players and by `heuristic` players: round length, seat 0's win rate, points,
penalty stacks, and paired differences from `official`. (This page replaces the former
`analyses/preset_summary.py`.)
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from common import Context, describe, half, leaders, main, names_and, standard_games

import matplotlib.pyplot as plt
from unosim.compare import paired_metrics
from unosim.report import Page, ci, num
from unosim.rules import PRESET_NOTES, PRESETS

NAME = "editions"
PLAYERS = 4
STRATEGIES = ("random", "heuristic")


def build(ctx: Context) -> Page:
    page = Page(NAME, "Editions and presets side by side",
                "How do the presets of RULES.md section 9 (the editions and the named "
                "house-rule sets) differ in round length, seat 0's advantage, points and "
                "penalty stacks, with four players?", ctx.out)
    names = list(PRESETS)
    stats: dict[tuple[str, str], dict] = {}
    paired: dict[tuple[str, str], pd.DataFrame] = {}
    same_as_official: dict[str, list[str]] = {s: [] for s in STRATEGIES}
    for strat in STRATEGIES:
        base = ctx.standard("official", PLAYERS, strat)
        for name in names:
            df = base if name == "official" else ctx.standard(name, PLAYERS, strat)
            stats[strat, name] = describe(df, PLAYERS)
            if name != "official":
                paired[strat, name] = paired_metrics(
                    base, df, metrics=("mean_turns", "seat0_win_rate", "mean_points"))
                cols = ["winner", "turns", "points", "cards_drawn"]
                if df[cols].equals(base[cols]):
                    same_as_official[strat].append(name)
    n_random = stats["random", "official"]["games"]
    n_heur = stats["heuristic", "official"]["games"]

    # ---------------------------------------------------------------- the answer
    R = {n: stats["random", n] for n in names}
    stackers = [n for n in names if PRESETS[n].stacking != "none"]
    by_len = sorted(names, key=lambda n: R[n]["turns_mean"][0])
    pts = {n: R[n]["points_mean"] for n in names}
    pts_hi, pts_lo = leaders(pts, highest=True), leaders(pts, highest=False)
    off = R["official"]
    d_len = {n: paired["random", n].set_index("metric").loc["mean_turns"]
             for n in names if n != "official"}
    d_s0 = {n: paired["random", n].set_index("metric").loc["seat0_win_rate"]
            for n in names if n != "official"}
    turns = {n: R[n]["turns_mean"] for n in names}
    longest = leaders(turns, highest=True)
    shortest = leaders(turns, highest=False)
    s0_low = leaders({n: R[n]["seat0"] for n in names}, highest=False)

    def who(group: list[str], key: str, digits: int = 2) -> str:
        if len(group) > 3:
            return (f"`{group[0]}` ({ci(*R[group[0]][key], digits)}) and {len(group) - 1} "
                    "others not separated from it at this scale")
        lst = names_and([f"`{n}` ({ci(*R[n][key], digits)})" for n in group])
        return lst + (" (not separated at this scale)" if len(group) > 1 else "")

    headline = (f"With 4 random players a round lasts {ci(*off['turns_mean'])} turns under "
                f"`official`; the longest rounds are under {who(longest, 'turns_mean')}, "
                f"the shortest under {who(shortest, 'turns_mean')}; seat 0's win rate is "
                f"lowest under {who(s0_low, 'seat0', 4)}, against "
                f"{ci(*off['seat0'], 4)} under `official`.")
    page.headline = headline
    page.heading("Answer")
    page.para(headline)
    bullets = [
        "Length (mean turns, 4 random players), longest first: "
        + "; ".join(f"`{n}` {ci(*R[n]['turns_mean'])}" for n in reversed(by_len)) + ".",
        f"Points a round is worth (completed rounds): highest under "
        f"{who(pts_hi, 'points_mean')}, lowest under {who(pts_lo, 'points_mean')}; "
        f"`official` {ci(*off['points_mean'])}.",
        "Seat 0 (first to act) against `official` (paired differences of its win rate): "
        + "; ".join(f"`{n}` {_diff(d_s0[n], 4)}"
                    for n in sorted(d_s0, key=lambda k: d_s0[k]['diff'])) + ".",
        "Penalty stacks: P(max_stack >= 8) is "
        + "; ".join(f"`{n}` {ci(*R[n]['stack_ge_8'], 4)}" for n in stackers)
        + f"; without stacking the largest pending penalty seen in any round of any "
        f"preset is {max(R[n]['max_stack_max'] for n in names if n not in stackers)} cards.",
    ]
    for strat in STRATEGIES:
        if same_as_official[strat]:
            lst = ", ".join(f"`{n}`" for n in same_as_official[strat])
            bullets.append(f"With {strat} players {lst} played every game exactly as "
                           "`official` (same winner, turns, points and draws in each "
                           "paired game): their differences from it (UNO penalty, "
                           "challenges) need a player who forgets UNO or challenges.")
    page.bullets(bullets)
    hw_turns = max(half(s["turns_mean"]) for (st, _), s in stats.items() if st == "random")
    hw_s0 = max(half(s["seat0"]) for (st, _), s in stats.items() if st == "random")
    hw_pts = max(half(s["points_mean"]) for (st, _), s in stats.items() if st == "random")
    hw_d = max(max(r["hi"] - r["diff"], r["diff"] - r["lo"]) for r in d_len.values())
    sep_len = sum(1 for r in d_len.values() if r["lo"] > 0 or r["hi"] < 0)
    sep_s0 = sum(1 for r in d_s0.values() if r["lo"] > 0 or r["hi"] < 0)
    page.para(f"Precision: {n_random:,} rounds per preset with random players, "
              f"{n_heur:,} with heuristic players. With random players every 95% interval "
              f"of a mean length is within ±{num(hw_turns)} turns, of a seat 0 win rate "
              f"within ±{num(hw_s0, 4)}, of mean points within ±{num(hw_pts)}; paired "
              f"differences of mean length from `official` within ±{num(hw_d)} turns. "
              f"At this precision {sep_len} of the {len(d_len)} other presets differ from "
              f"`official` in mean length and {sep_s0} in seat 0's win rate (95% interval "
              "of the paired difference excluding 0); where intervals overlap, the order "
              "is not established.")

    # ---------------------------------------------------------------- tables
    for strat, n_games in (("random", n_random), ("heuristic", n_heur)):
        page.heading(f"All presets, 4 {strat} players ({n_games:,} rounds each)")
        rows = []
        for n in names:
            s = stats[strat, n]
            rows.append({
                "preset": f"`{n}`", "cards": PRESETS[n].deck_size(),
                "mean turns": ci(*s["turns_mean"]), "median turns": ci(*s["turns_median"], 0),
                "seat 0 wins": ci(*s["seat0"], 4), "mean points": ci(*s["points_mean"]),
                "cards drawn": ci(*s["drawn_mean"]),
                "max_stack mean": num(s["max_stack_mean"][0], 3),
                "P(max_stack >= 8)": ci(*s["stack_ge_8"], 4),
                "truncated": f"{s['truncated']:,}"})
        page.table(pd.DataFrame(rows))
    page.para("Intervals are 95%: Student t for means, order statistics for medians, "
              "Wilson for rates. `cards drawn` counts every card drawn after the deal. "
              "Seat 0 acts first and seat 3 deals; a fair seat would win 0.25.")

    other_deck = [n for n in names if PRESETS[n].deck != PRESETS["official"].deck]
    vr_other = [paired["random", n].set_index("metric").loc[m, "variance_reduction"]
                for n in other_deck for m in ("mean_turns", "seat0_win_rate", "mean_points")]
    page.heading("Differences from `official` on the same games (4 random players)")
    rows = []
    for n in names[1:]:
        t = paired["random", n].set_index("metric")
        row = {"preset": f"`{n}`"}
        for m, lab, dg in (("mean_turns", "turns", 2), ("seat0_win_rate", "seat 0 wins", 4),
                           ("mean_points", "points", 2)):
            r = t.loc[m]
            row[f"Δ {lab}"] = _diff(r, dg)
            row[f"variance reduction ({lab})"] = vr(r)
        rows.append(row)
    page.table(pd.DataFrame(rows))
    page.para("Each difference is the mean over games of (preset − `official`) on the same "
              "game index; variance reduction is how much smaller its variance is than "
              "that of two independent runs of the same size. Mean points here count "
              "every round (0 for a truncated one). Presets with another deck ("
              + names_and([f"`{n}`" for n in other_deck]) + ") deal other hands from the "
              "same seeds, so pairing gains little for them (variance reduction "
              f"{num(min(vr_other), 2)}× to {num(max(vr_other), 2)}×).")

    page.heading("Penalty stacks")
    page.bullets(f"`{n}`: max_stack median {num(R[n]['max_stack_q'][0], 0)}, 90th "
                 f"percentile {num(R[n]['max_stack_q'][1], 0)}, 99th "
                 f"{num(R[n]['max_stack_q'][2], 0)}, largest {R[n]['max_stack_max']}"
                 for n in names)

    # ---------------------------------------------------------------- figures
    fig, axes = plt.subplots(1, 3, figsize=(11, 4.2), sharey=True)
    y = np.arange(len(names))
    for ax, key, title in zip(axes, ("turns_mean", "points_mean", "seat0"),
                              ("mean turns per round", "mean points per round",
                               "seat 0 win rate")):
        for k, (strat, mk) in enumerate((("random", "o"), ("heuristic", "s"))):
            est = np.array([stats[strat, n][key][0] for n in names])
            lo = np.array([stats[strat, n][key][1] for n in names])
            hi = np.array([stats[strat, n][key][2] for n in names])
            ax.errorbar(est, y + (k - 0.5) * 0.3, xerr=[est - lo, hi - est], fmt=mk,
                        ms=4, capsize=2, label=f"{strat} players")
        if key == "seat0":
            ax.axvline(0.25, color="grey", lw=0.8, ls="--")
        ax.set_title(title)
    axes[0].set_yticks(y, names)
    axes[0].invert_yaxis()
    axes[0].legend(loc="lower right")
    fig.suptitle("Presets with 4 players (95% intervals)")
    page.heading("Figures")
    page.figure(fig, "presets", "Mean turns, mean points and seat 0's win rate of every "
                "preset, random and heuristic players, with 95% intervals (the dashed line "
                "is a fair 0.25).")

    fig, axes = plt.subplots(1, 3, figsize=(11, 4.2), sharey=True)
    others = names[1:]
    y = np.arange(len(others))
    for ax, m, title in zip(axes, ("mean_turns", "mean_points", "seat0_win_rate"),
                            ("Δ mean turns", "Δ mean points", "Δ seat 0 win rate")):
        rows = [paired["random", n].set_index("metric").loc[m] for n in others]
        est = np.array([r["diff"] for r in rows])
        lo = np.array([r["lo"] for r in rows])
        hi = np.array([r["hi"] for r in rows])
        ax.errorbar(est, y, xerr=[est - lo, hi - est], fmt="o", ms=4, capsize=2)
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_title(title)
    axes[0].set_yticks(y, others)
    axes[0].invert_yaxis()
    fig.suptitle("Each preset minus official on the same games (4 random players)")
    page.figure(fig, "paired-differences", "Paired differences from `official` (4 random "
                "players) with 95% intervals.")

    page.data(_csv(stats, names), "presets", "Every number of the tables, by strategy and "
              "preset")
    ctx.provenance(page, notes=[
        "Presets: " + "; ".join(f"`{n}` {PRESET_NOTES[n]}" for n in names) + ".",
        f"Games per run follow one policy shared by every page (e.g. "
        f"{standard_games('official', 4):,} rounds with 4 random players), so pages "
        "that show the same rule set and player count use the same games."])
    return page


def _diff(r, digits: int) -> str:
    """A paired difference with its interval, or 'identical games'."""
    if r["se_paired"] == 0 and r["diff"] == 0:
        return "0 (identical games)"
    return ci(r["diff"], r["lo"], r["hi"], digits, True)


def vr(r) -> str:
    """Variance reduction of a paired row, or 'identical' when every pair is equal."""
    if r["se_paired"] == 0:
        return "identical games" if r["diff"] == 0 else "n/a"
    return f"{r['variance_reduction']:.2f}×"


def _csv(stats: dict, names: list[str]) -> pd.DataFrame:
    rows = []
    for (strat, n), s in stats.items():
        row = {"strategies": strat, "preset": n, "rules_hash": PRESETS[n].hash(),
               "games": s["games"], "truncated": s["truncated"]}
        for key in ("turns_mean", "turns_median", "seat0", "points_mean", "drawn_mean",
                    "max_stack_mean", "stack_ge_8"):
            row[key], row[key + "_lo"], row[key + "_hi"] = s[key]
        rows.append(row)
    return pd.DataFrame(rows)


if __name__ == "__main__":
    main(NAME, build, __doc__)
