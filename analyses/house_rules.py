"""house-rules: 48 combinations of five house rules, main effects and interactions.

Usage: python analyses/house_rules.py [--scale S] [--out reports] [--results results/reports]

Every combination of stacking (none, same, progressive) x seven_zero x jump_in x
draw_rule (one, until_playable) x wd4_restriction (colour, none) on top of `official`,
4 `random` players, all 48 rule sets on the same seeds. An effect is a contrast between
cells, computed game by game (the same game index under every rule set), so its interval
comes from the per-game contrasts:

* main effect of a switch: the mean over the other switches' settings of
  (outcome with the switch on - outcome with it off);
* interaction of two switches: the mean over the others of
  (effect of the first with the second on - effect of the first with the second off).

Outcomes: mean turns per round and seat 0's win rate (its advantage over 1/4). Beside
the averaged main effects, each switch's simple effect: the switch alone against
`official` on the same games (the comparison the editions page makes). With `table`
players (when this version has them) the 48 combinations are played again, fewer games
each.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from common import (
    Context,
    Results,
    colour,
    main,
    names_and,
    noticeable,
    players,
    realistic,
    rel,
    standard_games,
    symlog_percent,
)
from scipy.stats import t as student_t

from unosim.analysis.compare import paired_metrics
from unosim.game.names import DISPLAY, PLAYERS_DISPLAY, display_value
from unosim.game.rules import RuleError, resolve
from unosim.report import escape as esc
from unosim.report.page import Page, ci, num
from unosim.stats import wilson_ci

NAME = "house-rules"
PLAYERS = 4
BASE_GAMES = 250_000  # per combination, main runs (one seed each)
BASE_PILOT = 25_000  # per combination, pilot on one common seed
BASE_TABLE = 50_000  # per combination with realistic `table` players
FACTORS: tuple[tuple[str, tuple], ...] = (
    ("stacking", ("none", "same", "progressive")),
    ("seven_zero", (False, True)),
    ("jump_in", (False, True)),
    ("draw_rule", ("one", "until_playable")),
    ("wd4_restriction", ("colour", "none")),
)
# the switches whose effects are shown: (rule, level) against the rule's first level
SWITCHES = (
    ("stacking", "same"),
    ("stacking", "progressive"),
    ("seven_zero", True),
    ("jump_in", True),
    ("draw_rule", "until_playable"),
    ("wd4_restriction", "none"),
)
OUTCOMES = (("turns", "mean turns", 2), ("seat0", "seat 0 win rate", 4))
# switches shown only alone against `official` (simple effects), not in the 48-cell
# design; a rule this version does not know is skipped. Add e.g. ("last_card", "number").
EXTRA_SWITCHES: tuple[tuple[str, object], ...] = (
    ("last_card", "number"),
    ("after_draw", "pass"),
    ("wd4_restriction", "strict"),
)


def _label(sw: tuple[str, object]) -> str:
    rule, level = sw
    if isinstance(level, bool):
        return rule
    return f"{rule}={level}"


def _name(sw: tuple[str, object]) -> str:
    """A switch in words (unosim/game/names.py): "stacking (same card)", "Seven-Zero",
    "draw until you can play"."""
    rule, level = sw
    if isinstance(level, bool):
        return DISPLAY[rule][0] if level else f"no {DISPLAY[rule][0]}"
    return display_value(rule, level)


def _names(key: tuple) -> str:
    """An effect (a switch, or two for an interaction) in words."""
    return " × ".join(_name(s) for s in key)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _level(rule: str, value: str) -> str:
    """A level of a rule, as ``cells`` writes it (``_value``), in short words."""
    level = next(v for v in dict(FACTORS)[rule] if _value(v) == value)
    if isinstance(level, bool):
        return "on" if level else "off"
    return display_value(rule, level)


def _value(v) -> str:
    return str(v).lower()


def cells() -> list[dict]:
    """The 48 combinations in a fixed order, each a dict rule -> level."""
    names = [f for f, _ in FACTORS]
    return [dict(zip(names, combo)) for combo in itertools.product(*(lv for _, lv in FACTORS))]


def _indicator(cell: dict, sw: tuple[str, object]) -> int | None:
    """1 if the cell has the switch's level, 0 if the rule's base level, None otherwise."""
    rule, level = sw
    base = dict(FACTORS)[rule][0]
    if cell[rule] == level:
        return 1
    return 0 if cell[rule] == base else None


def contrasts(cs: list[dict]) -> tuple[list[tuple], np.ndarray]:
    """Contrast weights over the cells: 6 main effects, then the 14 two-way interactions
    (every pair of switches on different rules). Returns (ids, weights[k, n_cells])."""
    ids, rows = [], []
    for sw in SWITCHES:
        a = [_indicator(c, sw) for c in cs]
        w = np.zeros(len(cs))
        n1, n0 = a.count(1), a.count(0)
        for i, v in enumerate(a):
            if v is not None:
                w[i] = 1.0 / n1 if v == 1 else -1.0 / n0
        ids.append((sw,))
        rows.append(w)
    for s1, s2 in itertools.combinations(SWITCHES, 2):
        if s1[0] == s2[0]:
            continue
        a1 = [_indicator(c, s1) for c in cs]
        a2 = [_indicator(c, s2) for c in cs]
        both = [(x, y) for x, y in zip(a1, a2) if x is not None and y is not None]
        m = both.count((1, 1))
        w = np.zeros(len(cs))
        for i, (x, y) in enumerate(zip(a1, a2)):
            if x is not None and y is not None:
                w[i] = (1.0 if x == y else -1.0) / m
        ids.append((s1, s2))
        rows.append(w)
    return ids, np.array(rows)


def _effects(Y: np.ndarray, W: np.ndarray, block: int = 1 << 17) -> pd.DataFrame:
    """Mean, 95% t interval and variance reduction of each contrast ``W @ Y[:, g]``.

    ``Y``: outcomes, shape (n_cells, n_games); ``W``: weights, shape (k, n_cells).
    """
    k, n = W.shape[0], Y.shape[1]
    s1 = np.zeros(k)
    s2 = np.zeros(k)
    for lo in range(0, n, block):
        c = W @ Y[:, lo : lo + block].astype(np.float64)
        s1 += c.sum(axis=1)
        s2 += (c * c).sum(axis=1)
    mean = s1 / n
    var = np.maximum(s2 - n * mean * mean, 0.0) / (n - 1)
    se = np.sqrt(var / n)
    tq = float(student_t.ppf(0.975, df=n - 1))
    cell_var = np.array([Y[i].astype(np.float64).var(ddof=1) for i in range(Y.shape[0])])
    se_ind = np.sqrt((W * W) @ cell_var / n)
    with np.errstate(divide="ignore", invalid="ignore"):
        vr = np.where(se > 0, se_ind**2 / se**2, np.nan)
    return pd.DataFrame(
        {
            "effect": mean,
            "lo": mean - tq * se,
            "hi": mean + tq * se,
            "se": se,
            "se_independent": se_ind,
            "variance_reduction": vr,
        }
    )


def _independent(means: np.ndarray, variances: np.ndarray, n: int, W: np.ndarray) -> pd.DataFrame:
    """Contrasts of independent runs: ``W @ means`` with ``se = sqrt(W**2 @ var / n)``."""
    est = W @ means
    se = np.sqrt((W * W) @ variances / n)
    tq = float(student_t.ppf(0.975, df=n - 1))
    return pd.DataFrame({"effect": est, "lo": est - tq * se, "hi": est + tq * se, "se": se})


def _run_cells(ctx: Context, cs, rulesets, base: int, strategies: str, seed0: int):
    """Each combination on its own seed: (cells frame, means, variances, games)."""
    n = ctx.games(base)
    tq = float(student_t.ppf(0.975, df=n - 1))
    means = {"turns": np.empty(len(cs)), "seat0": np.empty(len(cs))}
    variances = {"turns": np.empty(len(cs)), "seat0": np.empty(len(cs))}
    rows = []
    for i, (c, rs) in enumerate(zip(cs, rulesets)):
        seed = seed0 + 1 + i
        df = ctx.rounds(rs, PLAYERS, base, strategies, seed=seed)
        t = df["turns"].to_numpy(np.float64)
        w = (df["winner"].to_numpy() == 0).astype(np.float64)
        means["turns"][i], variances["turns"][i] = t.mean(), t.var(ddof=1)
        means["seat0"][i], variances["seat0"][i] = w.mean(), w.var(ddof=1)
        se = np.sqrt(variances["turns"][i] / n)
        lo, hi = wilson_ci(int(w.sum()), n)
        rows.append(
            {
                **{f: _value(c[f]) for f, _ in FACTORS},
                "strategies": strategies,
                "rules_hash": rs.hash(),
                "seed": seed,
                "games": n,
                "turns_mean": t.mean(),
                "turns_se": se,
                "turns_lo": t.mean() - tq * se,
                "turns_hi": t.mean() + tq * se,
                "seat0": w.mean(),
                "seat0_lo": lo,
                "seat0_hi": hi,
                "truncated": int(df["truncated"].sum()),
            }
        )
    return pd.DataFrame(rows), means, variances, n


def _separated(t: tuple[float, float, float]) -> bool:
    """Whether an interval ``(est, lo, hi)`` excludes 0."""
    return t[1] > 0 or t[2] < 0


def _switch_rules(sw: tuple[str, object]):
    """``official`` with one switch on, or None when this version lacks the rule."""
    try:
        return resolve("official", {sw[0]: _value(sw[1])})
    except (RuleError, KeyError, ValueError):
        return None


def simple_effects(ctx: Context, strategies: str, switches) -> dict:
    """Each switch alone against `official`, on the same games (paired):
    {switch: {"turns": (d, lo, hi), "seat0": (d, lo, hi), "base_turns": x}}."""
    base_games = standard_games("official", PLAYERS, strategies)
    off = ctx.rounds(
        "official",
        PLAYERS,
        base_games,
        strategies,
        columns=("turns", "winner", "points", "truncated"),
    )
    out = {}
    for sw in switches:
        rs = _switch_rules(sw)
        if rs is None:
            continue
        df = ctx.rounds(
            rs, PLAYERS, base_games, strategies, columns=("turns", "winner", "points", "truncated")
        )
        t = paired_metrics(off, df, metrics=("mean_turns", "seat0_win_rate")).set_index("metric")
        out[sw] = {
            "turns": tuple(t.loc["mean_turns", ["diff", "lo", "hi"]]),
            "seat0": tuple(t.loc["seat0_win_rate", ["diff", "lo", "hi"]]),
            "base_turns": float(t.loc["mean_turns", "value_a"]),
            "base_seat0": float(t.loc["seat0_win_rate", "value_a"]),
            "games": len(df),
        }
    return out


def _conditional(cells_df: pd.DataFrame, sw, partner) -> dict:
    """Mean effect of ``sw`` on turns (on − off, averaged over the remaining switches)
    at each level of ``partner``'s rule: {level: effect}."""
    rule, level = sw
    base = _value(dict(FACTORS)[rule][0])
    prule = partner[0]
    out = {}
    for plev in (_value(v) for v in dict(FACTORS)[prule]):
        sub = cells_df[cells_df[prule] == plev]
        on = sub[sub[rule] == _value(level)]["turns_mean"].mean()
        off = sub[sub[rule] == base]["turns_mean"].mean()
        out[plev] = on - off
    return out


