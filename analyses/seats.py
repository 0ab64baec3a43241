"""seats: seat win rates by player count, 2 to 10, official rules.

Usage: python analyses/seats.py [--scale S] [--out reports] [--results results/reports]

Seat 0 takes the first turn and seat n - 1 deals (RULES.md section 1). Every player
count is played with `random` players, with `heuristic` players and with the realistic
`table` players (when this version has them); win rates carry Wilson intervals, and a
chi-square test asks whether all seats win equally often. The mechanism is read from the
`first_player` column: the first card up sometimes hands the first turn to seat 1 (Skip,
Draw Two) or to the dealer (Reverse), RULES.md section 3.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from common import main, realistic
from scipy.stats import chisquare

from unosim.report import escape as esc
from unosim.report.cache import Context, Results
from unosim.report.figures import intervals, player_axis
from unosim.report.numbers import half, rate
from unosim.report.pace import first_player_sentence
from unosim.report.page import Page, ci, num
from unosim.report.words import colour, noticeable, players, players_fig
from unosim.stats import win_rates

NAME = "seats"
RULES = "official"
PLAYERS = tuple(range(2, 11))


def strategies() -> tuple[str, ...]:
    return ("random", "heuristic", *realistic())


def _p_text(p: float) -> str:
    return "< 1e-300" if p == 0 else (f"{p:.1e}" if p < 0.001 else f"{p:.3f}")


def _edge(r: tuple[float, float, float], n: int) -> tuple[float, float, float]:
    """A win rate's distance above (or below) the fair share 1/n, in percentage points."""
    return tuple(100.0 * (v - 1.0 / n) for v in r)


def _small(x: float) -> str:
    """ " (no practical difference)" after an edge under the threshold of notice."""
    return "" if noticeable(x, rate=True) else " (no practical difference)"


def compute(ctx: Context) -> Results:
    """Every seat's win rate for each player model and count, a chi-square test of equal
    seats, and the win rates by who took the first turn."""
    strats = strategies()
    tables = []
    summary: dict[tuple[str, int], dict] = {}
    opener: dict[tuple[str, int], dict] = {}  # win rates by who took the first turn
    for strat in strats:
        for n in PLAYERS:
            df = ctx.standard(RULES, n, strat, columns=("winner", "first_player"))
            w = df["winner"].to_numpy()
            fp = df["first_player"].to_numpy()
            t = win_rates(w, n)
            t.insert(0, "players", n)
            t.insert(0, "strategies", strat)
            t["fair"] = 1.0 / n
            t["ratio"] = t["rate"] * n
            tables.append(t)
            done = w >= 0
            p = (
                float(chisquare(np.bincount(w[done], minlength=n)).pvalue)
                if done.any()
                else float("nan")
            )
            worst = int(t["rate"].idxmin())
            best = int(t["rate"].idxmax())
            summary[strat, n] = {
                "games": len(df),
                "seat0": tuple(t.loc[0, ["rate", "lo", "hi"]]),
                "dealer": tuple(t.loc[n - 1, ["rate", "lo", "hi"]]),
                "best": best,
                "worst": worst,
                "p": p,
                "truncated": int((~done).sum()),
                "opener_wins": rate(int((w == fp).sum()), len(df)),
            }
            opener[strat, n] = {
                f: {
                    "share": float((fp == f).mean()),
                    "rates": [
                        rate(int(((w == s) & (fp == f)).sum()), int((fp == f).sum()))
                        for s in range(n)
                    ],
                }
                for f in sorted(set(fp.tolist()))
            }
    full = pd.concat(tables, ignore_index=True)
    return ctx.results_of(
        {"strategies": list(strats), "full": full, "summary": summary, "opener": opener}
    )


def render(res: Results) -> Page:
    page = Page(
        NAME,
        "Seat advantage by player count",
        "Does the seat you sit in change your chance of winning a round of "
        "official UNO, from 2 to 10 players, with random, heuristic and "
        "table players?",
    )
    strats, summary, opener = res["strategies"], res["summary"], res["opener"]
    page.heading("Answer")
    _answer(page, strats, summary, opener, res["full"])
    _for_analysts(page, strats, summary, opener)
    page.heading("Figures")
    _seat_figure(page, strats, res["full"])
    page.data(res["full"], "seat-win-rates", "Every seat's wins, rate and Wilson interval")
    res.provenance(
        page,
        notes=[
            f"Rule set {esc.code(RULES)} (Official UNO) for every run; each player count "
            "is its own run on the same seed (game i of every run keyed by the same root seed)."
        ],
    )
    return page


