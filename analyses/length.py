"""length: how long rounds last, by rule set and player count.

Usage: python analyses/length.py [--scale S] [--out reports] [--results results/reports]

Turns and cards played per round (RULES.md section 6) for every preset at 2 to 10
`random` players: mean, median, 90th and 99th percentiles with 95% intervals,
truncation rate (rounds stopped at max_turns), distributions. Why `motu` runs away at 6
players and more is measured in replayed rounds: Powers of Grayskull played per turn
(each makes every other player draw 3, RULES.md section 2) and the share of rounds in
which every card ends up in a hand.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from common import main

from unosim.game.cards import GRAYSKULL
from unosim.game.names import NOTICE, display_preset
from unosim.game.rules import PRESETS
from unosim.kernel.core import layout as L
from unosim.report.cache import BASE_OTHER, BASE_RUNAWAY, PLAYER_COUNTS, Context, Results
from unosim.report.figures import hist_panels, intervals, plain_log, player_axis
from unosim.report.numbers import describe, half, leaders, rel
from unosim.report.page import Page, ci, num
from unosim.report.words import by_players_table, colour, names_and, noticeable, shown, shown_fig
from unosim.stats import mean_ci, wilson_ci

NAME = "length"
STRATEGIES = "random"
BASE_TRACED = 400  # motu rounds replayed with their trace per player count
PLAYED = (L.E_PLAY, L.E_DRAWN, L.E_STACK, L.E_JUMP, L.E_EXTRA)


def grayskull_counts(rules: str, players: int, games: int, seed: int) -> dict:
    """Rounds ``0 .. games - 1`` replayed with their trace (``unosim.sim.replay``): Grayskull
    plays per turn (ratio estimate, delta-method interval over rounds), per round, turns,
    and the share of rounds in which every card was in a hand at some moment (draw pile
    empty, discard pile down to its top card). Triples are (estimate, lo, hi)."""
    from unosim.sim import engine
    from unosim.sim.simulate import make_job

    job = make_job(rules, 1, players, STRATEGIES, seed)
    gs, turns, dry = np.zeros(games), np.zeros(games), np.zeros(games, bool)
    for g in range(games):
        _, tr = engine.trace(job.kernel, seed, g)
        typ = tr[:, L.EV_TYPE]
        gs[g] = np.count_nonzero(np.isin(typ, PLAYED) & (tr[:, L.EV_KIND] == GRAYSKULL))
        turns[g] = tr[-1, L.EV_TURN]
        dry[g] = bool(((tr[:, L.EV_PILE] == 0) & (tr[:, L.EV_DISC] <= 1)).any())
    r = gs.sum() / max(turns.sum(), 1.0)
    se = (gs - r * turns).std(ddof=1) / (turns.mean() * np.sqrt(games))
    lo, hi = wilson_ci(int(dry.sum()), games)
    return {
        "games": games,
        "share_turns": [r, r - 1.96 * se, r + 1.96 * se],
        "plays_per_round": [float(v) for v in mean_ci(gs)],
        "turns": [float(v) for v in mean_ci(turns)],
        "deck_dry": [float(dry.mean()), lo, hi],
    }


def _by(values: list[str]) -> str:
    """'3% and 2%', or 'both 3%' when the rounded values agree."""
    if len(values) == 2 and values[0] == values[1]:
        return f"{values[0]}% each"
    return names_and([f"{v}%" for v in values])


def compute(ctx: Context) -> Results:
    """Every preset at every player count (statistics, and the turns at 4 players and of
    Official UNO at every count), and the replayed rounds of Masters of the Universe."""
    names = list(PRESETS)
    stats: dict[tuple[str, int], dict] = {}
    at4: dict[str, np.ndarray] = {}
    official: dict[int, np.ndarray] = {}
    for name in names:
        for n in PLAYER_COUNTS:
            df = ctx.standard(name, n, STRATEGIES)
            stats[name, n] = describe(df, n)
            if n == 4:
                at4[name] = df["turns"].to_numpy()
            if name == "official":
                official[n] = df["turns"].to_numpy()
    traced = max(20, int(round(BASE_TRACED * min(ctx.scale, 1.0))))
    motu = {
        n: ctx.cached_json(
            "trace",
            {
                "rules": PRESETS["motu"].hash(),
                "players": n,
                "games": traced,
                "seed": ctx.seed,
                "what": "grayskull",
            },
            lambda n=n: grayskull_counts("motu", n, traced, ctx.seed),
            PRESETS["motu"],
            n,
            "random, replayed with trace",
            traced,
        )
        for n in PLAYER_COUNTS
    }
    return ctx.results_of(
        {"stats": stats, "at4": at4, "official": official, "motu": motu, "traced": traced}
    )


def render(res: Results) -> Page:
    page = Page(
        NAME,
        "How long a round lasts",
        "How many turns and cards does a round take, by rule set and number of "
        "players, and how heavy is the tail of long rounds?",
    )
    page.heading("Answer")
    _answer(page, res)
    page.heading("Figures")
    _figures(page, res)
    _tables(page, res)
    res.provenance(page)
    return page


def _answer(page: Page, res: Results) -> None:
    """The lead and the main figure."""
    stats, at4, motu = res["stats"], res["at4"], res["motu"]
    names = list(PRESETS)
    o4 = stats["official", 4]
    base = o4["turns_mean"][0]
    m4 = {n: stats[n, 4]["turns_mean"] for n in names}
    longest = leaders(m4, highest=True)
    by_len = sorted(names, key=lambda k: m4[k][0])
    short = [k for k in by_len[:2] if k != "official" and noticeable(rel(m4[k][0] - base, base))]
    long2 = by_len[-2:][::-1]
    o2, o10 = stats["official", 2], stats["official", 10]
    per_player = (o10["turns_mean"][0] - o2["turns_mean"][0]) / 8
    run = [
        n
        for n in PLAYER_COUNTS
        if stats["motu", n]["turns_mean"][0] > 3 * stats["official", n]["turns_mean"][0]
    ]
    lead = (
        f"An official round with 4 players lasts about {num(base, 0)} turns (one in "
        f"ten goes past {num(o4['turns_p90'][0], 0)}); "
        + "rounds last "
        + names_and(
            [f"{num(rel(m4[k][0] - base, base), 0)}% longer under {shown(k)}" for k in long2]
        )
        + (
            ", while "
            + names_and([shown(k) for k in short])
            + " shorten them by "
            + _by([num(-rel(m4[k][0] - base, base), 0) for k in short])
            if short
            else ""
        )
        + f". Each extra player adds about {num(per_player, 1)} turns (Official UNO: "
        f"{num(o2['turns_mean'][0], 0)} at 2 players, {num(o10['turns_mean'][0], 0)} "
        "at 10)."
    )
    if run:
        peak = max(run, key=lambda k: stats["motu", k]["turns_mean"][0])
        g4, gp = motu[4]["share_turns"][0], motu[peak]["share_turns"][0]
        lead += (
            f" From {run[0]} players on {shown('motu')} runs away ("
            f"{num(stats['motu', peak]['turns_mean'][0], 0)} turns on average at "
            f"{peak} players): each Power of Grayskull makes every other player draw 3, "
            f"one is played on {num(100 * gp, 0)}% of turns at {peak} players (against "
            f"{num(100 * g4, 0)}% at 4), more than a hand can shed, until all 112 cards "
            f"are in hands ({num(100 * motu[peak]['deck_dry'][0], 0)}% of rounds); "
            "with more players the deck runs dry sooner and rounds shorten again."
        )
    page.lead(lead)
    hmax = float(np.quantile(at4[longest[0]], 0.97))
    fig = hist_panels(
        {display_preset(k): at4[k] for k in by_len},
        {display_preset(k): colour(k) for k in names},
        "turns per round",
        hmax,
        ncols=4,
        unit=" turns",
    )
    fig.suptitle(
        "Turns per round, 4 random players, every preset (shortest first; black line: mean)",
        fontsize=9,
    )
    page.figure(
        fig,
        "turns-4-players",
        "Distribution of turns per round with 4 random "
        "players, one panel per preset, mean marked; the share of rounds beyond "
        "the axis is given in each title.",
        main=True,
    )
    _findings(page, res)


def _findings(page: Page, res: Results) -> None:
    """The findings under the main figure and the precision."""
    stats, motu, traced = res["stats"], res["motu"], res["traced"]
    names = list(PRESETS)
    o4 = stats["official", 4]
    m4 = {n: stats[n, 4]["turns_mean"] for n in names}
    longest = leaders(m4, highest=True)
    run = [
        n
        for n in PLAYER_COUNTS
        if stats["motu", n]["turns_mean"][0] > 3 * stats["official", n]["turns_mean"][0]
    ]
    total = sum(s["games"] for s in stats.values())
    truncated = sum(s["truncated"] for s in stats.values())
    worst_trunc = max(stats, key=lambda k: stats[k]["trunc_rate"][0])
    p99_ratio = {k: stats[k, 4]["turns_p99"][0] / stats[k, 4]["turns_median"][0] for k in names}
    heavy = max(p99_ratio, key=p99_ratio.get)
    bullets = [
        f"Mean length at 4 players: Official UNO {ci(*o4['turns_mean'])} turns; longest "
        + names_and([f"{shown(k)} ({ci(*m4[k])})" for k in longest])
        + ".",
        f"The tail: at 4 players the 99th percentile is {num(p99_ratio['official'], 2)} "
        f"times the median under Official UNO ({ci(*o4['turns_p99'], 0)} against "
        f"{ci(*o4['turns_median'], 0)}), and the heaviest tail is under {shown(heavy)} "
        f"({num(p99_ratio[heavy], 2)} times).",
        f"Cards played: a 4-player round of Official UNO plays {ci(*o4['cards_mean'])} cards, "
        f"{num(100 * o4['cards_mean'][0] / o4['turns_mean'][0], 1)}% as many as it has "
        "turns; the other turns are draws that could not be played.",
        (
            f"Truncation: {truncated:,} of {total:,} rounds reached the turn limit (5,000 "
            f"turns) and are kept at that length; the highest rate is under "
            f"{shown(worst_trunc[0])} with {worst_trunc[1]} players, "
            f"{ci(*stats[worst_trunc]['trunc_rate'], 4)}."
        )
        if truncated
        else f"Truncation: none of the {total:,} rounds reached the turn limit (5,000 turns).",
    ]
    if run:
        bullets.append(
            f"{shown('motu')} (measured on {traced:,} replayed rounds per player count): "
            "Grayskull share of turns "
            + ", ".join(
                f"{n} players {num(100 * motu[n]['share_turns'][0], 1)}%" for n in PLAYER_COUNTS
            )
            + "; rounds in which every card was in a hand: "
            + ", ".join(f"{n}: {num(100 * motu[n]['deck_dry'][0], 0)}%" for n in PLAYER_COUNTS)
            + ". With n players a Grayskull hands out 3 × (n − 1) cards: once it is played "
            "on more than about one turn in 3 × (n − 1), a hand gains more than it can "
            "shed."
        )
    page.bullets(bullets)
    clean = [s for s in stats.values() if s["truncated"] == 0]
    page.para(
        f"Precision: {o4['games']:,} rounds per rule set at 4 players (and for "
        f"Official UNO at every count), {res.games(BASE_OTHER):,} for the others "
        f"({res.games(BASE_RUNAWAY):,} for {shown('motu')} at 5 players and more, whose rounds "
        "are 10-30 times longer). Every 95% interval of a mean length is within "
        f"±{num(max(half(s['turns_mean']) for s in clean))} turns and of a 99th "
        f"percentile within ±{num(max(half(s['turns_p99']) for s in clean), 0)} "
        "turns for runs without truncated rounds (the others have wider ones: see "
        "the tables)."
    )


def _figures(page: Page, res: Results) -> None:
    """Length by player count, why Masters of the Universe runs away, Official UNO's
    distributions."""
    _by_players_figure(page, res["stats"])
    _motu_figure(page, res["stats"], res["motu"], res["traced"])
    _official_figure(page, res["official"])


def _by_players_figure(page: Page, stats: dict) -> None:
    """Mean and 99th percentile of turns by player count, every preset."""
    names = list(PRESETS)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, key, title in zip(
        axes, ("turns_mean", "turns_p99"), ("mean turns per round", "99th percentile of turns")
    ):
        for name in names:
            intervals(
                ax,
                PLAYER_COUNTS,
                [stats[name, n][key] for n in PLAYER_COUNTS],
                marker="o",
                ms=3,
                lw=1,
                capsize=2,
                color=colour(name),
                label=shown_fig(name),
            )
        player_axis(ax)
        ax.set_yscale("log")
        plain_log(ax, "y")
        ax.set_ylabel(f"{title} (turns, log scale)")
    axes[0].legend(fontsize=7, ncol=2)
    page.figure(
        fig,
        "by-players",
        "Mean and 99th percentile of turns per round by player "
        "count for every preset, 95% intervals (log scale; every count 2-10 "
        "simulated).",
    )


def _motu_figure(page: Page, stats: dict, motu: dict, traced: int) -> None:
    """Why Masters of the Universe runs away: Grayskull plays, a dry deck, its length."""
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.4))
    for ax, key, lab in (
        (axes[0], "share_turns", "turns that play a Grayskull (%)"),
        (axes[1], "deck_dry", "rounds with every card in a hand (%)"),
    ):
        intervals(
            ax,
            PLAYER_COUNTS,
            100 * np.array([motu[n][key] for n in PLAYER_COUNTS]),
            marker="o",
            ms=4,
            capsize=2,
            color=colour("motu"),
        )
        player_axis(ax)
        ax.set_ylabel(lab)
    thr = np.array([100 / (3 * (n - 1)) for n in PLAYER_COUNTS])
    axes[0].plot(
        PLAYER_COUNTS,
        thr,
        ls="--",
        color="grey",
        lw=1,
        label="1 / (3 (n − 1)): a hand gains\nas much as it can shed",
    )
    axes[0].legend(fontsize=7)
    for name in ("official", "motu"):
        intervals(
            axes[2],
            PLAYER_COUNTS,
            [stats[name, n]["turns_mean"] for n in PLAYER_COUNTS],
            marker="o",
            ms=4,
            capsize=2,
            color=colour(name),
            label=shown_fig(name),
        )
    player_axis(axes[2])
    axes[2].set_yscale("log")
    plain_log(axes[2], "y")
    axes[2].set_ylabel("mean turns per round (log scale)")
    axes[2].legend(fontsize=7)
    page.figure(
        fig,
        "motu-grayskull",
        f"Why {shown('motu')} runs away: share of turns that play a "
        f"Power of Grayskull and share of rounds in which every card is in a hand "
        f"({traced:,} replayed rounds per count), and mean length, by player count; "
        "95% intervals.",
    )


def _official_figure(page: Page, official: dict) -> None:
    """Official UNO's turns per round, one panel per player count."""
    fig = hist_panels(
        {f"{n} players": official[n] for n in PLAYER_COUNTS},
        {f"{n} players": colour("official") for n in PLAYER_COUNTS},
        "turns per round",
        float(np.quantile(official[10], 0.99)),
        ncols=3,
        unit=" turns",
        width=9,
    )
    fig.suptitle("Official UNO: turns per round by player count", fontsize=9)
    page.figure(
        fig,
        "official-by-players",
        "Distribution of turns per round under Official UNO for 2 to 10 random players, "
        "mean marked.",
    )