def compute(ctx: Context) -> Results:
    """Every number of the page: the pilot on common games (what common seeds would buy),
    the 48 combinations on a seed each per player model with their effects, and each
    switch alone against `official` on the same games."""
    strats = ("random", *realistic())
    cs = cells()
    rulesets = [resolve("official", {k: _value(v) for k, v in c.items()}) for c in cs]
    ids, W = contrasts(cs)
    pilot = _pilot(ctx, rulesets, W)
    runs = {
        st: _run_cells(
            ctx,
            cs,
            rulesets,
            BASE_GAMES if st == "random" else BASE_TABLE,
            st,
            ctx.seed if st == "random" else ctx.seed + 1000,
        )
        for st in strats
    }
    tables = {
        st: _effects_table(ids, W, means, variances, n, pilot if st == "random" else None)
        for st, (_cells, means, variances, n) in runs.items()
    }
    simple = {st: simple_effects(ctx, st, SWITCHES + EXTRA_SWITCHES) for st in strats}
    return ctx.results_of(
        {
            "strategies": list(strats),
            "effect_ids": ids,
            "pilot_games": ctx.games(BASE_PILOT),
            "cells": {st: runs[st][0] for st in strats},
            "games": {st: runs[st][3] for st in strats},
            "effects": tables,
            "simple": simple,
        }
    )


