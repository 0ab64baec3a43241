"""seats: seat win rates by player count, 2 to 10, official rules.

Usage: python analyses/seats.py [--scale S] [--out reports] [--results results/reports]

Seat 0 takes the first turn and seat n - 1 deals (RULES.md section 1). Every player
count is played with `random` players and with `heuristic` players; win rates carry
Wilson intervals, and a chi-square test asks whether all seats win equally often.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from common import Context, half, main, names_and
from scipy.stats import chisquare

import matplotlib.pyplot as plt
from unosim.report import Page, ci, num
from unosim.stats import win_rates

NAME = "seats"
RULES = "official"
PLAYERS = tuple(range(2, 11))
STRATEGIES = ("random", "heuristic")


def _p_text(p: float) -> str:
    return "< 1e-300" if p == 0 else (f"{p:.1e}" if p < 0.001 else f"{p:.3f}")


def build(ctx: Context) -> Page:
    page = Page(NAME, "Seat advantage by player count",
                "Does the seat you sit in change your chance of winning a round of "
                "official UNO, from 2 to 10 players, with random and with heuristic "
                "players?", ctx.out)
    tables = []
    summary: dict[tuple[str, int], dict] = {}
    for strat in STRATEGIES:
        for n in PLAYERS:
            df = ctx.standard(RULES, n, strat, columns=("winner",))
            w = df["winner"].to_numpy()
            t = win_rates(w, n)
            t.insert(0, "players", n)
            t.insert(0, "strategies", strat)
            t["fair"] = 1.0 / n
            t["ratio"] = t["rate"] * n
            tables.append(t)
            done = w >= 0
            p = float(chisquare(np.bincount(w[done], minlength=n)).pvalue) if done.any() \
                else float("nan")
            worst = int(t["rate"].idxmin())
            best = int(t["rate"].idxmax())
            summary[strat, n] = {"games": len(df), "seat0": tuple(t.loc[0, ["rate", "lo", "hi"]]),
                                 "dealer": tuple(t.loc[n - 1, ["rate", "lo", "hi"]]),
                                 "best": best, "worst": worst,
                                 "worst_rate": tuple(t.loc[worst, ["rate", "lo", "hi"]]),
                                 "p": p, "truncated": int((~done).sum())}
    full = pd.concat(tables, ignore_index=True)

    # ---------------------------------------------------------------- the answer
    page.heading("Answer")

    def above(strat: str) -> list[int]:
        return [n for n in PLAYERS if summary[strat, n]["seat0"][1] > 1.0 / n]

    r4 = summary["random", 4]
    h4 = summary["heuristic", 4]
    ab_r, ab_h = above("random"), above("heuristic")
    def count(k: int) -> str:
        return "every player count from 2 to 10" if k == len(PLAYERS) else (
            f"{k} of the {len(PLAYERS)} player counts from 2 to 10")

    where = (f"at {count(len(ab_r))}, with random and with heuristic players"
             if len(ab_r) == len(ab_h) == len(PLAYERS) else
             f"at {count(len(ab_r))} with random players and at {count(len(ab_h))} with "
             "heuristic players")
    headline = (f"Seat 0 (first to act) wins {ci(*r4['seat0'], 4)} of 4-player rounds with "
                f"random players and {ci(*h4['seat0'], 4)} with heuristic players, against a "
                f"fair 0.25; its win rate is above 1/n (whole 95% interval) {where}.")
    page.headline = headline
    page.para(headline)
    def n_of(k: int) -> str:
        return "every player count" if k == len(PLAYERS) else f"{k} of 9 player counts"

    bullets = []
    for strat in STRATEGIES:
        ratios = {n: summary[strat, n]["seat0"][0] * n for n in PLAYERS}
        nmax = max(ratios, key=ratios.get)
        nmin = min(ratios, key=ratios.get)
        rejected = [n for n in PLAYERS if summary[strat, n]["p"] < 0.001]
        worst_is_dealer = [n for n in PLAYERS if summary[strat, n]["worst"] == n - 1]
        best_is_0 = [n for n in PLAYERS if summary[strat, n]["best"] == 0]
        bullets.append(
            f"{strat.capitalize()} players: seat 0 wins {num(ratios[nmin], 3)} times its "
            f"fair share at {nmin} players (its least) and {num(ratios[nmax], 3)} times at "
            f"{nmax} players (its most). Equal win rates for all seats are rejected "
            f"(chi-square p < 0.001) at "
            + (f"{n_of(len(rejected))}" if rejected else "no player count")
            + (f" ({', '.join(map(str, rejected))})" if 0 < len(rejected) < 9 else "")
            + f". Seat 0 is the seat that wins most at {n_of(len(best_is_0))}; "
            "the seat that wins least is the dealer (seat n − 1) at "
            + (f"{len(worst_is_dealer)} of 9" if worst_is_dealer else "none")
            + " (the table names it for each count).")
    two = summary["random", 2]
    bullets.append(f"With 2 players (Reverse acts as Skip, RULES.md 4.5) seat 0 wins "
                   f"{ci(*two['seat0'], 4)} with random players and "
                   f"{ci(*summary['heuristic', 2]['seat0'], 4)} with heuristic players.")
    page.bullets(bullets)
    hw_r = max(half(tuple(r)) for r in full[full.strategies == "random"][["rate", "lo", "hi"]]
               .itertuples(index=False))
    hw_h = max(half(tuple(r)) for r in full[full.strategies == "heuristic"][["rate", "lo", "hi"]]
               .itertuples(index=False))
    g_r = summary["random", 4]["games"]
    g_h = summary["heuristic", 4]["games"]
    page.para(f"Precision: {g_r:,} rounds per player count with random players and "
              f"{g_h:,} with heuristic players; every seat's 95% Wilson interval is within "
              f"±{num(hw_r, 4)} (random) and ±{num(hw_h, 4)} (heuristic) of its rate. "
              "A seat's advantage is stated only where its interval excludes the fair "
              "share 1/n. Truncated rounds (no winner) count in the denominator: "
              f"{sum(s['truncated'] for s in summary.values()):,} in all.")

    # ---------------------------------------------------------------- table
    page.heading("Seat 0 and the dealer")
    rows = []
    for n in PLAYERS:
        row = {"players": n, "fair 1/n": num(1 / n, 4)}
        for strat in STRATEGIES:
            s = summary[strat, n]
            row[f"{strat}: seat 0"] = ci(*s["seat0"], 4)
            row[f"{strat}: dealer"] = ci(*s["dealer"], 4)
            row[f"{strat}: weakest seat"] = str(s["worst"])
            row[f"{strat}: χ² p"] = _p_text(s["p"])
        rows.append(row)
    page.table(pd.DataFrame(rows))
    page.para("Win rates with 95% Wilson intervals; the dealer sits in seat n − 1, last "
              "in the initial order of play. weakest seat: the seat with the "
              "lowest win rate. χ² p: chi-square test that every seat wins equally often "
              "(completed rounds).")

    # ---------------------------------------------------------------- figures
    page.heading("Figures")
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    cmap = plt.get_cmap("viridis")
    for ax, strat in zip(axes, STRATEGIES):
        for i, n in enumerate(PLAYERS):
            t = full[(full.strategies == strat) & (full.players == n)]
            x = t["seat"].to_numpy()
            ax.errorbar(x, t["rate"] * n, yerr=[(t["rate"] - t["lo"]) * n,
                                                (t["hi"] - t["rate"]) * n],
                        marker="o", ms=3, capsize=2, lw=1, color=cmap(i / (len(PLAYERS) - 1)),
                        label=f"{n} players")
        ax.axhline(1.0, color="grey", lw=0.8, ls="--")
        ax.set_xlabel("seat (0 acts first; n − 1 deals)")
        ax.set_title(f"{strat} players")
        ax.set_xticks(range(10))
    axes[0].set_ylabel("win rate × n  (1 = fair share)")
    axes[1].legend(ncol=2, fontsize=7)
    page.figure(fig, "seat-win-rates", "Each seat's win rate relative to a fair share "
                "1/n, by player count, with 95% intervals.")

    fig, ax = plt.subplots(figsize=(7, 4))
    for strat, mk in (("random", "o"), ("heuristic", "s")):
        for who, ls in (("seat0", "-"), ("dealer", ":")):
            est = np.array([summary[strat, n][who][0] * n for n in PLAYERS])
            lo = np.array([summary[strat, n][who][1] * n for n in PLAYERS])
            hi = np.array([summary[strat, n][who][2] * n for n in PLAYERS])
            ax.errorbar(PLAYERS, est, yerr=[est - lo, hi - est], marker=mk, ms=4, ls=ls,
                        capsize=2, label=f"{'seat 0' if who == 'seat0' else 'dealer'}, "
                        f"{strat}")
    ax.axhline(1.0, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("players")
    ax.set_ylabel("win rate × n  (1 = fair share)")
    ax.legend()
    page.figure(fig, "first-and-dealer", "Seat 0's and the dealer's win rate relative to "
                "a fair share, by player count (95% intervals).")

    page.data(full, "seat-win-rates", "Every seat's wins, rate and Wilson interval")
    dealers = [n for n in PLAYERS if summary["random", n]["worst"] == n - 1]
    notes = [f"Rule set `{RULES}` for every run; each player count is its own run "
             "on the same seed (game i of every run keyed by the same root seed)."]
    if dealers:
        notes.append("Dealer = least-winning seat with random players at "
                     f"{names_and([str(n) for n in dealers])} players.")
    ctx.provenance(page, notes=notes)
    return page


if __name__ == "__main__":
    main(NAME, build, __doc__)
