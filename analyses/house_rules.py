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

Outcomes: mean turns per round and seat 0's win rate (its advantage over 1/4).
"""
from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
from common import Context, main, names_and
from scipy.stats import t as student_t

import matplotlib.pyplot as plt
from unosim.report import Page, ci, num
from unosim.rules import resolve
from unosim.stats import wilson_ci

NAME = "house-rules"
PLAYERS = 4
BASE_GAMES = 250_000  # per combination, main runs (one seed each)
BASE_PILOT = 25_000  # per combination, pilot on one common seed
FACTORS: tuple[tuple[str, tuple], ...] = (
    ("stacking", ("none", "same", "progressive")),
    ("seven_zero", (False, True)),
    ("jump_in", (False, True)),
    ("draw_rule", ("one", "until_playable")),
    ("wd4_restriction", ("colour", "none")),
)
# the switches whose effects are shown: (rule, level) against the rule's first level
SWITCHES = (("stacking", "same"), ("stacking", "progressive"), ("seven_zero", True),
            ("jump_in", True), ("draw_rule", "until_playable"), ("wd4_restriction", "none"))
OUTCOMES = (("turns", "mean turns", 2), ("seat0", "seat 0 win rate", 4))


def _label(sw: tuple[str, object]) -> str:
    rule, level = sw
    if isinstance(level, bool):
        return rule
    return f"{rule}={level}"


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
        c = W @ Y[:, lo:lo + block].astype(np.float64)
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
    return pd.DataFrame({"effect": mean, "lo": mean - tq * se, "hi": mean + tq * se,
                         "se": se, "se_independent": se_ind, "variance_reduction": vr})


def _independent(means: np.ndarray, variances: np.ndarray, n: int, W: np.ndarray
                 ) -> pd.DataFrame:
    """Contrasts of independent runs: ``W @ means`` with ``se = sqrt(W**2 @ var / n)``."""
    est = W @ means
    se = np.sqrt((W * W) @ variances / n)
    tq = float(student_t.ppf(0.975, df=n - 1))
    return pd.DataFrame({"effect": est, "lo": est - tq * se, "hi": est + tq * se, "se": se})


def build(ctx: Context) -> Page:
    page = Page(NAME, "Five house rules in 48 combinations",
                "Which house rules (stacking, Seven-Zero, Jump-In, draw until playable, no "
                "Wild Draw Four restriction) change round length and seat 0's advantage, "
                "and do they interact?", ctx.out)
    cs = cells()
    rulesets = [resolve("official", {k: _value(v) for k, v in c.items()}) for c in cs]
    ids, W = contrasts(cs)

    # pilot: every combination on the same seed, to measure what common seeds buy
    n_pilot = ctx.games(BASE_PILOT)
    Pt = np.empty((len(cs), n_pilot), dtype=np.int16)
    P0 = np.empty((len(cs), n_pilot), dtype=np.int8)
    for i, rs in enumerate(rulesets):
        df = ctx.rounds(rs, PLAYERS, BASE_PILOT)
        Pt[i] = df["turns"].to_numpy()
        P0[i] = df["winner"].to_numpy() == 0
    pilot = {"turns": _effects(Pt, W), "seat0": _effects(P0, W)}
    del Pt, P0

    # main runs: one seed per combination (independent runs)
    n = ctx.games(BASE_GAMES)
    tq = float(student_t.ppf(0.975, df=n - 1))
    means = {"turns": np.empty(len(cs)), "seat0": np.empty(len(cs))}
    variances = {"turns": np.empty(len(cs)), "seat0": np.empty(len(cs))}
    cell_rows = []
    for i, (c, rs) in enumerate(zip(cs, rulesets)):
        seed = ctx.seed + 1 + i
        df = ctx.rounds(rs, PLAYERS, BASE_GAMES, seed=seed)
        t = df["turns"].to_numpy(np.float64)
        w = (df["winner"].to_numpy() == 0).astype(np.float64)
        means["turns"][i], variances["turns"][i] = t.mean(), t.var(ddof=1)
        means["seat0"][i], variances["seat0"][i] = w.mean(), w.var(ddof=1)
        se = np.sqrt(variances["turns"][i] / n)
        lo, hi = wilson_ci(int(w.sum()), n)
        cell_rows.append({**{f: _value(c[f]) for f, _ in FACTORS}, "rules_hash": rs.hash(),
                          "seed": seed, "games": n, "turns_mean": t.mean(),
                          "turns_lo": t.mean() - tq * se, "turns_hi": t.mean() + tq * se,
                          "seat0": w.mean(), "seat0_lo": lo, "seat0_hi": hi,
                          "truncated": int(df["truncated"].sum())})
    cells_df = pd.DataFrame(cell_rows)
    eff = {o: _independent(means[o], variances[o], n, W) for o, _, _ in OUTCOMES}
    labels = [" × ".join(_label(s) for s in key) for key in ids]
    table = pd.DataFrame({"effect": labels,
                          "kind": ["main" if len(k) == 1 else "interaction" for k in ids]})
    for o, _, _ in OUTCOMES:
        for col in eff[o].columns:
            table[f"{o}_{col}"] = eff[o][col].to_numpy()
        table[f"{o}_pilot_effect"] = pilot[o]["effect"].to_numpy()
        table[f"{o}_pilot_variance_reduction"] = pilot[o]["variance_reduction"].to_numpy()

    # ---------------------------------------------------------------- the answer
    mains = table[table.kind == "main"]
    inter = table[table.kind == "interaction"]

    def sig(df: pd.DataFrame, o: str) -> pd.DataFrame:
        return df[(df[f"{o}_lo"] > 0) | (df[f"{o}_hi"] < 0)]

    def fmt(r, o: str, dg: int) -> str:
        return ci(r[f"{o}_effect"], r[f"{o}_lo"], r[f"{o}_hi"], dg, sign=True)

    big_t = mains.loc[mains["turns_effect"].abs().idxmax()]
    big_s = mains.loc[mains["seat0_effect"].abs().idxmax()]
    big_it = inter.loc[inter["turns_effect"].abs().idxmax()]
    big_is = inter.loc[inter["seat0_effect"].abs().idxmax()]
    headline = (f"Over the 48 combinations (4 random players), "
                f"`{big_t['effect']}` has the largest effect on length, "
                f"{fmt(big_t, 'turns', 2)} turns per round averaged over the other "
                f"switches, and `{big_s['effect']}` the largest on seat 0's win rate, "
                f"{fmt(big_s, 'seat0', 4)}; the largest interaction on length is "
                f"`{big_it['effect']}` ({fmt(big_it, 'turns', 2)} turns).")
    page.headline = headline
    page.heading("Answer")
    page.para(headline)
    st, ss = sig(mains, "turns"), sig(mains, "seat0")
    it, is_ = sig(inter, "turns"), sig(inter, "seat0")
    base = cells_df.iloc[0]
    page.bullets([
        f"Main effects on mean length whose 95% interval excludes 0: {len(st)} of 6 ("
        + names_and([f"`{r['effect']}` {fmt(r, 'turns', 2)}" for _, r in st.iterrows()])
        + ")." if len(st) else "No main effect on length is separated from 0.",
        f"Main effects on seat 0's win rate whose interval excludes 0: {len(ss)} of 6"
        + (" (" + names_and([f"`{r['effect']}` {fmt(r, 'seat0', 4)}"
                             for _, r in ss.iterrows()]) + ")." if len(ss) else "."),
        f"Two-way interactions separated from 0: {len(it)} of {len(inter)} on length, "
        f"{len(is_)} of {len(inter)} on seat 0's win rate; the largest on seat 0 is "
        f"`{big_is['effect']}` ({fmt(big_is, 'seat0', 4)}).",
        f"For reference, plain `official` (the cell with every switch off) lasts "
        f"{ci(base['turns_mean'], base['turns_lo'], base['turns_hi'])} turns and seat 0 "
        f"wins {ci(base['seat0'], base['seat0_lo'], base['seat0_hi'], 4)} (fair: 0.25); "
        "the longest combination is "
        + _cell_text(cells_df.loc[cells_df["turns_mean"].idxmax()])
        + " and the shortest " + _cell_text(cells_df.loc[cells_df["turns_mean"].idxmin()])
        + ".",
    ])
    hw_t = float(np.max(table["turns_hi"] - table["turns_effect"]))
    hw_s = float(np.max(table["seat0_hi"] - table["seat0_effect"]))
    vr_t = table["turns_pilot_variance_reduction"]
    vr_s = table["seat0_pilot_variance_reduction"]
    below = int((vr_t < 1).sum() + (vr_s < 1).sum())
    is_main = (table["kind"] == "main").to_numpy()
    vr_main = np.concatenate([vr_t[is_main].to_numpy(), vr_s[is_main].to_numpy()])
    ntrunc = int(cells_df["truncated"].sum())
    page.para(f"Precision: {n:,} games per combination, {n * len(cs):,} in all. Every 95% "
              f"interval of an effect is within ±{num(hw_t)} turns and ±{num(hw_s, 4)} in "
              "seat 0's win rate, so effects smaller than that are not resolved. "
              + (f"{ntrunc:,} rounds reached `max_turns` and enter at their cut-off length."
                 if ntrunc else "No round reached `max_turns`."))
    page.para(f"Design: a pilot played all 48 combinations on the same {n_pilot:,} games "
              "(one seed) and computed every contrast game by game. Against independent "
              f"runs of the same size, the common games divided the variance of the length "
              f"contrasts by {num(vr_t.min(), 2)} to {num(vr_t.max(), 2)} (median "
              f"{num(vr_t.median(), 2)}) and of the seat 0 contrasts by {num(vr_s.min(), 2)} "
              f"to {num(vr_s.max(), 2)} (median {num(vr_s.median(), 2)}); {below} of the "
              f"{len(vr_t) + len(vr_s)} factors are below 1, where common games make the "
              f"interval wider, and so are {int((vr_main < 1).sum())} of the "
              f"{len(vr_main)} for main effects (median {num(float(np.median(vr_main)), 2)})."
              " Rule sets that share a switch play nearly the same game from "
              "a common deal, so averaging them cancels little noise. The main runs "
              "therefore give each combination its own seed (independent runs; seed "
              f"{ctx.seed} + 1 + the combination's row in `cells.csv`), and the intervals "
              "below combine the 48 independent means.")

    # ---------------------------------------------------------------- tables
    page.heading("Effects")
    rows = []
    for _, r in table.iterrows():
        rows.append({"effect": f"`{r['effect']}`", "kind": r["kind"],
                     "Δ mean turns": fmt(r, "turns", 2),
                     "pilot VR (turns)": f"{num(r['turns_pilot_variance_reduction'], 2)}",
                     "Δ seat 0 win rate": fmt(r, "seat0", 4),
                     "pilot VR (seat 0)": f"{num(r['seat0_pilot_variance_reduction'], 2)}"})
    page.table(pd.DataFrame(rows))
    page.para("Main effect: mean over the other switches of (on − off). Interaction A × B: "
              "mean over the others of (effect of A with B on − effect of A with B off); "
              "for `stacking` the two levels are each compared with `none`. 95% intervals "
              "from the 48 independent runs. Pilot VR: variance of the contrast from "
              "independent runs divided by its variance on common games, in the pilot.")

    page.heading("The 48 combinations", 3)
    rows = []
    for _, r in cells_df.iterrows():
        rows.append({**{f: r[f] for f, _ in FACTORS},
                     "mean turns": ci(r["turns_mean"], r["turns_lo"], r["turns_hi"]),
                     "seat 0 wins": ci(r["seat0"], r["seat0_lo"], r["seat0_hi"], 4),
                     "truncated": f"{r['truncated']:,}", "rules hash": f"`{r['rules_hash']}`",
                     "seed": str(r["seed"])})
    page.table(pd.DataFrame(rows), align=["l"] * 5 + ["r"] * 3 + ["l", "r"])
    page.para(f"{n:,} games each, 4 random players; every rule set is `official` plus the "
              "switches of its row.")

    # ---------------------------------------------------------------- figures
    page.heading("Figures")
    from matplotlib.colors import Normalize, SymLogNorm

    fig, axes = plt.subplots(2, 1, figsize=(8, 12.5), layout="constrained")
    names = [_label(s) for s in SWITCHES]
    for ax, (o, title, dg) in zip(axes, OUTCOMES):
        M = np.full((len(SWITCHES), len(SWITCHES)), np.nan)
        SIG = np.zeros_like(M, dtype=bool)
        for key, (_, r) in zip(ids, table.iterrows()):
            i = SWITCHES.index(key[0])
            j = SWITCHES.index(key[-1])
            M[i, j] = M[j, i] = r[f"{o}_effect"]
            SIG[i, j] = SIG[j, i] = r[f"{o}_lo"] > 0 or r[f"{o}_hi"] < 0
        lim = float(np.nanmax(np.abs(M))) or 1.0
        # length effects span two orders of magnitude: a symmetric log scale keeps the
        # small ones visible
        norm = (SymLogNorm(linthresh=1.0, vmin=-lim, vmax=lim) if o == "turns"
                else Normalize(vmin=-lim, vmax=lim))
        im = ax.imshow(M, cmap="RdBu_r", norm=norm)
        for i in range(len(SWITCHES)):
            for j in range(len(SWITCHES)):
                if np.isnan(M[i, j]):
                    continue
                txt = f"{M[i, j]:+.{dg if o == 'seat0' else 1}f}"
                dark = abs(norm(M[i, j]) - 0.5) > 0.35
                ax.text(j, i, txt if SIG[i, j] else f"({txt})", ha="center", va="center",
                        fontsize=8, fontweight="bold" if SIG[i, j] else "normal",
                        color="white" if dark else ("black" if SIG[i, j] else "dimgrey"))
        ax.set_xticks(range(len(names)), names, rotation=30, ha="right")
        ax.set_yticks(range(len(names)), names)
        ax.grid(False)
        ax.set_title(f"Δ {title}: main effects (diagonal) and interactions")
        fig.colorbar(im, ax=ax, shrink=0.8)
    page.figure(fig, "heatmap", "Main effects (diagonal) and two-way interactions "
                "(off the diagonal) on mean turns and on seat 0's win rate; values in "
                "parentheses have a 95% interval that includes 0.")

    fig, axes = plt.subplots(1, 2, figsize=(11, 3.6), sharey=True)
    y = np.arange(len(mains))
    for ax, (o, title, _) in zip(axes, OUTCOMES):
        est = mains[f"{o}_effect"].to_numpy()
        lo, hi = mains[f"{o}_lo"].to_numpy(), mains[f"{o}_hi"].to_numpy()
        ax.errorbar(est, y, xerr=[est - lo, hi - est], fmt="o", capsize=3)
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_title(f"main effect on {title}")
    axes[0].set_yticks(y, mains["effect"])
    axes[0].invert_yaxis()
    page.figure(fig, "main-effects", "Main effects with 95% intervals.")

    page.data(table, "effects", "Every effect with its interval, and the pilot's estimate "
              "and variance reduction")
    page.data(cells_df, "cells", "Mean turns and seat 0's win rate of each of the 48 "
              "combinations, with its rules hash and seed")
    ctx.provenance(page, table=False, notes=[
        "The 48 rule sets are `official` plus the switches of each combination "
        "(`official+stacking=...,seven_zero=...,jump_in=...,draw_rule=...,"
        f"wd4_restriction=...`), with 4 random players: main runs of {n:,} games on seeds "
        f"{ctx.seed + 1} to {ctx.seed + len(cs)} (hashes and seeds in `cells.csv`), pilot "
        f"runs of {n_pilot:,} games on seed {ctx.seed}."])
    return page


def _cell_text(r) -> str:
    on = [f"{f}={r[f]}" for f, lv in FACTORS if r[f] != _value(lv[0])]
    name = "`official+" + ",".join(on) + "`" if on else "`official`"
    return f"{name} ({ci(r['turns_mean'], r['turns_lo'], r['turns_hi'])} turns)"


if __name__ == "__main__":
    main(NAME, build, __doc__)