def _pilot(ctx: Context, rulesets, W: np.ndarray) -> dict[str, pd.DataFrame]:
    """Every combination on the same games (one seed): each contrast game by game, to
    measure what common seeds buy (``_effects``), per outcome."""
    n_pilot = ctx.games(BASE_PILOT)
    Pt = np.empty((len(rulesets), n_pilot), dtype=np.int32)
    P0 = np.empty((len(rulesets), n_pilot), dtype=np.int8)
    for i, rs in enumerate(rulesets):
        df = ctx.rounds(rs, PLAYERS, BASE_PILOT)
        Pt[i] = df["turns"].to_numpy()
        P0[i] = df["winner"].to_numpy() == 0
    return {"turns": _effects(Pt, W), "seat0": _effects(P0, W)}


def _effects_table(ids, W, means, variances, n: int, pilot: dict | None) -> pd.DataFrame:
    """One row per effect (main effects, then interactions) of independent runs, with
    the pilot's estimate and variance reduction when ``pilot`` is given."""
    table = pd.DataFrame(
        {
            "effect": [" × ".join(_label(s) for s in key) for key in ids],
            "kind": ["main" if len(k) == 1 else "interaction" for k in ids],
        }
    )
    for o, _, _ in OUTCOMES:
        e = _independent(means[o], variances[o], n, W)
        for col in e.columns:
            table[f"{o}_{col}"] = e[col].to_numpy()
        if pilot is not None:
            table[f"{o}_pilot_effect"] = pilot[o]["effect"].to_numpy()
            table[f"{o}_pilot_variance_reduction"] = pilot[o]["variance_reduction"].to_numpy()
    return table


@dataclass
class _Found:
    """The stored results as the page's words read them: random players' effects and
    cells, each switch alone, and for every switch its largest interaction."""

    strats: list[str]
    ids: list[tuple]
    tables: dict[str, pd.DataFrame]  # per player model: every effect
    simple: dict[str, dict]  # per player model: switch -> its simple effect
    games: dict[str, int]  # per player model: games per combination
    cells_by_model: dict[str, pd.DataFrame]  # per player model: the 48 combinations
    pilot_games: int
    seed: int

    @property
    def cells(self) -> pd.DataFrame:
        """Random players' 48 combinations."""
        return self.cells_by_model["random"]

    @property
    def table(self) -> pd.DataFrame:
        return self.tables["random"]

    @property
    def mains(self) -> pd.DataFrame:
        return self.table[self.table.kind == "main"].reset_index(drop=True)

    @property
    def alone(self) -> dict:
        return self.simple["random"]

    @property
    def base_turns(self) -> float:
        return self.alone[SWITCHES[0]]["base_turns"]

    def explain(self) -> dict:
        """switch -> (its partner in the largest interaction on turns, the switch's
        effect at each of the partner's levels)."""
        out = {}
        for sw in SWITCHES:
            partners = [
                (k, r)
                for k, (_, r) in zip(self.ids, self.table.iterrows())
                if len(k) == 2 and sw in k
            ]
            k, r = max(partners, key=lambda kr: abs(kr[1]["turns_effect"]))
            other = k[1] if k[0] == sw else k[0]
            out[sw] = (other, _conditional(self.cells, sw, other))
        return out

    def pct(self, x: float) -> str:
        """A change of turns as a signed percentage of Official UNO's length."""
        return f"{num(rel(x, self.base_turns), 0, True)}%"


