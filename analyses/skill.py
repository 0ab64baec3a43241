"""skill: how much does each rule set reward skill?

Usage: python analyses/skill.py [--scale S] [--out reports] [--results results/reports]

The skill measure of a rule set: the win rate of the best known strategy
against 3 `random` opponents, and against 3 `heuristic` opponents, minus 1/4, with its
95% interval. Every game is a tournament deal played in the 4 seat rotations, so seat
advantage cancels (`unosim.analysis.tournament`). Candidates: the heuristic, the four members of
the weighted family with their default weights, and the `weighted` player tuned under
`official` against each kind of opponent (`unosim.analysis.tune`; the two tunings are shipped in
``analyses/data/skill-tunings.json`` with their spec, ``analyses/skill_tuning.py`` reruns them,
and the page tunes again only when the spec changed). The best
candidate per rule set and opponent is chosen on one set of deals and its win rate is
then measured on fresh deals (games from 2**40 on), so the choice does not inflate it.

The ``expert`` (``unosim/players/expert.py``) searches over the best candidate of each
rule set and opponent, so it is the best known strategy; it is measured against 3
``random``, 3 ``heuristic`` and 3 ``table`` players on deals from 2**42 on
(``analyses/expert_skill.py``), its rate estimated with its policy's rate on many fresh
deals as a control variate, and its matches to 500 are assembled from independent
rounds (``unosim/sim/assembled.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import skill_tuning
from common import (
    REALISTIC,
    Context,
    Results,
    colour,
    main,
    players,
    players_fig,
    rate,
    shown,
    shown_fig,
)
from expert_skill import FIRST as EXPERT_FIRST
from expert_skill import control_variate, expert_matches, expert_rate, policy_file

from unosim.analysis.tournament import play
from unosim.analysis.tune import FRESH
from unosim.game.names import PLAYERS_DISPLAY
from unosim.game.rules import PRESETS
from unosim.players import strategies as strat
from unosim.players.expert import DEFAULTS as EXPERT_DEFAULTS
from unosim.players.seats import parse as parse_seats
from unosim.players.seats import parse_one as parse_seat
from unosim.report import escape as esc
from unosim.report.page import Page, ci, num
from unosim.report.palette import colours
from unosim.stats import mean_ci_from_sums

NAME = "skill"
PLAYERS = 4
OPPONENTS = ("random", "heuristic")
RULE_SETS = (
    "official",
    "stacking",
    "progressive",
    "seven-zero",
    "jump-in",
    "draw-until-playable",
    "official-2018",
    "pokemon",
    "motu",
    "copag",
    "portugal",
)
FAMILY = ("heuristic", "points-dumper", "aggressive", "colour-counter", "weighted")
TUNE_START = skill_tuning.START
BASE_TUNE = skill_tuning.BUDGET  # rounds of each tuning (shipped; scaled only when rerun here)
BASE_SELECT = 40_000  # rounds per candidate and rule set for the choice
BASE_EVAL = 400_000  # rounds of the best candidate on fresh deals
# rounds of the expert's policy on fresh deals against table players: it enters the
# expert's rate only through the control variate's slope (about 0.3), so it needs far
# fewer rounds than BASE_EVAL for the same precision
BASE_POLICY_EVAL = 100_000
BASE_MATCHES = 8_000  # matches to 500 of the best candidate, 1/4 in each seat
EXPERT = "expert"  # at its default budget (unosim/players/expert.py)
EXPERT_OPPONENTS = ("random", "heuristic", REALISTIC)
# deals (x 4 seats) of the expert per rule set and opponent: with the control variate,
# 288 gave the 95% half-widths 400 gave with the plain paired difference (median about
# 0.024; notes/skill-page-cost.md); the default expert of kernel behaviour 9
# (horizon=8) departs sooner from its policy, so its cells need 360 for the same largest
# half-width (±0.026)
BASE_EXPERT_DEALS = 360
BASE_EXPERT_MATCHES = 1_000  # assembled matches to 500 of the expert per opponent
# floors for tiny scales (a quick build or the tests' page check): the expert plays about
# a thousandth of a plain round's speed, so its floors are small
MIN_EXPERT_DEALS, MIN_EXPERT_MATCHES = 10, 8


def expert_deals(ctx: Context) -> int:
    """Deals (x 4 seats) of the expert per rule set and opponent at this scale."""
    return max(MIN_EXPERT_DEALS, int(round(BASE_EXPERT_DEALS * ctx.scale)))


def expert_match_count(ctx: Context) -> int:
    """Assembled matches to 500 of the expert per opponent at this scale."""
    return max(MIN_EXPERT_MATCHES, int(round(BASE_EXPERT_MATCHES * ctx.scale)))


Z95 = 1.959964  # two-sided 95%


def _tuned(ctx: Context, opponents: str) -> tuple[str, dict]:
    """The weighted player tuned under official against ``opponents``: (its strategy
    item, the tuning's summary with ``source``: where it came from). The shipped tuning
    (``analyses/data/skill-tunings.json``) when its spec is today's; else one of
    ``BASE_TUNE`` rounds times the scale, run here and cached."""
    shipped = skill_tuning.shipped(opponents, ctx.seed)
    what = f"tuning vs {opponents}"
    if shipped is not None:
        key = skill_tuning.spec(opponents, BASE_TUNE, ctx.seed)
        ctx.cached_json("tune", key, lambda: shipped, PRESETS["official"], PLAYERS, what, BASE_TUNE)
        return shipped["label"], {**shipped, "source": "shipped", "budget": BASE_TUNE}
    budget = max(4096, int(round(BASE_TUNE * ctx.scale)))
    spec = skill_tuning.spec(opponents, budget, ctx.seed)

    def run():
        ctx.log(
            f"tuning the weighted player against {opponents}: {budget:,} rounds "
            f"({skill_tuning.SHIPPED.name} holds no tuning of this spec; "
            f"`{skill_tuning.COMMAND}` rewrites it)"
        )
        return skill_tuning.run(opponents, budget, ctx.seed, ctx.cores())

    res = ctx.cached_json("tune", spec, run, PRESETS["official"], PLAYERS, what, budget)
    return res["label"], {**res, "source": "run", "budget": budget}


def _rate(
    ctx: Context, rules: str, player: str, opponents: str, rounds: int, first: int, what: str
) -> tuple[float, float, float]:
    """Win rate of ``player`` against 3 ``opponents`` over ``rounds`` rotated rounds
    (deals from game ``first``): (rate, lo, hi)."""
    deals = max(50, rounds // PLAYERS)
    rs = PRESETS[rules]
    labels = parse_seats(f"{player},{opponents},{opponents},{opponents}", PLAYERS)[2]
    spec = {"rules": rs.hash(), "labels": labels, "deals": deals, "seed": ctx.seed, "first": first}

    def run():
        tot = play(rs, PLAYERS, labels, deals, ctx.seed, first, threads=ctx.cores())
        m, h = mean_ci_from_sums(tot.wins, tot.wins2, tot.deals)
        return {"rate": float(m[0]), "half": float(h[0])}

    res = ctx.cached_json("tournament", spec, run, rs, PLAYERS, f"{what}, rotated", deals * PLAYERS)
    return res["rate"], res["rate"] - res["half"], res["rate"] + res["half"]


def _match_odds(ctx: Context, item: str, opp: str) -> tuple[float, float, float, float]:
    """Official matches to 500 of ``item`` against 3 ``opp`` players, ``item`` in each
    of the 4 places in turn: (share of matches it wins, lo, hi, mean rounds a match)."""
    wins = n = rounds = 0
    for j in range(PLAYERS):
        seats = [opp] * PLAYERS
        seats[j] = item
        m = ctx.matches("official", PLAYERS, BASE_MATCHES // PLAYERS, ",".join(seats))
        wins += int((m["winner"] == j).sum())
        n += len(m)
        rounds += int(m["rounds"].sum())
    return (*rate(wins, n), rounds / n)


def rounds_to_show(p: float) -> float:
    """Rounds after which a player who wins a round with probability ``p`` is, in
    expectation, 1.96 standard errors above a fair 1/4: z^2 p (1 - p) / (p - 1/4)^2."""
    fair = 1.0 / PLAYERS
    return Z95**2 * p * (1 - p) / (p - fair) ** 2 if p > fair else float("inf")


def _policies(ctx: Context, tuned: dict, names: dict) -> dict[str, tuple[str, str]]:
    """Candidate name -> (the expert's ``policy=`` value, a description for cache keys
    that holds no machine path). The tuned players go through strategy files."""
    out = {}
    for item, name in names.items():
        if name in FAMILY:
            out[name] = (name, name)
            continue
        _, params, _ = parse_seat(item)
        vals = {k: float(v) for k, v in zip(strat.PARAM_NAMES, params)}
        weights = {k: vals[k] for k in strat.FEATURES}
        behaviour = {k: vals[k] for k in strat.BEHAVIOUR if k != "challenge"}
        behaviour["challenge"] = vals["challenge"]
        if behaviour["challenge"] < 0:
            raise ValueError(
                "a tuned policy with the smart challenge rule cannot be written as probabilities"
            )
        path = policy_file(
            ctx.results, f"skill-policy-{name.replace(' ', '-')}", weights, behaviour
        )
        out[name] = (path, item)
    return out


def _expert(ctx: Context, rules: str, policy: tuple[str, str], opp: str) -> dict:
    """The expert over ``policy`` against 3 ``opp`` under ``rules`` (cached)."""
    deals = expert_deals(ctx)
    rs = PRESETS[rules]
    item = f"{EXPERT}:policy={policy[0]}"
    pol = policy[0] if not policy[0].endswith(".toml") else f"weighted:{policy[0]}"
    spec = {
        "rules": rs.hash(),
        "expert": EXPERT,
        "policy": policy[1],
        "opponents": opp,
        "deals": deals,
        "seed": ctx.seed,
        "first": EXPERT_FIRST,
        "per_deal": True,  # the result holds each deal's wins (expert_skill.expert_rate)
    }

    def run():
        ctx.log(f"expert vs 3 {opp} under {rules}: {deals * PLAYERS:,} rounds")
        return expert_rate(rules, item, pol, opp, deals, ctx.seed, ctx.cores())

    return ctx.cached_json(
        "expert", spec, run, rs, PLAYERS, f"expert vs 3 {opp}, rotated", deals * PLAYERS
    )


def _expert_odds(ctx: Context, policy: tuple[str, str], opp: str) -> tuple:
    """Assembled official matches to 500 of the expert against 3 ``opp``: (share won,
    lo, hi, mean rounds a match)."""
    n = expert_match_count(ctx)
    rs = PRESETS["official"]
    spec = {
        "rules": rs.hash(),
        "expert": EXPERT,
        "policy": policy[1],
        "opponents": opp,
        "matches": n,
        "seed": ctx.seed,
    }

    def run():
        ctx.log(f"expert: {n:,} matches to 500 vs 3 {opp}")
        return expert_matches(
            "official", f"{EXPERT}:policy={policy[0]}", opp, n, ctx.seed, ctx.cores()
        )

    res = ctx.cached_json("expert-matches", spec, run, rs, PLAYERS, f"expert matches vs 3 {opp}", n)
    return (*rate(res["won"], res["matches"]), res["rounds"])


def _tuning_source(t: dict) -> str:
    """Where the tuned weights came from, in words."""
    if all(v["source"] == "shipped" for v in t.values()):
        return (
            f"the tunings are shipped in `analyses/data/{skill_tuning.SHIPPED.name}` "
            f"with their spec and rerun by `{skill_tuning.COMMAND}`"
        )
    return (
        f"tuned for this build: `analyses/data/{skill_tuning.SHIPPED.name}` holds no "
        f"tuning of this spec (`{skill_tuning.COMMAND}` rewrites it)"
    )


def _lead_clear(n_show: dict) -> str:
    """The sentence on the rounds after which the expert's lead shows, per opponent."""

    def when(o, who):
        n = n_show[o]
        return (
            f"after about {num(n, 0)} rounds against {who}"
            if np.isfinite(n)
            else f"never against {who} at this precision"
        )

    return (
        f"Its lead in rounds won is clear {when('random', 'random players')} and "
        f"{when('heuristic', 'sensible ones')}. "
    )


def _realistic(order: dict, xs) -> str:
    """Whether the ranking of rule sets against random players holds against realistic
    (table) players: the end of a sentence."""
    o = REALISTIC
    top, low = order[o][-1], order[o][0]
    size = (
        "smaller"
        if np.mean([xs(r, o)[0] for r in order[o]])
        < np.mean([xs(r, "random")[0] for r in order[o]])
        else "larger"
    )
    same = top == order["random"][-1] and low == order["random"][0]
    gap = (
        "95% intervals apart"
        if xs(top, o)[1] > xs(low, o)[2]
        else "their 95% intervals overlap, so no rule set stands clearly apart"
    )
    return (
        f"against {players(o, explained=True)} the margins are {size} and the order "
        f"{'holds' if same else 'changes'}: most under {shown(top)}, "
        f"least under {shown(low)}; "
        f"{gap}."
    )


def compute(ctx: Context) -> Results:
    """Every number of the page: the tunings, each candidate's win rate on the choice's
    deals, the best one's on fresh deals, the expert over it with its control variate,
    and matches to 500 of both."""
    tuned = {o: _tuned(ctx, o) for o in OPPONENTS}
    names = {**{f: f for f in FAMILY}, **{tuned[o][0]: f"weighted tuned vs {o}" for o in OPPONENTS}}
    rounds = {
        "select": max(400, int(round(BASE_SELECT * ctx.scale))),
        "eval": max(800, int(round(BASE_EVAL * ctx.scale))),
        "policy": max(800, int(round(BASE_POLICY_EVAL * ctx.scale))),
    }
    select: dict[tuple[str, str, str], tuple] = {}
    best: dict[tuple[str, str], str] = {}
    skill: dict[tuple[str, str], tuple] = {}
    for opp in OPPONENTS:
        for rules in RULE_SETS:
            for item, name in names.items():
                select[rules, opp, name] = _rate(
                    ctx, rules, item, opp, rounds["select"], 0, f"{name} vs 3 {opp}"
                )
            top = max(names, key=lambda i: select[rules, opp, names[i]][0])
            best[rules, opp] = names[top]
            skill[rules, opp] = _rate(
                ctx, rules, top, opp, rounds["eval"], FRESH, f"best vs 3 {opp}, fresh deals"
            )
    pols = _policies(ctx, tuned, names)
    xrow = _expert_rows(ctx, names, best, skill, pols, rounds["policy"])
    x_odds = {o: _expert_odds(ctx, pols[best["official", o]], o) for o in OPPONENTS}
    odds = {
        o: _match_odds(ctx, next(i for i, n in names.items() if n == best["official", o]), o)
        for o in OPPONENTS
    }
    return ctx.results_of(
        {
            "candidates": list(names.items()),
            "tunings": {o: tuned[o][1] for o in OPPONENTS},
            "rounds": rounds,
            "select": select,
            "best": best,
            "skill": skill,
            "expert": xrow,
            "expert_odds": x_odds,
            "odds": odds,
            "expert_deals": expert_deals(ctx),
            "expert_matches": expert_match_count(ctx),
        }
    )


def _expert_rows(ctx: Context, names: dict, best: dict, skill: dict, pols: dict, pol_rounds: int):
    """The expert over the best candidate per rule set and opponent: its own rate and,
    by its policy's rate on fresh deals, the control variate's estimate."""
    xrow: dict[tuple[str, str], dict] = {}
    for opp in EXPERT_OPPONENTS:
        for rules in RULE_SETS:
            chosen = best[rules, opp if opp in OPPONENTS else "heuristic"]
            x = _expert(ctx, rules, pols[chosen], opp)
            # the expert's rate: its own on its deals, corrected by how far its policy's
            # rate on the same deals is from the policy's rate on many fresh deals (a
            # control variate, expert_skill.control_variate)
            item = next(i for i, n in names.items() if n == chosen)
            pol = (
                skill[rules, opp]
                if opp in OPPONENTS
                else _rate(
                    ctx, rules, item, opp, pol_rounds, FRESH, f"{chosen} vs 3 {opp}, fresh deals"
                )
            )
            xrow[rules, opp] = {
                **x,
                **control_variate(x, pol[0], (pol[2] - pol[1]) / 2),
                "policy_name": chosen,
                "policy_fresh": pol[0],
            }
    return xrow


FAIR = 1.0 / PLAYERS


@dataclass
class _Found:
    """The stored results as the page's words read them."""

    names: dict[str, str]  # candidate item -> its name, in the order tried
    tunings: dict[str, dict]  # opponents -> the tuning's summary
    rounds: dict[str, int]  # rounds of the choice, of the fresh deals, of the policy
    select: dict  # (rules, opponents, name) -> (rate, lo, hi) on the choice's deals
    best: dict  # (rules, opponents) -> the best candidate's name
    skill: dict  # (rules, opponents) -> its (rate, lo, hi) on fresh deals
    xrow: dict  # (rules, opponents) -> the expert's result
    x_odds: dict  # opponents -> the expert's matches to 500 (won, lo, hi, rounds)
    odds: dict  # opponents -> the best candidate's matches to 500
    expert_deals: int
    expert_matches: int
    seed: int

    def sk(self, rules: str, opp: str) -> tuple[float, float, float]:
        """The best candidate's skill margin (rate - 1/4, lo, hi)."""
        r, lo, hi = self.skill[rules, opp]
        return r - FAIR, lo - FAIR, hi - FAIR

    def xs(self, rules: str, opp: str) -> tuple[float, float, float]:
        """The expert's skill margin (rate - 1/4, lo, hi)."""
        x = self.xrow[rules, opp]
        return (x["est"] - FAIR, x["est"] - x["est_half"] - FAIR, x["est"] + x["est_half"] - FAIR)

    def order(self) -> dict[str, list[str]]:
        """Per opponent, the rule sets by the expert's margin, smallest first."""
        return {o: sorted(RULE_SETS, key=lambda r: self.xs(r, o)[0]) for o in EXPERT_OPPONENTS}

    def official(self) -> dict[str, float]:
        """Per opponent, the expert's rate under Official UNO."""
        return {o: self.xrow["official", o]["est"] for o in EXPERT_OPPONENTS}

    def n_show(self) -> dict[str, float]:
        """Per opponent, the rounds until the expert's lead is clear."""
        off = self.official()
        return {o: rounds_to_show(off[o]) for o in OPPONENTS}


def _found(res: Results) -> _Found:
    return _Found(
        names=dict(res["candidates"]),
        tunings=res["tunings"],
        rounds=res["rounds"],
        select=res["select"],
        best=res["best"],
        skill=res["skill"],
        xrow=res["expert"],
        x_odds=res["expert_odds"],
        odds=res["odds"],
        expert_deals=res["expert_deals"],
        expert_matches=res["expert_matches"],
        seed=res.seed,
    )


def render(res: Results) -> Page:
    page = Page(
        NAME,
        "Skill: how much does each rule set reward good play?",
        "Is UNO luck or skill? Against random, heuristic and realistic (table) "
        "opponents, how far above a fair 1/4 does the best known strategy win, "
        "under official rules, each house rule and each edition, and how soon "
        "does its skill show?",
    )
    s = _found(res)
    page.heading("Answer")
    page.lead(_lead(s))
    _skill_figure(page, s)
    page.bullets(_answer_bullets(s))
    page.para(_precision(s))
    page.heading("How long until skill shows")
    _how_long(page, s)
    page.heading("Skill by rule set")
    _skill_tables(page, s)
    page.heading("Figures")
    _strategy_figure(page, s)
    _tuning_figure(page, s)
    _data(page, s)
    t = s.tunings
    res.provenance(
        page,
        table=False,
        notes=[
            f"Tuning: `unosim.analysis.tune` under official against OPP in random, "
            f"heuristic, {t['random']['budget']:,} rounds each, seed {s.seed}, start "
            f"`{TUNE_START}` (population 16, elite 4, 8 iterations; "
            f"{t['random']['eval_rounds']:,} fresh rounds for the start and the tuned "
            f"weights); {_tuning_source(t)}.",
            "Tournament deals: the choice plays games 0 .. k − 1 of the root seed; the fresh "
            "evaluation plays games from 2^40 on, which neither the choice nor the tuning "
            "played.",
            f"Expert: `expert:policy=P` (its default budget) over the best candidate P, "
            f"{s.expert_deals:,} deals × 4 rotations per "
            f"rule set and opponent from game 2^42 on, paired with P on the same deals; its "
            f"matches to 500 assembled from single rounds (`unosim/sim/assembled.py`), games from "
            f"2^42 + 4·2^38 on.",
            "Rule hashes: "
            + ", ".join(f"{esc.code(r)} {esc.code(PRESETS[r].hash())}" for r in RULE_SETS)
            + ".",
        ],
    )
    return page


def _pct(v: float) -> str:
    return f"{num(100 * v, 0)}%"


def _lead(s: _Found) -> str:
    """The answer's opening: round and match win rates of the expert under Official UNO,
    when its lead shows, and where skill pays most and least."""
    order, off, x_odds = s.order(), s.official(), s.x_odds

    def margin(r: str, o: str) -> str:
        return f"{num(100 * s.xs(r, o)[0], 1, True)} percentage points"

    return (
        f"A single round of UNO is mostly luck, but skill shows over a match: the best "
        f"player we know (the expert, which thinks ahead by playing each possible move out "
        f"many times) wins {_pct(off['random'])} of official 4-player rounds against 3 "
        f"players who play at random and {_pct(off['heuristic'])} against 3 sensible "
        f"(heuristic) players, where luck alone gives 25%, and "
        f"{_pct(x_odds['random'][0])} and {_pct(x_odds['heuristic'][0])} of matches to 500 "
        f"points. "
        + _lead_clear(s.n_show())
        + f"Skill pays most under {shown(order['random'][-1])}, "
        f"{margin(order['random'][-1], 'random')} above a fair 25% against random "
        f"players, and least under {shown(order['random'][0])}, "
        f"{margin(order['random'][0], 'random')}; " + _realistic(order, s.xs)
    )


def _skill_figure(page: Page, s: _Found) -> None:
    """The main figure: the expert's margin per rule set and opponent, with the best
    simple strategy's beside it."""
    fig, ax = plt.subplots(figsize=(10, 3.6))
    x = np.arange(len(RULE_SETS))
    k = len(EXPERT_OPPONENTS)
    for j, opp in enumerate(EXPERT_OPPONENTS):
        v = 100 * np.array([s.xs(r, opp) for r in RULE_SETS])
        ax.errorbar(
            x + (j - (k - 1) / 2) * 0.22,
            v[:, 0],
            yerr=[v[:, 0] - v[:, 1], v[:, 2] - v[:, 0]],
            fmt="o",
            ms=5,
            capsize=2,
            color=colour(opp),
            label=f"the expert against 3 {PLAYERS_DISPLAY[opp]}",
        )
        if opp in OPPONENTS:
            b = 100 * np.array([s.sk(r, opp)[0] for r in RULE_SETS])
            ax.plot(
                x + (j - (k - 1) / 2) * 0.22,
                b,
                "_",
                ms=10,
                color=colour(opp),
                label=f"best simple strategy against 3 {PLAYERS_DISPLAY[opp]}",
            )
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xticks(x, [shown_fig(r) for r in RULE_SETS], rotation=30, ha="right")
    ax.set_ylabel("win rate − 25%\n(percentage points)")
    ax.legend(fontsize=7, ncol=2)
    page.figure(
        fig,
        "skill",
        "Skill margin per rule set: the expert's win rate minus a "
        "fair 25% with 95% intervals (4-player rounds, fresh deals, seats rotated; "
        "its own rate with its policy's as a control variate); "
        "dashes: the best simple strategy (no search) on its own fresh deals.",
        main=True,
    )


def _answer_bullets(s: _Found) -> list[str]:
    """Rule sets apart from Official UNO, what the search adds, and the tunings."""
    xs, xrow = s.xs, s.xrow
    bullets = []
    for opp in EXPERT_OPPONENTS:
        below = [r for r in RULE_SETS if r != "official" and xs(r, opp)[2] < xs("official", opp)[1]]
        above = [r for r in RULE_SETS if r != "official" and xs(r, opp)[1] > xs("official", opp)[2]]
        bullets.append(
            f"Against 3 {players(opp)}, rule sets whose expert skill margin lies wholly "
            f"below Official UNO's (non-overlapping 95% intervals): "
            + ("; ".join(shown(r) for r in below) or "none")
            + "; wholly above: "
            + ("; ".join(shown(r) for r in above) or "none")
            + "."
        )
    gains = [xrow[r, o]["gain"] for r in RULE_SETS for o in EXPERT_OPPONENTS]
    clear = sum(
        xrow[r, o]["gain"] - xrow[r, o]["gain_half"] > 0
        for r in RULE_SETS
        for o in EXPERT_OPPONENTS
    )
    bullets.append(
        f"What the search adds over the strategy it searches with (the expert's rate "
        f"minus its policy's): from {num(100 * min(gains), 1, True)} to "
        f"{num(100 * max(gains), 1, True)} "
        f"percentage points across rule sets and opponents; clearly above zero (95%) in "
        f"{clear} of {len(gains)} cases. Most of the margin comes from the tuned strategy "
        f"itself."
    )
    t = s.tunings
    for o in OPPONENTS:
        s0, h = t[o]["start"], t[o]["tuned"]
        bullets.append(
            f"Tuning against {players(o)} (Official UNO, {t[o]['eval_rounds']:,} fresh "
            f"rounds): the weighted player went from {num(s0[0], 4)} ± "
            f"{num(s0[1], 4)} to {num(h[0], 4)} ± {num(h[1], 4)}."
        )
    return bullets


def _precision(s: _Found) -> str:
    """The rounds behind the expert's rates, the control variate, and their widest
    intervals."""
    xrow, x_deals = s.xrow, s.expert_deals
    ev_rounds, pol_rounds, sel_rounds = s.rounds["eval"], s.rounds["policy"], s.rounds["select"]
    half_max = max((v[2] - v[1]) / 2 for v in s.skill.values())
    x_half = max(v["est_half"] for v in xrow.values())
    rhos = [v["rho"] for v in xrow.values()]
    betas = [v["beta"] for v in xrow.values()]
    narrower = float(np.median([1 - v["est_half"] / v["half"] for v in xrow.values()]))
    return (
        f"Precision: the expert plays {x_deals * PLAYERS:,} rounds per rule set and "
        f"opponent ({x_deals:,} deals × 4 seat rotations, deals from 2^42 on), and its "
        f"policy plays the same deals. Its win rate is its rate on those rounds "
        f"corrected by how far its policy's rate on them lies from the policy's rate on "
        f"{max(50, ev_rounds // PLAYERS) * PLAYERS:,} fresh rounds "
        f"({max(50, pol_rounds // PLAYERS) * PLAYERS:,} against "
        f"{players(REALISTIC)}), times the slope of the expert's result on its "
        f"policy's over the deals (a control variate; median slope "
        f"{num(float(np.median(betas)), 2)}). The two results of a deal correlate "
        f"weakly (median correlation {num(float(np.median(rhos)), 2)}: the games part "
        f"at the expert's first move of its own), so this makes the intervals only "
        f"{num(100 * narrower, 0)}% narrower (median) than those of the expert's own "
        f"rounds: every 95% interval of its rate is within ±{num(x_half, 3)}, and of "
        f"the search gain within ±{num(max(v['gain_half'] for v in xrow.values()), 3)}. "
        f"The best simple strategy was chosen on "
        f"{max(50, sel_rounds // PLAYERS) * PLAYERS:,} other "
        f"rounds per candidate (its margins are within ±{num(half_max, 4)}). "
        "Intervals come from per-deal means over the rotations. A difference "
        "between rule sets is stated only where the intervals do not overlap."
    )


def _how_long(page: Page, s: _Found) -> None:
    """Rounds and matches to 500 under Official UNO: how soon skill shows, and how the
    expert searches."""
    x_odds, n_show, off = s.x_odds, s.n_show(), s.official()
    rows = []
    for o in OPPONENTS:
        xr = s.xrow["official", o]
        for who, (r, lo, hi), m in (
            (
                "expert",
                (xr["est"], xr["est"] - xr["est_half"], xr["est"] + xr["est_half"]),
                x_odds[o],
            ),
            (s.best["official", o], s.skill["official", o], s.odds[o]),
        ):
            rows.append(
                {
                    "opponents": f"3 {players(o)}",
                    "player": "the expert" if who == "expert" else who,
                    "round win rate": ci(r, lo, hi, 4),
                    "match win rate (to 500)": ci(*m[:3], 3),
                    "rounds a match": num(m[3], 1),
                    "rounds until its lead is clear": f"{num(rounds_to_show(r), 0)} "
                    f"[{num(rounds_to_show(hi), 0)}, {num(rounds_to_show(lo), 0)}]",
                }
            )
    page.para(
        f"Under Official UNO a match to 500 lasts about {num(x_odds['random'][3], 0)} "
        f"rounds, and one round is mostly luck: the expert wins "
        f"{num(100 * off['random'], 1)}% of rounds against random players instead of 25%. "
        f"Its lead in rounds won becomes clear (its count of rounds won 1.96 standard "
        f"errors above a fair quarter, in expectation) after about "
        f"{num(n_show['random'], 0)} rounds against random players and "
        f"{num(n_show['heuristic'], 0)} against sensible (heuristic) players: "
        f"{num(n_show['random'] / x_odds['random'][3], 0)} and "
        f"{num(n_show['heuristic'] / x_odds['heuristic'][3], 0)} matches. The expert's "
        f"matches ({s.expert_matches:,} per opponent) "
        f"are assembled from independent rounds, exact in distribution because no "
        f"strategy reads the scores (`unosim/sim/assembled.py`); the best simple strategy's "
        f"({BASE_MATCHES:,} per opponent) are played by the match kernel; each player sits "
        f"in each of the 4 places a quarter of the time."
    )
    page.table(pd.DataFrame(rows))
    scored = "a fitted model of who goes out first"
    if EXPERT_DEFAULTS["value"] != "fit":
        scored = "hand sizes"
    page.para(
        "The expert searches at its default budget (`unosim/players/expert.py`: "
        f"{EXPERT_DEFAULTS['rollouts']} determinizations per decision, up to "
        f"{EXPERT_DEFAULTS['rollouts'] * EXPERT_DEFAULTS['more']} on close decisions, "
        f"rollouts of {EXPERT_DEFAULTS['horizon']} turns scored by {scored}) "
        "over the best simple strategy for that rule set and opponent (against "
        f"{players(REALISTIC)}: the best against sensible players). It searches the "
        "card to play and the colour named with it, whether to challenge, stack or "
        "take a penalty, whether to play a drawn card and with which colour, the "
        "target of a 7's swap and whether to play a card alone under multi-card "
        "play; jump-ins, the extra cards of a multi-card play and Greninja's second "
        "colour are its policy's. "
        "Stronger players surely exist, so every margin here is a lower bound of "
        "what skill can win."
    )


def _skill_tables(page: Page, s: _Found) -> None:
    """The best candidate and the expert per rule set, every candidate's win rate, and
    the tuned weights."""
    rows = []
    for rules in RULE_SETS:
        row = {"rule set": shown(rules)}
        for opp in OPPONENTS:
            row[f"vs {opp}: best"] = s.best[rules, opp]
            row[f"vs {opp}: win rate"] = ci(*s.skill[rules, opp], 4)
            row[f"vs {opp}: skill"] = ci(*s.sk(rules, opp), 4, sign=True)
        rows.append(row)
    page.table(pd.DataFrame(rows))
    page.para(
        "skill: the win rate of the best candidate against 3 opponents − 1/4, on "
        "fresh deals, 95% intervals."
    )
    rows = []
    for rules in RULE_SETS:
        row = {"rule set": shown(rules)}
        for opp in EXPERT_OPPONENTS:
            g = s.xrow[rules, opp]
            row[f"vs {opp}: skill"] = ci(*s.xs(rules, opp), 3, sign=True)
            row[f"vs {opp}: search gain"] = ci(
                g["gain"], g["gain"] - g["gain_half"], g["gain"] + g["gain_half"], 3, sign=True
            )
            row[f"vs {opp}: own rounds"] = ci(
                g["rate"], g["rate"] - g["half"], g["rate"] + g["half"], 3
            )
        rows.append(row)
    page.para(
        "The expert per rule set: its skill margin (win rate − 1/4, with its policy "
        "as a control variate), the search gain (that win rate minus its policy's on "
        "fresh deals) and its win rate on its own rounds alone, 95% intervals:"
    )
    page.table(pd.DataFrame(rows))
    page.heading("Every strategy, every rule set")
    for opp in OPPONENTS:
        rows = []
        for rules in RULE_SETS:
            row = {"rule set": shown(rules)}
            for name in s.names.values():
                row[name] = num(s.select[rules, opp, name][0], 4)
            rows.append(row)
        page.para(
            f"Win rate against 3 {players(opp)} "
            f"({max(50, s.rounds['select'] // PLAYERS) * 4:,} "
            f"rotated rounds each; 95% intervals within ±"
            f"{num(max((v[2] - v[1]) / 2 for k, v in s.select.items() if k[1] == opp), 4)}"
            "):"
        )
        page.table(pd.DataFrame(rows))
    t = s.tunings
    page.para(
        "Tuned weights (the features are defined in `unosim/players/strategies.py`; "
        + _tuning_source(t)
        + "): "
        + "; ".join(
            f"vs {o}: " + ", ".join(f"{k} {t[o]['weights'][k]:.3g}" for k in strat.FEATURES)
            for o in OPPONENTS
        )
        + "."
    )


def _strategy_figure(page: Page, s: _Found) -> None:
    """Every candidate's win rate under each rule set, per opponent."""
    x = np.arange(len(RULE_SETS))
    fig, axes = plt.subplots(2, 1, figsize=(11, 6.4), sharex=True)
    cands = list(s.names.values())
    cc = colours(cands)
    k = len(cands)
    for ax, opp in zip(axes, OPPONENTS):
        for j, name in enumerate(cands):
            v = 100 * np.array([s.select[r, opp, name] for r in RULE_SETS])
            ax.errorbar(
                x + (j - (k - 1) / 2) * 0.11,
                v[:, 0],
                yerr=[v[:, 0] - v[:, 1], v[:, 2] - v[:, 0]],
                fmt="o",
                ms=3,
                capsize=1.5,
                lw=0.8,
                color=cc[name],
                label=esc.mpl(name),
            )
        ax.axhline(100 * FAIR, color="grey", lw=0.8, ls="--")
        ax.set_ylabel(f"win rate against\n3 {players_fig(opp)} (%)")
    axes[1].set_xticks(x, [shown_fig(r) for r in RULE_SETS], rotation=30, ha="right")
    axes[0].legend(fontsize=7, ncol=4, loc="upper left")
    axes[0].margins(y=0.25)
    page.figure(
        fig,
        "strategies",
        "Win rate of every candidate against 3 random and 3 "
        "sensible (heuristic) players under each rule set (selection deals, 95% intervals; "
        "dashed: a fair 25%).",
    )


def _tuning_figure(page: Page, s: _Found) -> None:
    """The cross-entropy tuning's mean and elite win rate by iteration."""
    fig, ax = plt.subplots(figsize=(6, 3.2))
    for o in OPPONENTS:
        hist = s.tunings[o]["history"]
        it = np.array(hist["iteration"]) + 1
        for key, ls, what in (("elite", "-", "elite mean"), ("mean", "--", "mean")):
            v = 100 * np.array(hist[key])
            # one candidate's measurement noise: 95% half-width of a rate on 4 x deals
            hw = (
                100
                * 1.96
                * np.sqrt(
                    np.array(hist[key])
                    * (1 - np.array(hist[key]))
                    / (PLAYERS * np.array(hist["deals"]))
                )
            )
            ax.errorbar(
                it,
                v,
                yerr=hw,
                marker="o",
                ms=3,
                capsize=2,
                ls=ls,
                color=colour(o),
                label=f"against {PLAYERS_DISPLAY[o]}: {what}",
            )
    ax.set_xlabel("iteration of the cross-entropy search")
    ax.set_ylabel("win rate on the tuning deals (%)")
    ax.legend(fontsize=7)
    page.figure(
        fig,
        "tuning",
        "Cross-entropy tuning of the weighted player under official "
        "rules: mean and elite win rate of each iteration's candidates; bars: one "
        "candidate's 95% measurement noise on that iteration's deals.",
    )


def _data(page: Page, s: _Found) -> None:
    """Every win rate of the page as a CSV."""
    data = pd.DataFrame(
        [
            {
                "rules": r,
                "opponents": o,
                "candidate": n,
                "win_rate": v[0],
                "lo": v[1],
                "hi": v[2],
                "deals": "selection",
            }
            for (r, o, n), v in s.select.items()
        ]
        + [
            {
                "rules": r,
                "opponents": o,
                "candidate": s.best[r, o],
                "win_rate": v[0],
                "lo": v[1],
                "hi": v[2],
                "deals": "fresh",
            }
            for (r, o), v in s.skill.items()
        ]
        + [
            {
                "rules": r,
                "opponents": o,
                "candidate": f"expert over {v['policy_name']}",
                "win_rate": v["est"],
                "lo": v["est"] - v["est_half"],
                "hi": v["est"] + v["est_half"],
                "deals": "own deals, policy as control variate",
            }
            for (r, o), v in s.xrow.items()
        ]
    )
    page.data(data, "skill", "Every win rate on this page")


if __name__ == "__main__":
    main(NAME, compute, render, __doc__)