def _answer(page: Page, strats, summary, opener, full: pd.DataFrame) -> None:
    """The lead, the main figure, a finding per player model and the precision."""
    r4 = summary["random", 4]
    e4 = _edge(r4["seat0"], 4)
    e10 = _edge(summary["random", 10]["seat0"], 10)
    e2 = _edge(summary["random", 2]["seat0"], 2)
    real = strats[-1] if len(strats) > 2 else "heuristic"
    er = _edge(summary[real, 4]["seat0"], 4)
    o4 = opener["random", 4]
    s1 = o4.get(1)
    r3 = summary["random", 3]["seat0"][0]
    lead = (
        f"With 3 players, {first_player_sentence(r3, 3)[0].lower()}"
        f"{first_player_sentence(r3, 3)[1:]} "
        f"Sitting first helps a little: with 4 random players seat 0, who takes the "
        f"first turn, wins {num(100 * r4['seat0'][0], 1)}% of rounds instead of a fair "
        f"25%, {num(e4[0], 2)} percentage points more{_small(e4[0])}, and "
        f"{num(er[0], 2)} more{_small(er[0])} with 4 {players(real, explained=True)}; "
        f"the edge is {num(e2[0], 2)} percentage points at 2 players{_small(e2[0])} and "
        f"{num(e10[0], 2)} at 10{_small(e10[0])}."
    )
    if s1 is not None:
        ow = summary["random", 4]["opener_wins"][0]
        lead += (
            f" It belongs to whoever opens, not to the chair: the player who takes the "
            f"first turn wins {num(100 * ow, 1)}%, and when the first card up is a Skip "
            f"or a Draw Two ({num(100 * s1['share'], 0)}% of rounds) seat 1 opens and "
            f"wins {num(100 * s1['rates'][1][0], 1)}%, seat 0 only "
            f"{num(100 * s1['rates'][0][0], 1)}%."
        )
    page.lead(lead)
    _main_figure(page, strats, summary, opener)

    def n_of(k: int) -> str:
        return "every player count" if k == len(PLAYERS) else f"{k} of 9 player counts"

    bullets = []
    for strat in strats:
        edges = {n: _edge(summary[strat, n]["seat0"], n) for n in PLAYERS}
        above = [n for n in PLAYERS if edges[n][1] > 0]
        rejected = [n for n in PLAYERS if summary[strat, n]["p"] < 0.001]
        worst_is_dealer = [n for n in PLAYERS if summary[strat, n]["worst"] == n - 1]
        best_is_0 = [n for n in PLAYERS if summary[strat, n]["best"] == 0]
        who = players(strat)
        bullets.append(
            f"{who[0].upper() + who[1:]}: seat 0's edge over a fair share runs from "
            f"{num(min(e[0] for e in edges.values()), 2)} to "
            f"{num(max(e[0] for e in edges.values()), 2)} percentage points, and its whole "
            "95% interval "
            f"is above the fair share at {n_of(len(above))}. Equal win rates for all "
            "seats are rejected (chi-square p < 0.001) at "
            + (f"{n_of(len(rejected))}" if rejected else "no player count")
            + (f" ({', '.join(map(str, rejected))})" if 0 < len(rejected) < 9 else "")
            + f". Seat 0 wins most at {n_of(len(best_is_0))}; the dealer (seat n − 1) "
            f"wins least at {len(worst_is_dealer)} of 9."
        )
    ow = summary["random", 4]["opener_wins"]
    bullets.append(
        f"Whoever takes the first turn wins {num(100 * ow[0], 1)}% "
        f"[{num(100 * ow[1], 1)}, {num(100 * ow[2], 1)}] of 4-player rounds with "
        "random players: one turn ahead in a race to empty the hand. With 2 "
        "players a Reverse acts as a Skip (docs/rules.md 4.5), which hands the first "
        "turn to the dealer."
    )
    page.bullets(bullets)
    hw = {
        s: max(
            half(tuple(r))
            for r in full[full.strategies == s][["rate", "lo", "hi"]].itertuples(index=False)
        )
        for s in strats
    }
    page.para(
        "Precision: "
        + "; ".join(
            f"{summary[s, 4]['games']:,} rounds per player count with {players(s)} (every "
            f"seat's 95% interval within ±{num(100 * hw[s], 2)} percentage points)"
            for s in strats
        )
        + ". A seat's advantage is stated only where its interval excludes the fair share "
        "1/n, and an edge under 0.5 percentage points makes no practical difference. "
        "Truncated rounds (no winner) count in the denominator: "
        f"{sum(s['truncated'] for s in summary.values()):,} in all."
    )