def _found(res: Results) -> _Found:
    return _Found(
        strats=res["strategies"],
        ids=res["effect_ids"],
        tables=res["effects"],
        simple=res["simple"],
        games=res["games"],
        cells_by_model=res["cells"],
        pilot_games=res["pilot_games"],
        seed=res.seed,
    )


def _fmt(r, o: str, dg: int) -> str:
    """An effect of row ``r`` on outcome ``o`` with its interval."""
    return ci(r[f"{o}_effect"], r[f"{o}_lo"], r[f"{o}_hi"], dg, sign=True)


def render(res: Results) -> Page:
    page = Page(
        NAME,
        "Five house rules in 48 combinations",
        "Which house rules (stacking, Seven-Zero, Jump-In, draw until you can play, "
        "Wild Draw Four at any time) change round length and seat 0's advantage, "
        "alone and together, and do they interact?",
    )
    f = _found(res)
    explain = f.explain()
    page.heading("Answer")
    page.lead(_lead(f, explain))
    _main_figure(page, f.strats, f.tables, f.simple, f.base_turns)
    page.bullets(_switch_bullets(f, explain))
    page.para(
        "Why the two differ: the simple effect changes one rule of Official UNO and "
        "keeps the others off; the main effect averages the switch's effect over "
        "every setting of the other four, half of them with draw until you can play, "
        "whose long rounds magnify whatever shortens or lengthens a round. The "
        "editions page compares presets with Official UNO on the same games, so its "
        "differences are the simple effects."
    )
    extra = [sw for sw in EXTRA_SWITCHES if sw in f.alone]
    if extra:
        page.para(
            "Three more house rules, each alone against Official UNO on the same "
            "games (random players; simple effects only, not in the 48 combinations): "
            + "; ".join(_extra_words(sw, f.alone[sw], f.base_turns) for sw in extra)
            + " (docs/rules.md 8.8-8.10; under 1% of length or 0.5 percentage points "
            "of a win rate: no practical difference)."
        )
    page.para(_precision(f))
    page.heading("Figures")
    _interaction_figure(page, f.table, f.ids, f.cells)
    _ranked_figure(page, f.cells)
    _heatmap(page, f.table, f.ids)
    _tables(page, f)
    _data(page, f)
    n = f.games["random"]
    res.provenance(
        page,
        table=False,
        notes=[
            f"The 48 rule sets are `official` (hash {esc.code(resolve('official').hash())}) "
            "plus the "
            "switches of each combination "
            "(`official+stacking=...,seven_zero=...,jump_in=...,draw_rule=...,"
            f"wd4_restriction=...`), with 4 players: main runs of {n:,} games with random "
            f"players on seeds {f.seed + 1} to {f.seed + len(f.cells)}"
            + "".join(
                f", {f.games[st]:,} games with {players(st)} on seeds "
                f"{f.seed + 1001} to {f.seed + 1000 + len(f.cells)}"
                for st in f.strats[1:]
            )
            + f" (hashes and seeds in `cells.csv`), pilot runs of {f.pilot_games:,} games on "
            f"seed {f.seed}; simple effects on the shared 4-player runs of each switch alone."
        ],
    )
    return page


def _lead(f: _Found, explain: dict) -> str:
    """The answer's opening: the rule that changes length most, then what Jump-In and
    Seven-Zero do alone and on average."""
    sr, base_t, p = f.alone, f.base_turns, f.pct
    main_t = {sw: f.mains.loc[i, "turns_effect"] for i, sw in enumerate(SWITCHES)}
    big = max(SWITCHES, key=lambda k: abs(main_t[k]))
    dup = ("draw_rule", "until_playable")
    ji = ("jump_in", True)
    sz = ("seven_zero", True)
    lead = (
        f"Draw until you can play is the house rule that changes the game: alone it makes "
        f"official rounds {p(sr[dup]['turns'][0]).lstrip('+')} longer "
        f"({num(base_t + sr[dup]['turns'][0], 0)} against {num(base_t, 0)} turns), and "
        f"averaged over all 48 combinations of the five rules it adds "
        f"{num(main_t[dup], 0)} turns ({p(main_t[dup]).lstrip('+')})."
        if big == dup
        else f"{esc.md_text(_cap(_name(big)))} changes length most: {p(main_t[big])} averaged "
        "over the 48 combinations."
    )
    if ji in sr:
        part, cond = explain[ji]
        lead += (
            f" Jump-In shortens rounds by {p(-sr[ji]['turns'][0])[1:]} alone but by "
            f"{p(-main_t[ji])[1:]} on average, because it cuts the long rounds of "
            f"{esc.md_text(_name(part))} most "
            f"({num(cond[_value(part[1])], 1, True)} turns with it, "
            f"{num(cond[_value(dict(FACTORS)[part[0]][0])], 1, True)} "
            "without)."
        )
    if sz in sr and sr[sz]["seat0"][2] < 0:
        lead += _seven_zero_words(f, explain[sz], main_t[sz])
    return lead


