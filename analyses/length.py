"""length: how long rounds last, by rule set and player count.

Usage: python analyses/length.py [--scale S] [--out reports] [--results results/reports]

Turns and cards played per round (RULES.md section 6) for every preset at 2, 3, 4, 6, 8
and 10 `random` players: mean, median, 90th and 99th percentiles with 95% intervals,
truncation rate (rounds stopped at max_turns), ECDFs.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from common import PLAYER_COUNTS, Context, describe, ecdf, half, leaders, main, names_and

import matplotlib.pyplot as plt
from unosim.report import Page, ci, num
from unosim.rules import PRESETS

NAME = "length"
STRATEGIES = "random"


def build(ctx: Context) -> Page:
    page = Page(NAME, "How long a round lasts",
                "How many turns and cards does a round take, by rule set and number of "
                "players, and how heavy is the tail of long rounds?", ctx.out)
    names = list(PRESETS)
    stats: dict[tuple[str, int], dict] = {}
    ecdfs: dict[tuple[str, int, str], tuple[np.ndarray, np.ndarray]] = {}
    for name in names:
        for n in PLAYER_COUNTS:
            df = ctx.standard(name, n, STRATEGIES)
            stats[name, n] = describe(df, n)
            if n == 4 or name == "official":
                ecdfs[name, n, "turns"] = ecdf(df["turns"].to_numpy())
                ecdfs[name, n, "cards"] = ecdf(df["cards_played"].to_numpy())

    # ---------------------------------------------------------------- the answer
    o4 = stats["official", 4]
    at4 = {n: stats[n, 4]["turns_mean"] for n in names}
    longest = leaders(at4, highest=True)
    shortest = leaders(at4, highest=False)
    o2, o10 = stats["official", 2], stats["official", 10]
    total = sum(s["games"] for s in stats.values())
    truncated = sum(s["truncated"] for s in stats.values())
    worst_trunc = max(stats, key=lambda k: stats[k]["trunc_rate"][0])
    trunc_text = (f"{truncated:,} of {total:,} rounds reached `max_turns` (5,000 turns) "
                  "and were kept as truncated" if truncated else
                  f"none of the {total:,} rounds reached `max_turns` (5,000 turns)")
    # runs whose rounds last more than 3 times official's at the same player count
    runaway: dict[str, list[int]] = {}
    for (name, n), st in stats.items():
        if st["turns_mean"][0] > 3 * stats["official", n]["turns_mean"][0]:
            runaway.setdefault(name, []).append(n)
    runaway_text = ""
    for name, ns in runaway.items():
        worst = max(ns, key=lambda k: stats[name, k]["turns_mean"][0])
        w = stats[name, worst]
        runaway_text += (
            f"; `{name}` runs away with {names_and([str(k) for k in sorted(ns)])} players: "
            f"with {worst} its rounds last {ci(*w['turns_mean'], 0)} turns on average "
            f"(median {num(w['turns_median'][0], 0)}) and {ci(*w['trunc_rate'], 4)} of them "
            f"stop at `max_turns`, against {ci(*stats['official', worst]['turns_mean'], 1)} "
            "turns under `official`")
    headline = (f"With 4 random players an official round lasts {ci(*o4['turns_mean'])} turns "
                f"on average (median {num(o4['turns_median'][0], 0)}, 90th percentile "
                f"{num(o4['turns_p90'][0], 0)}, 99th {num(o4['turns_p99'][0], 0)}); at 4 "
                f"players the longest rounds are under "
                f"{names_and([f'`{n}` ({ci(*at4[n])})' for n in longest])}{runaway_text}.")
    page.headline = headline
    page.heading("Answer")
    page.para(headline)
    p99_ratio = {n: stats[n, 4]["turns_p99"][0] / stats[n, 4]["turns_median"][0]
                 for n in names}
    heavy = max(p99_ratio, key=p99_ratio.get)
    page.bullets([
        f"{trunc_text[0].upper()}{trunc_text[1:]}.",
        f"Shortest at 4 players: {names_and([f'`{n}` ({ci(*at4[n])})' for n in shortest])}"
        + (" (not separated at this scale)." if len(shortest) > 1 else "."),
        f"More players, longer rounds: official rounds last {ci(*o2['turns_mean'])} turns "
        f"with 2 players and {ci(*stats['official', 6]['turns_mean'])} with 6, "
        f"{ci(*o10['turns_mean'])} with 10.",
        f"The tail: at 4 players the 99th percentile is {num(p99_ratio['official'], 2)} "
        f"times the median under `official` ({ci(*o4['turns_p99'], 0)} against "
        f"{ci(*o4['turns_median'], 0)}), and the heaviest tail is under `{heavy}` "
        f"({num(p99_ratio[heavy], 2)} times: 99th percentile "
        f"{ci(*stats[heavy, 4]['turns_p99'], 0)}, median "
        f"{ci(*stats[heavy, 4]['turns_median'], 0)}).",
        f"Cards played: an official 4-player round plays {ci(*o4['cards_mean'])} cards; "
        f"{num(100 * o4['cards_mean'][0] / o4['turns_mean'][0], 1)}% as many as it has "
        "turns, the rest of the turns being draws that could not be played.",
        "Truncation: " + (f"{trunc_text}; the highest rate is under `{worst_trunc[0]}` "
                          f"with {worst_trunc[1]} players, "
                          f"{ci(*stats[worst_trunc]['trunc_rate'], 6)}." if truncated else
                          f"{trunc_text}; with no truncated round in a run of "
                          f"{min(s['games'] for s in stats.values()):,} rounds the 95% "
                          "upper bound of its truncation rate is "
                          f"{num(max(s['trunc_rate'][2] for s in stats.values()), 6)}."),
    ])
    clean = {k: s for k, s in stats.items() if s["truncated"] == 0}
    cut = sorted({k[0] for k, s in stats.items() if s["truncated"]}, key=names.index)
    hw_mean = max(half(s["turns_mean"]) for s in clean.values()) if clean else float("nan")
    hw_med = max(half(s["turns_median"]) for s in clean.values()) if clean else float("nan")
    hw_p99 = max(half(s["turns_p99"]) for s in clean.values()) if clean else float("nan")
    g4 = o4["games"]
    g_other = min(s["games"] for s in stats.values())
    page.para(f"Precision: {g4:,} rounds per rule set at 4 players (and for `official` at "
              f"every count), {g_other:,} for the others. Every 95% interval of a mean "
              f"length is within ±{num(hw_mean)} turns, of a median within "
              f"±{num(hw_med, 0)} and of a 99th percentile within ±{num(hw_p99, 0)} turns"
              + (f" for every run without truncated rounds (runs with truncated rounds, "
                 f"under {names_and([f'`{n}`' for n in cut])}, have wider ones: see the "
                 "tables)" if cut else "")
              + ". That is enough to rank the rule sets whose intervals do not overlap.")

    # ---------------------------------------------------------------- tables
    page.heading("Every rule set with 4 players")
    rows = []
    for name in names:
        s = stats[name, 4]
        rows.append({"rule set": f"`{name}`", "mean turns": ci(*s["turns_mean"]),
                     "median": ci(*s["turns_median"], 0), "90th pct": ci(*s["turns_p90"], 0),
                     "99th pct": ci(*s["turns_p99"], 0),
                     "mean cards played": ci(*s["cards_mean"]),
                     "cards: median / 90th / 99th": f"{num(s['cards_median'][0], 0)} / "
                     f"{num(s['cards_p90'][0], 0)} / {num(s['cards_p99'][0], 0)}",
                     "truncated": f"{s['truncated']:,} ({ci(*s['trunc_rate'], 6)})"})
    page.table(pd.DataFrame(rows))
    page.heading("Mean turns by player count")
    rows = []
    for name in names:
        row = {"rule set": f"`{name}`"}
        for n in PLAYER_COUNTS:
            row[f"{n} players"] = ci(*stats[name, n]["turns_mean"], 1)
        rows.append(row)
    page.table(pd.DataFrame(rows))
    page.heading("99th percentile of turns by player count")
    rows = []
    for name in names:
        row = {"rule set": f"`{name}`"}
        for n in PLAYER_COUNTS:
            row[f"{n} players"] = ci(*stats[name, n]["turns_p99"], 0)
        rows.append(row)
    page.table(pd.DataFrame(rows))
    page.para("Means with Student t intervals; percentiles with distribution-free "
              "order-statistic intervals (at least 95% coverage); truncation rates with "
              "Wilson intervals. A truncated round enters with its length at the cut-off.")

    # ---------------------------------------------------------------- figures
    page.heading("Figures")
    cmap = plt.get_cmap("tab20")
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for ax, what, label in zip(axes, ("turns", "cards"), ("turns", "cards played")):
        xmax = 0.0
        for i, name in enumerate(names):
            v, f = ecdfs[name, 4, what]
            ax.step(v, f, where="post", color=cmap(i), lw=1.1, label=name)
            xmax = max(xmax, float(v[np.searchsorted(f, 0.995)]) if f[-1] >= 0.995
                       else float(v[-1]))
        ax.set_xlim(0, xmax)
        ax.set_xlabel(f"{label} per round")
        ax.set_title(f"ECDF of {label}, 4 random players")
    axes[0].set_ylabel("fraction of rounds ≤ x")
    axes[1].legend(fontsize=7, loc="lower right")
    page.figure(fig, "ecdf-4-players", "ECDF of turns and of cards played per round with 4 "
                "random players, every preset (x axis up to the 99.5th percentile).")

    fig, axes = plt.subplots(1, 3, figsize=(12, 4))
    for ax, key, title in zip(axes, ("turns_mean", "turns_median", "turns_p99"),
                              ("mean turns", "median turns", "99th percentile of turns")):
        for i, name in enumerate(names):
            est = np.array([stats[name, n][key][0] for n in PLAYER_COUNTS])
            lo = np.array([stats[name, n][key][1] for n in PLAYER_COUNTS])
            hi = np.array([stats[name, n][key][2] for n in PLAYER_COUNTS])
            ax.errorbar(PLAYER_COUNTS, est, yerr=[est - lo, hi - est], marker="o", ms=3,
                        lw=1, capsize=2, color=cmap(i), label=name)
        ax.set_xlabel("players")
        ax.set_yscale("log")
        ax.set_title(title)
    axes[0].legend(fontsize=7)
    page.figure(fig, "by-players", "Mean, median and 99th percentile of turns per round "
                "by player count for every preset, with 95% intervals (log scale).")

    fig, ax = plt.subplots(figsize=(7, 4))
    vir = plt.get_cmap("viridis")
    for i, n in enumerate(PLAYER_COUNTS):
        v, f = ecdfs["official", n, "turns"]
        ax.step(v, f, where="post", color=vir(i / (len(PLAYER_COUNTS) - 1)),
                label=f"{n} players")
    v, f = ecdfs["official", PLAYER_COUNTS[-1], "turns"]
    ax.set_xlim(0, float(v[np.searchsorted(f, 0.995)]) if f[-1] >= 0.995 else float(v[-1]))
    ax.set_xlabel("turns per round")
    ax.set_ylabel("fraction of rounds ≤ x")
    ax.set_title("official rules: ECDF of turns by player count")
    ax.legend()
    page.figure(fig, "official-by-players", "ECDF of turns per round under `official` "
                "for 2 to 10 random players.")

    page.data(_csv(stats), "length", "Every statistic for every rule set and player count")
    ctx.provenance(page)
    return page


def _csv(stats: dict) -> pd.DataFrame:
    rows = []
    for (name, n), s in stats.items():
        row = {"rules": name, "rules_hash": PRESETS[name].hash(), "players": n,
               "games": s["games"], "truncated": s["truncated"]}
        for key in ("turns_mean", "turns_median", "turns_p90", "turns_p99", "cards_mean",
                    "cards_median", "cards_p90", "cards_p99", "trunc_rate"):
            row[key], row[key + "_lo"], row[key + "_hi"] = s[key]
        rows.append(row)
    return pd.DataFrame(rows)


if __name__ == "__main__":
    main(NAME, build, __doc__)