def _for_analysts(page: Page, strats, summary, opener) -> None:
    """The folded tables: seat 0 and the dealer at every count, who opens and who wins."""
    page.fold("For analysts: every player count, the dealer, chi-square tests")
    page.heading("Seat 0 and the dealer")
    rows = []
    for n in PLAYERS:
        row = {"players": n, "fair 1/n": num(1 / n, 4)}
        for strat in strats:
            s = summary[strat, n]
            row[f"{strat}: seat 0"] = ci(*s["seat0"], 4)
            row[f"{strat}: dealer"] = ci(*s["dealer"], 4)
            row[f"{strat}: weakest seat"] = str(s["worst"])
            row[f"{strat}: χ² p"] = _p_text(s["p"])
        rows.append(row)
    page.table(pd.DataFrame(rows), scroll=True)
    page.para(
        "Win rates with 95% Wilson intervals; the dealer sits in seat n − 1, last "
        "in the initial order of play. weakest seat: the seat with the "
        "lowest win rate. χ² p: chi-square test that every seat wins equally often "
        "(completed rounds)."
    )
    page.heading("Who opens, who wins (4 players)", 3)
    rows = []
    for strat in strats:
        for f, o in opener[strat, 4].items():
            rows.append(
                {
                    "players": players(strat),
                    "first turn": f"seat {f}",
                    "share of rounds": num(o["share"], 4),
                    **{f"seat {s} wins": ci(*o["rates"][s], 4) for s in range(4)},
                }
            )
    page.table(pd.DataFrame(rows), scroll=True)
    page.para(
        "Seat 0 opens after a number or a wild card up; seat 1 after a Skip or a "
        "Draw Two (seat 0 is skipped); the dealer, seat 3, after a Reverse "
        "(docs/rules.md section 3)."
    )
    page.end_fold()


def _seat_figure(page: Page, strats, full: pd.DataFrame) -> None:
    """Every seat's edge over a fair share, a panel per player model."""
    fig, axes = plt.subplots(1, len(strats), figsize=(4 * len(strats), 3.6), sharey=True)
    cmap = plt.get_cmap("viridis")
    for ax, strat in zip(np.atleast_1d(axes), strats):
        for i, n in enumerate(PLAYERS):
            t = full[(full.strategies == strat) & (full.players == n)]
            intervals(
                ax,
                t["seat"].to_numpy(),
                np.column_stack(
                    [
                        100 * (t["rate"] - 1 / n),
                        100 * (t["rate"] - 1 / n) - 100 * (t["rate"] - t["lo"]),
                        100 * (t["rate"] - 1 / n) + 100 * (t["hi"] - t["rate"]),
                    ]
                ),
                marker="o",
                ms=3,
                capsize=2,
                lw=1,
                color=cmap(i / (len(PLAYERS) - 1)),
                label=f"{n}",
            )
        ax.axhline(0, color="grey", lw=0.8, ls="--")
        ax.set_xlabel("seat (0 acts first; n − 1 deals)")
        ax.set_title(players_fig(strat))
        ax.set_xticks(range(10))
    np.atleast_1d(axes)[0].set_ylabel("win rate above a fair share 1/n\n(percentage points)")
    np.atleast_1d(axes)[-1].legend(ncol=3, fontsize=7, title="players", loc="upper right")
    page.figure(
        fig,
        "seat-win-rates",
        "Each seat's win rate above or below a fair share "
        "1/n in percentage points, by player count, with 95% intervals.",
    )


def _main_figure(page: Page, strats, summary, opener) -> None:
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.6), width_ratios=[1.25, 1])
    ax = axes[0]
    k = len(strats)
    for j, strat in enumerate(strats):
        x = np.array(PLAYERS) + (j - (k - 1) / 2) * 0.12
        intervals(
            ax,
            x,
            [_edge(summary[strat, n]["seat0"], n) for n in PLAYERS],
            marker="o",
            ms=4,
            capsize=2,
            lw=1,
            color=colour(strat),
            label=players_fig(strat),
        )
    ax.axhline(0, color="grey", lw=0.8, ls="--")
    player_axis(ax, PLAYERS)
    ax.set_ylabel("seat 0's win rate above a fair\nshare 1/n (percentage points)")
    ax.set_title("Seat 0 (first to act) wins more than its share")
    ax.legend(fontsize=8)
    ax = axes[1]
    o4 = opener["random", 4]
    labels = {
        0: "seat 0 opens (number or wild up)",
        1: "seat 1 opens (Skip or Draw Two)",
        3: "dealer opens (Reverse)",
    }
    cols = {0: "#1b9e77", 1: "#d95f02", 3: "#7570b3"}
    for j, f in enumerate(f for f in (0, 1, 3) if f in o4):
        intervals(
            ax,
            np.arange(4) + (j - 1) * 0.15,
            100 * np.array(o4[f]["rates"]),
            fmt="o",
            ms=4,
            capsize=2,
            color=cols[f],
            label=f"{labels[f]}: {num(100 * o4[f]['share'], 0)}% of rounds",
        )
    ax.axhline(25, color="grey", lw=0.8, ls="--")
    ax.set_xticks(range(4), ["seat 0", "seat 1", "seat 2", "seat 3\n(dealer)"])
    ax.set_ylabel("win rate (% of rounds)")
    ax.set_title("4 random players: the opener wins more")
    lo, hi = ax.get_ylim()
    ax.set_ylim(lo - 0.55 * (hi - lo), hi)  # room for the legend below the markers
    ax.legend(fontsize=7, loc="lower left")
    page.figure(
        fig,
        "seat0-edge",
        "Left: seat 0's win rate above a fair share in percentage points, by "
        "player count and player model. Right: with 4 random players, each seat's "
        "win rate by who took the first turn. 95% intervals; dashed: fair share.",
        main=True,
    )


if __name__ == "__main__":
    main(NAME, compute, render, __doc__)