def _seven_zero_words(f: _Found, explained: tuple, main_turns: float) -> str:
    """What Seven-Zero does to length and to seat 0's win rate, for random and table
    players: a sentence to close the lead."""
    sz = ("seven_zero", True)
    sr = f.alone
    part, cond = explained
    s0m = f.mains.loc[SWITCHES.index(sz)]
    tz = f.simple["table"].get(sz) if "table" in f.simple else None
    rz = rel(sr[sz]["turns"][0], f.base_turns)
    return (
        (
            " With random players Seven-Zero makes no practical difference to length "
            if not noticeable(rz)
            else f" With random players Seven-Zero changes length by {num(rz, 1, True)}% "
        )
        + f"({num(sr[sz]['turns'][0], 2, True)} turns alone, "
        f"{num(main_turns, 2, True)} on average: "
        f"{num(cond[_value(part[1])], 2, True)} with "
        f"{esc.md_text(_name(part))}, "
        f"{num(cond[_value(dict(FACTORS)[part[0]][0])], 2, True)} without)"
        + (
            f", with table players it makes rounds "
            f"{num(rel(tz['turns'][0], tz['base_turns']), 0)}% longer"
            if tz is not None
            and tz["turns"][1] > 0
            and noticeable(rel(tz["turns"][0], tz["base_turns"]))
            else ""
        )
        + (
            f"; it takes seat 0's win rate down by "
            f"{num(-100 * sr[sz]['seat0'][0], 2)} percentage points alone "
            f"({num(-100 * s0m['seat0_effect'], 2)} on average)"
            if noticeable(100 * sr[sz]["seat0"][0], rate=True)
            else f"; its effect on seat 0's win rate ("
            f"{num(100 * sr[sz]['seat0'][0], 2, True)} percentage points alone) makes "
            "no practical difference"
        )
        + (", for random and table players alike" if tz is not None and tz["seat0"][2] < 0 else "")
        + "."
    )


def _switch_bullets(f: _Found, explain: dict) -> list[str]:
    """Each switch alone and averaged, with its largest interaction; then the switches
    whose direction random and realistic players disagree on."""
    sr, simple = f.alone, f.simple
    bullets = []
    for i, sw in enumerate(SWITCHES):
        part, cond = explain[sw]
        r = f.mains.loc[i]
        s_ = sr[sw]["turns"]
        lv_on, lv_off = _value(part[1]), _value(dict(FACTORS)[part[0]][0])
        text = (
            f"{esc.md_text(_cap(_name(sw)))}: {ci(*s_, 2, sign=True)} turns alone (from "
            f"Official UNO, same games), {_fmt(r, 'turns', 2)} averaged over the 48 "
            "combinations"
        )
        if (s_[0] > 0) != (r["turns_effect"] > 0):
            text += " (opposite signs)"
        text += (
            f"; its largest interaction is with {esc.md_text(_name(part))}: "
            f"{num(cond[lv_on], 2, True)} turns with it on, "
            f"{num(cond[lv_off], 2, True)} with it off."
        )
        for st in f.strats[1:]:
            if sw in simple[st]:
                rt = f.tables[st][f.tables[st].kind == "main"].reset_index(drop=True).loc[i]
                text += (
                    f" With {players(st)}: {ci(*simple[st][sw]['turns'], 2, sign=True)}"
                    f" alone, {_fmt(rt, 'turns', 2)} averaged."
                )
        bullets.append(text)
    for st in f.strats[1:]:
        flip = [
            sw
            for sw in SWITCHES
            if sw in simple[st]
            and _separated(sr[sw]["turns"])
            and _separated(simple[st][sw]["turns"])
            and (sr[sw]["turns"][0] > 0) != (simple[st][sw]["turns"][0] > 0)
        ]
        if flip:
            bullets.append(
                f"Random players and {players(st)} disagree on the direction of "
                + names_and(
                    [
                        f"{esc.md_text(_name(sw))} ("
                        f"{num(sr[sw]['turns'][0], 2, True)} turns alone with random "
                        f"players, {num(simple[st][sw]['turns'][0], 2, True)} with "
                        f"{players(st)})"
                        for sw in flip
                    ]
                )
                + ": what a rule does depends on how people play, so a finding made "
                "with random players alone does not carry over."
            )
    return bullets