def _tables(page: Page, res: Results) -> None:
    """Every statistic as tables and CSV files."""
    stats, motu = res["stats"], res["motu"]
    names = list(PRESETS)
    base = stats["official", 4]["turns_mean"][0]
    page.heading("Every rule set with 4 players")
    rows = []
    for name in names:
        s = stats[name, 4]
        rows.append(
            {
                "rule set": shown(name),
                "mean turns": ci(*s["turns_mean"]),
                "vs Official UNO": f"{num(rel(s['turns_mean'][0] - base, base), 1, True)}%",
                "median": ci(*s["turns_median"], 0),
                "90th pct": ci(*s["turns_p90"], 0),
                "99th pct": ci(*s["turns_p99"], 0),
                "mean cards played": ci(*s["cards_mean"]),
                "truncated": f"{s['truncated']:,}",
            }
        )
    page.table(pd.DataFrame(rows))
    for key, title, dg in (
        ("turns_mean", "Mean turns by player count", 1),
        ("turns_p99", "99th percentile of turns by player count", 0),
    ):
        page.heading(title)
        page.table(by_players_table(stats, names, "rule set", key, dg))
    page.para(
        "Columns: players at the table. Means with Student t intervals; percentiles "
        "with distribution-free order-statistic intervals (at least 95% coverage); "
        "truncation rates with Wilson intervals. A truncated round enters with its "
        "length at the cut-off. vs Official UNO: relative difference of the means "
        f"(under {num(NOTICE['relative'], 0)}%: no practical difference)."
    )

    page.data(_csv(stats), "length", "Every statistic for every rule set and player count")
    page.data(
        pd.DataFrame(
            [
                {
                    "players": n,
                    **{
                        f"{k}{s}": v
                        for k in ("share_turns", "deck_dry", "turns")
                        for s, v in zip(("", "_lo", "_hi"), motu[n][k])
                    },
                }
                for n in PLAYER_COUNTS
            ]
        ),
        "motu-grayskull",
        f"The replay counts of {shown('motu')}",
    )


def _csv(stats: dict) -> pd.DataFrame:
    rows = []
    for (name, n), s in stats.items():
        row = {
            "rules": name,
            "rules_hash": PRESETS[name].hash(),
            "players": n,
            "games": s["games"],
            "truncated": s["truncated"],
        }
        for key in (
            "turns_mean",
            "turns_median",
            "turns_p90",
            "turns_p99",
            "cards_mean",
            "cards_median",
            "cards_p90",
            "cards_p99",
            "trunc_rate",
        ):
            row[key], row[key + "_lo"], row[key + "_hi"] = s[key]
        rows.append(row)
    return pd.DataFrame(rows)


if __name__ == "__main__":
    main(NAME, compute, render, __doc__)