def _precision(f: _Found) -> str:
    """The games behind the effects, their widest intervals and the truncated rounds."""
    table, simple = f.table, f.simple
    hw_t = float(np.max(table["turns_hi"] - table["turns_effect"]))
    hw_s = float(np.max(table["seat0_hi"] - table["seat0_effect"]))
    ntrunc = int(f.cells["truncated"].sum())
    return (
        f"Precision: {f.games['random']:,} games per combination with random players"
        + "".join(f", {f.games[st]:,} with {players(st)}" for st in f.strats[1:])
        + f"; with random players every 95% interval of an effect is within "
        f"±{num(hw_t)} turns and ±{num(100 * hw_s, 2)} percentage points in seat 0's win "
        "rate. Simple effects: "
        f"{f.alone[SWITCHES[0]]['games']:,} paired games per switch with random players"
        + "".join(
            f", {simple[st][SWITCHES[0]]['games']:,} with {players(st)}"
            for st in f.strats[1:]
            if SWITCHES[0] in simple[st]
        )
        + ". "
        + (
            f"{ntrunc:,} rounds reached the turn limit and enter at their cut-off length."
            if ntrunc
            else "No round reached the turn limit."
        )
    )


def _tables(page: Page, f: _Found) -> None:
    """Every effect of random players, the design of the runs, and the 48 combinations."""
    sr, table = f.alone, f.table
    page.heading("Effects (random players)")
    rows = []
    for key, (_, r) in zip(f.ids, table.iterrows()):
        sw = key[0] if len(key) == 1 else None
        rows.append(
            {
                "effect": esc.md_text(_names(key)),
                "kind": r["kind"],
                "alone, Δ turns": ci(*sr[sw]["turns"], 2, sign=True) if sw else "",
                "averaged, Δ turns": _fmt(r, "turns", 2),
                "alone, Δ seat 0 (pp)": _pp(sr[sw]["seat0"]) if sw else "",
                "averaged, Δ seat 0 (pp)": _pp((r["seat0_effect"], r["seat0_lo"], r["seat0_hi"])),
                "pilot VR (turns)": f"{num(r['turns_pilot_variance_reduction'], 2)}",
            }
        )
    page.table(pd.DataFrame(rows))
    page.para(
        "alone: the switch against Official UNO on the same games (simple effect). "
        "averaged: main effect, the mean over the other switches of (on − off). "
        "Interaction A × B: mean over the others of (effect of A with B on − effect "
        "of A with B off); stacking (same card) and stacking (+4 on +2 too) are each "
        "compared with no stacking. pp: percentage points. 95% intervals from the 48 "
        "independent runs. Pilot VR: variance of "
        "the contrast from independent runs divided by its variance on common "
        "games, in the pilot."
    )
    vr_t = table["turns_pilot_variance_reduction"]
    vr_s = table["seat0_pilot_variance_reduction"]
    page.para(
        f"Design: a pilot played all 48 combinations on the same {f.pilot_games:,} games "
        "(one seed) and computed every contrast game by game. Against independent "
        f"runs of the same size, the common games divided the variance of the length "
        f"contrasts by {num(vr_t.min(), 2)} to {num(vr_t.max(), 2)} (median "
        f"{num(vr_t.median(), 2)}) and of the seat 0 contrasts by {num(vr_s.min(), 2)} "
        f"to {num(vr_s.max(), 2)} (median {num(vr_s.median(), 2)}): rule sets that "
        "share a switch play nearly the same game from a common deal, so averaging "
        "them cancels little noise. The main runs therefore give each combination "
        f"its own seed (seed {f.seed} + 1 + the combination's row in `cells.csv`; "
        f"table players: {f.seed + 1000} + 1 + row)."
    )
    page.heading("The 48 combinations", 3)
    rows = []
    for _, r in f.cells.iterrows():
        rows.append(
            {
                **{esc.md_text(DISPLAY[k][0]): esc.md_text(_level(k, r[k])) for k, _ in FACTORS},
                "mean turns": ci(r["turns_mean"], r["turns_lo"], r["turns_hi"]),
                "seat 0 wins": ci(r["seat0"], r["seat0_lo"], r["seat0_hi"], 4),
                "truncated": f"{r['truncated']:,}",
            }
        )
    page.table(pd.DataFrame(rows), align=["l"] * 5 + ["r"] * 3)
    page.para(
        f"{f.games['random']:,} games each, 4 random players; every rule set is Official "
        "UNO plus the house rules of its row (rules hashes and seeds in `cells.csv`)."
    )


def _data(page: Page, f: _Found) -> None:
    """The page's CSVs: every effect, every combination, every switch alone."""
    page.data(
        pd.concat([f.tables[st].assign(strategies=st) for st in f.strats]),
        "effects",
        "Every effect with its interval (and the pilot's estimate and variance reduction)",
    )
    page.data(
        pd.concat([f.cells_by_model[st] for st in f.strats]),
        "cells",
        "Mean turns and seat 0's win rate of each of the 48 combinations, per player "
        "model, with its rules hash and seed",
    )
    page.data(
        pd.DataFrame(
            [
                {
                    "strategies": st,
                    "switch": _label(sw),
                    **{
                        f"{o}_{k}": v
                        for o in ("turns", "seat0")
                        for k, v in zip(("diff", "lo", "hi"), d[o])
                    },
                }
                for st in f.strats
                for sw, d in f.simple[st].items()
            ]
        ),
        "simple-effects",
        "Each switch alone against Official UNO (paired)",
    )


def _pp(t) -> str:
    """A difference of a rate ``(d, lo, hi)`` in percentage points, with its interval."""
    return ci(*(100 * v for v in t), 2, sign=True)


def _extra_words(sw, d: dict, base_t: float) -> str:
    """A switch outside the 48 combinations, alone against Official UNO, in words."""
    r = rel(d["turns"][0], base_t)
    s0 = 100 * d["seat0"][0]
    length = (
        f"makes rounds {num(abs(r), 1)}% {'longer' if r > 0 else 'shorter'} "
        f"({ci(*d['turns'], 2, sign=True)} turns)"
        if noticeable(r)
        else f"makes no practical difference to length ({ci(*d['turns'], 2, sign=True)} turns)"
    )
    seat = (
        f"changes seat 0's win rate by {_pp(d['seat0'])} percentage points"
        if noticeable(s0, rate=True)
        else "makes no practical difference to seat 0's win rate "
        f"({_pp(d['seat0'])} percentage points)"
    )
    return f"{esc.md_text(_cap(_name(sw)))} {length} and {seat}"


# the switches in a few words, for the labels of the ranked combinations
SHORT = {
    "stacking": {"same": "stack same", "progressive": "stack +4 on +2"},
    "seven_zero": "7-0",
    "jump_in": "Jump-In",
    "draw_rule": "draw until play",
    "wd4_restriction": "WD4 any time",
}


def _short(r) -> str:
    out = []
    for f, lv in FACTORS:
        if r[f] != _value(lv[0]):
            s = SHORT[f]
            out.append(s[r[f]] if isinstance(s, dict) else s)
    return " + ".join(out) or "Official UNO"


def _switch_colour(sw) -> str:
    preset = {
        ("stacking", "same"): "stacking",
        ("stacking", "progressive"): "progressive",
        ("seven_zero", True): "seven-zero",
        ("jump_in", True): "jump-in",
        ("draw_rule", "until_playable"): "draw-until-playable",
    }.get(sw)
    return colour(preset) if preset else "#555555"


def _main_figure(page: Page, strats, tables, simple, base_t: float) -> None:
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.4), sharey=True)
    labels = [_name(s) for s in SWITCHES]
    k = 2 * len(strats)
    for ax, (o, unit) in zip(
        axes,
        (
            ("turns", "Δ mean turns (% of Official UNO)"),
            ("seat0", "Δ seat 0 win rate (percentage points)"),
        ),
    ):
        f = (lambda v: rel(v, base_t)) if o == "turns" else (lambda v: 100 * v)
        j = 0
        for st, mk in zip(strats, ("o", "s")):
            mains = tables[st][tables[st].kind == "main"].reset_index(drop=True)
            for what in ("alone", "averaged"):
                off = (j - (k - 1) / 2) * 0.16
                for i, sw in enumerate(SWITCHES):
                    if what == "alone":
                        if sw not in simple[st]:
                            continue
                        e = [f(v) for v in simple[st][sw][o]]
                    else:
                        e = [f(mains.loc[i, f"{o}_{c}"]) for c in ("effect", "lo", "hi")]
                    c = _switch_colour(sw)
                    ax.errorbar(
                        e[0],
                        i + off,
                        xerr=[[e[0] - e[1]], [e[2] - e[0]]],
                        fmt=mk,
                        ms=5,
                        capsize=2,
                        color=c,
                        mfc="white" if what == "alone" else c,
                        label=f"{PLAYERS_DISPLAY[st]}, {what}" if i == 0 else None,
                    )
                j += 1
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_xlabel(unit)
    symlog_percent(axes[0])
    axes[0].set_xlabel("Δ mean turns (% of Official UNO; log scale beyond ±10%)")
    axes[0].set_yticks(range(len(labels)), [esc.mpl(t) for t in labels])
    axes[0].set_ylim(len(labels) - 0.5, -0.5)
    from matplotlib.lines import Line2D

    handles = [
        Line2D(
            [],
            [],
            ls="",
            marker=mk,
            color="#555555",
            mfc="white" if what == "alone" else "#555555",
            label=f"{PLAYERS_DISPLAY[st]}, {what}",
        )
        for st, mk in zip(strats, ("o", "s"))
        for what in ("alone", "averaged")
    ]
    axes[1].legend(
        handles=handles, fontsize=7, loc="lower left", title="players, effect", title_fontsize=7
    )
    fig.suptitle(
        "Each house rule alone against Official UNO (hollow) and averaged over the 48 "
        "combinations (filled), 4 players, 95% intervals",
        fontsize=9,
    )
    page.figure(
        fig,
        "simple-and-main",
        "Each house rule's effect on mean length and on "
        "seat 0's win rate: alone against Official UNO on the same games (hollow "
        "markers) and averaged over the 48 combinations (filled), for random and "
        "table players, with 95% intervals.",
        main=True,
    )


def _interaction_figure(page: Page, table, ids, cells_df, top: int = 3) -> None:
    inter = [(k, r) for k, (_, r) in zip(ids, table.iterrows()) if len(k) == 2]
    inter.sort(key=lambda kr: -abs(kr[1]["turns_effect"]))
    fig, axes = plt.subplots(1, top, figsize=(11, 3.2))
    tq = 1.96
    for ax, (key, r) in zip(axes, inter[:top]):
        a, b = key
        for bl, ls in ((_value(dict(FACTORS)[b[0]][0]), ":"), (_value(b[1]), "-")):
            ys, es = [], []
            for al in (_value(dict(FACTORS)[a[0]][0]), _value(a[1])):
                sub = cells_df[(cells_df[a[0]] == al) & (cells_df[b[0]] == bl)]
                ys.append(sub["turns_mean"].mean())
                es.append(tq * np.sqrt((sub["turns_se"] ** 2).sum()) / len(sub))
            on = bl == _value(b[1])
            ax.errorbar(
                [0, 1],
                ys,
                yerr=es,
                marker="o",
                ms=4,
                capsize=3,
                ls=ls,
                color=_switch_colour(b) if on else "#999999",
                label=esc.mpl(_name(b) if on else _name((b[0], dict(FACTORS)[b[0]][0]))),
            )
        ax.set_xticks([0, 1], ["off", "on"])
        ax.set_xlabel(esc.mpl(_name(a)))
        ax.set_xlim(-0.3, 1.3)
        ax.set_ylabel("mean turns per round")
        ax.set_title(
            esc.mpl(f"{_name(a)} × {_name(b)}: {num(r['turns_effect'], 2, True)} turns"),
            fontsize=8,
        )
        ax.legend(fontsize=7)
    page.figure(
        fig,
        "interactions",
        "The largest interactions on length: mean turns "
        "with each switch off and on (averaged over the other switches), 4 random "
        "players, 95% intervals. Non-parallel lines: the effect of one switch "
        "depends on the other.",
    )


def _ranked_figure(page: Page, cells_df) -> None:
    d = cells_df.sort_values("turns_mean").reset_index(drop=True)
    fig, ax = plt.subplots(figsize=(7.5, 8.5))
    y = np.arange(len(d))
    for i, r in d.iterrows():
        on = r["draw_rule"] == "until_playable"
        ax.errorbar(
            r["turns_mean"],
            i,
            xerr=[[r["turns_mean"] - r["turns_lo"]], [r["turns_hi"] - r["turns_mean"]]],
            fmt="o",
            ms=3.5,
            capsize=2,
            color=colour("draw-until-playable") if on else colour("official"),
        )
    ax.set_yticks(y, [esc.mpl(_short(r)) for _, r in d.iterrows()], fontsize=7)
    ax.set_ylim(len(d) - 0.5, -0.5)
    ax.set_xlabel("mean turns per round, 4 random players")
    ax.set_title("The 48 combinations, shortest first (red: draw until you can play)", fontsize=9)
    page.figure(
        fig,
        "ranked-combinations",
        "Mean length of each of the 48 combinations "
        "with its 95% interval, shortest first. stack same: stacking (same card); "
        "stack +4 on +2: stacking (+4 on +2 too); 7-0: Seven-Zero; draw until play: "
        "draw until you can play; WD4 any time: Wild Draw Four at any time; Official "
        "UNO: none of them.",
    )


def _heatmap(page: Page, table, ids) -> None:
    from matplotlib.colors import Normalize

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.6))
    names = [_name(s) for s in SWITCHES]
    for ax, (o, title, _digits) in zip(axes, OUTCOMES):
        M = np.full((len(SWITCHES), len(SWITCHES)), np.nan)
        SIG = np.zeros_like(M, dtype=bool)
        for key, (_, r) in zip(ids, table.iterrows()):
            if len(key) != 2:
                continue
            i, j = SWITCHES.index(key[0]), SWITCHES.index(key[1])
            f = 100.0 if o == "seat0" else 1.0
            M[j, i] = f * r[f"{o}_effect"]
            SIG[j, i] = r[f"{o}_lo"] > 0 or r[f"{o}_hi"] < 0
        lim = float(np.nanmax(np.abs(M))) or 1.0
        norm = Normalize(vmin=-lim, vmax=lim)
        im = ax.imshow(M, cmap="RdBu_r", norm=norm)
        for i in range(len(SWITCHES)):
            for j in range(len(SWITCHES)):
                if np.isnan(M[i, j]):
                    continue
                txt = f"{M[i, j]:+.{2 if o == 'seat0' else 1}f}"
                dark = abs(norm(M[i, j]) - 0.5) > 0.35
                ax.text(
                    j,
                    i,
                    txt if SIG[i, j] else f"({txt})",
                    ha="center",
                    va="center",
                    fontsize=7,
                    fontweight="bold" if SIG[i, j] else "normal",
                    color="white" if dark else ("black" if SIG[i, j] else "dimgrey"),
                )
        ax.set_xticks(range(len(names)), [esc.mpl(n) for n in names], rotation=30, ha="right")
        ax.set_yticks(range(len(names)), [esc.mpl(n) for n in names])
        ax.grid(False)
        unit = "turns" if o == "turns" else "percentage points"
        ax.set_title(f"interactions on {title}", fontsize=9)
        fig.colorbar(im, ax=ax, shrink=0.8, label=f"interaction ({unit})")
    page.figure(
        fig,
        "heatmap",
        "Two-way interactions (the main effects are in the first "
        "figure) on mean turns and on seat 0's win rate, 4 random players, each on "
        "its own linear colour scale; values in parentheses have a 95% interval "
        "that includes 0.",
    )


if __name__ == "__main__":
    main(NAME, compute, render, __doc__)
