"""Paired comparisons of rule sets under common random numbers.

Every rule set is played on the same seeds: game ``i`` of each arm is keyed by
``(seed, i)``, so with the same deck it starts from the same deal, and the kernel's
random draws are keyed by purpose (the deal, table events, each seat's decisions), so
the arms' streams stay aligned until the rules make the games diverge. Differences are
then computed game by game (``B - A``), which removes most of the game-to-game noise:
the *variance reduction factor* is the variance the difference would have had from two
independent runs of the same size divided by the variance it has from the pairs.

Rule-set specs (the ``unosim compare`` arguments)
--------------------------------------------------
``BASE[+NAME=VALUE[,NAME=VALUE...]]``: ``BASE`` is a preset name or a TOML rule file;
the switches after the first ``+`` are those of ``--house`` (RULES.md names, and
``deck.KEY=N`` for a deck count; ``,`` or ``+`` between them). Examples: ``official``,
``progressive``, ``official+stacking=same,jump_in=true``, ``official+deck.draw_two=3``,
``examples/double-deck.toml+seven_zero=true``.

Metrics (per arm against the first)
-----------------------------------
``mean_turns`` and ``mean_points`` (t interval on the per-game differences),
``median_turns`` (Poisson bootstrap of the pairs), ``seat0_win_rate`` and
``truncation_rate`` (Newcombe's interval for paired proportions). Every game counts:
a truncated round enters with its ``turns`` (``max_turns``) and 0 points, and the
truncation rate is reported beside them.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..game.names import display_ruleset
from ..game.rules import PRESETS, RuleError, RuleSet, is_file, resolve
from ..stats import paired_diff, paired_rate_diff

__all__ = [
    "parse_spec",
    "paired_metrics",
    "paired_quantile_diff_int",
    "run_arms",
    "compare",
    "Comparison",
    "METRICS",
    "COLUMNS",
]

# columns of a round frame that the comparison needs, with compact dtypes
COLUMNS = ("game", "turns", "winner", "points", "truncated")

METRICS: dict[str, str] = {  # name -> label
    "mean_turns": "mean turns",
    "median_turns": "median turns",
    "seat0_win_rate": "seat 0 win rate",
    "mean_points": "mean points",
    "truncation_rate": "truncation rate",
}

MAX_BOOT = 100_000  # bootstrap replicates: far past what an interval's digits need
MAX_ROWS = 1 << 28  # games x rule sets held in memory (about 4 GiB of columns)


def check_size(arms: int, n_games) -> None:
    """``ValueError`` if ``arms`` rule sets of ``n_games`` games would not fit in memory
    (every game of every arm is kept for the paired differences)."""
    if isinstance(n_games, int) and n_games * arms > MAX_ROWS:
        raise ValueError(
            f"games: {arms} rule sets x {n_games:,} games are more than the "
            f"{MAX_ROWS:,} a comparison holds in memory"
        )


_SPEC = re.compile(r"^(?P<base>.+?)\+(?P<house>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)?=.*)$")


# --------------------------------------------------------------------------- specs


def parse_spec(spec: str | RuleSet) -> RuleSet:
    """A RuleSet from ``BASE[+NAME=VALUE,...]`` (see the module docstring).

    The whole text is tried first as a preset or an existing file, so a file name that
    contains ``+`` still works. Raises :class:`unosim.game.rules.RuleError` (a ValueError)
    with a one-line message naming what is wrong.
    """
    if isinstance(spec, RuleSet):
        return spec
    text = str(spec).strip()
    if not text:
        raise RuleError("empty rule-set spec")
    if text in PRESETS or is_file(text):
        return resolve(text)
    m = _SPEC.match(text)
    if m is None:
        return resolve(text)  # the usual "unknown preset" message
    house = m["house"].replace("+", ",")
    return resolve(m["base"], house)


# ------------------------------------------------------------- paired median (fast)


def _lerp(a: np.ndarray, b: np.ndarray, t: np.ndarray) -> np.ndarray:
    """numpy's linear interpolation, the same arithmetic as ``np.quantile``."""
    d = b - a
    return np.where(t >= 0.5, b - d * (1.0 - t), a + d * t)


def _quantile_from_counts(values: np.ndarray, counts: np.ndarray, q: float) -> np.ndarray:
    """``np.quantile`` (linear) of multisets given as counts of sorted ``values``.

    Parameters
    ----------
    values : ndarray, shape (k,)
        Sorted distinct values.
    counts : ndarray, shape (r, k)
        Multiplicities, one multiset per row (each row must hold at least one value).

    Returns
    -------
    ndarray of float64, shape (r,)
    """
    cum = np.cumsum(counts, axis=1)
    total = cum[:, -1]
    h = (total - 1) * q
    k0 = np.floor(h)
    k1 = np.minimum(k0 + 1, total - 1)
    # the j-th order statistic (0-based) is the first value whose cumulative count > j
    i0 = (cum <= k0[:, None]).sum(axis=1)
    i1 = (cum <= k1[:, None]).sum(axis=1)
    v = values.astype(np.float64)
    return _lerp(v[i0], v[i1], h - k0)


def paired_quantile_diff_int(
    a, b, q: float = 0.5, n_boot: int = 1000, seed: int = 0, confidence: float = 0.95
) -> dict[str, float]:
    """``Q_q(b) - Q_q(a)`` of paired integer samples with a Poisson-bootstrap interval.

    The same estimate as :func:`unosim.stats.paired_quantile_diff` (``np.quantile``,
    linear), but fast for millions of games: the pairs are grouped into distinct
    ``(a, b)`` values, and each bootstrap replicate gives a group of ``m`` pairs a
    ``Poisson(m)`` weight (the Poisson bootstrap: every pair weighted ``Poisson(1)``,
    pairs kept together). Cost grows with the number of distinct pairs, not of games.

    Parameters
    ----------
    a, b : array_like of int, shape (n,)
        Outcomes of the two arms; ``a[i]`` and ``b[i]`` share game seed ``i``.
    q : float, default 0.5
        Quantile level.
    n_boot : int, default 1000
        Bootstrap replicates.
    seed : int, default 0
        Seed of the ``numpy.random.Generator``; the result is deterministic.
    confidence : float, default 0.95

    Returns
    -------
    dict
        ``n``, ``q``, ``quantile_a``, ``quantile_b``, ``diff``, ``lo``, ``hi``
        (percentile interval of the replicated differences), ``se_paired`` (their
        standard deviation), ``se_independent`` (``sqrt(var(Q_a*) + var(Q_b*))``, the
        replicates' marginal variances, i.e. what two independent runs would give),
        ``variance_reduction`` (``se_independent**2 / se_paired**2``; inf when only the
        paired variance is 0, nan when both are), ``n_boot``, ``seed``, ``confidence``.
    """
    a_arr, b_arr = np.asarray(a), np.asarray(b)
    if a_arr.ndim != 1 or a_arr.shape != b_arr.shape or a_arr.size == 0:
        raise ValueError("a and b must be non-empty 1-D arrays of the same length")
    for arr in (a_arr, b_arr):
        if not np.issubdtype(arr.dtype, np.integer) and not np.all(arr == np.round(arr)):
            raise ValueError("paired_quantile_diff_int needs integer values")
    if not 0.0 < q < 1.0 or not 0.0 < confidence < 1.0 or not 2 <= n_boot <= MAX_BOOT:
        raise ValueError(f"need 0 < q < 1, 0 < confidence < 1 and 2 <= n_boot <= {MAX_BOOT:,}")
    a_arr, b_arr = a_arr.astype(np.int64), b_arr.astype(np.int64)
    n = a_arr.size
    q_a, q_b = float(np.quantile(a_arr, q)), float(np.quantile(b_arr, q))

    va, ia = np.unique(a_arr, return_inverse=True)
    vb, ib = np.unique(b_arr, return_inverse=True)
    pair = ia.astype(np.int64) * vb.size + ib
    upair, mult = np.unique(pair, return_counts=True)
    pa, pb = upair // vb.size, upair % vb.size  # level of a and of b of each distinct pair
    k = upair.size

    rng = np.random.default_rng(seed)
    qa_star = np.empty(n_boot)
    qb_star = np.empty(n_boot)
    batch = max(1, 4_000_000 // max(k, 1))
    done = 0
    while done < n_boot:
        r = min(batch, n_boot - done)
        w = rng.poisson(mult, size=(r, k)).astype(np.float64)
        ca = np.zeros((r, va.size))
        cb = np.zeros((r, vb.size))
        for j in range(r):  # marginal counts of each replicate
            ca[j] = np.bincount(pa, weights=w[j], minlength=va.size)
            cb[j] = np.bincount(pb, weights=w[j], minlength=vb.size)
        empty = ca.sum(axis=1) == 0  # no pair drawn at all (n tiny): draw again
        if empty.any():
            ca, cb = ca[~empty], cb[~empty]
        m = ca.shape[0]
        qa_star[done : done + m] = _quantile_from_counts(va, ca, q)
        qb_star[done : done + m] = _quantile_from_counts(vb, cb, q)
        done += m
    d = qb_star - qa_star
    alpha = 1.0 - confidence
    lo, hi = np.quantile(d, [alpha / 2.0, 1.0 - alpha / 2.0])
    paired_var = float(np.var(d, ddof=1))
    indep_var = float(np.var(qa_star, ddof=1) + np.var(qb_star, ddof=1))
    if paired_var > 0:
        ratio = indep_var / paired_var
    else:
        ratio = math.inf if indep_var > 0 else math.nan
    return {
        "n": int(n),
        "q": float(q),
        "quantile_a": q_a,
        "quantile_b": q_b,
        "diff": q_b - q_a,
        "lo": float(lo),
        "hi": float(hi),
        "se_paired": math.sqrt(paired_var),
        "se_independent": math.sqrt(indep_var),
        "variance_reduction": ratio,
        "n_boot": int(n_boot),
        "seed": int(seed),
        "confidence": float(confidence),
    }


# ------------------------------------------------------------------ paired metrics


def _check_paired(a: pd.DataFrame, b: pd.DataFrame) -> None:
    if len(a) != len(b):
        raise ValueError(f"paired frames differ in length: {len(a)} vs {len(b)}")
    if "game" in a.columns and "game" in b.columns:
        if not np.array_equal(a["game"].to_numpy(), b["game"].to_numpy()):
            raise ValueError("paired frames hold different game indices")
    ma, mb = a.attrs.get("manifest"), b.attrs.get("manifest")
    if ma and mb:
        for key in ("seed", "players", "first_game"):
            if key in ma and key in mb and ma[key] != mb[key]:
                raise ValueError(f"paired frames differ in {key}: {ma[key]} vs {mb[key]}")


def paired_metrics(
    a: pd.DataFrame,
    b: pd.DataFrame,
    confidence: float = 0.95,
    n_boot: int = 1000,
    boot_seed: int = 0,
    metrics: Sequence[str] = tuple(METRICS),
) -> pd.DataFrame:
    """The paired differences ``b - a`` of two round frames played on the same seeds.

    Parameters
    ----------
    a, b : pandas.DataFrame, shape (n_games, ...)
        Round frames (``unosim.simulate``) with the columns ``turns``, ``winner``,
        ``points``, ``truncated`` (and ``game``, checked equal when present).
    confidence : float, default 0.95
    n_boot, boot_seed : bootstrap replicates and seed for ``median_turns``.
    metrics : names from :data:`METRICS`.

    Returns
    -------
    pandas.DataFrame, one row per metric
        ``metric``, ``label``, ``n``, ``value_a``, ``value_b``, ``diff``, ``lo``, ``hi``,
        ``se_paired``, ``se_independent``, ``variance_reduction`` (float64 but ``n``).
    """
    _check_paired(a, b)
    rows = []
    for name in metrics:
        if name == "mean_turns":
            r = paired_diff(
                a["turns"].to_numpy(np.float64), b["turns"].to_numpy(np.float64), confidence
            )
            va, vb = r["mean_a"], r["mean_b"]
        elif name == "mean_points":
            r = paired_diff(
                a["points"].to_numpy(np.float64), b["points"].to_numpy(np.float64), confidence
            )
            va, vb = r["mean_a"], r["mean_b"]
        elif name == "median_turns":
            r = paired_quantile_diff_int(
                a["turns"].to_numpy(), b["turns"].to_numpy(), 0.5, n_boot, boot_seed, confidence
            )
            va, vb = r["quantile_a"], r["quantile_b"]
        elif name == "seat0_win_rate":
            r = paired_rate_diff(
                a["winner"].to_numpy() == 0, b["winner"].to_numpy() == 0, confidence
            )
            va, vb = r["mean_a"], r["mean_b"]
        elif name == "truncation_rate":
            r = paired_rate_diff(
                a["truncated"].to_numpy(bool), b["truncated"].to_numpy(bool), confidence
            )
            va, vb = r["mean_a"], r["mean_b"]
        else:
            raise ValueError(f"unknown metric {name!r} (known: {', '.join(METRICS)})")
        rows.append(
            {
                "metric": name,
                "label": METRICS[name],
                "n": int(r["n"]),
                "value_a": float(va),
                "value_b": float(vb),
                "diff": float(r["diff"]),
                "lo": float(r["lo"]),
                "hi": float(r["hi"]),
                "se_paired": float(r["se_paired"]),
                "se_independent": float(r["se_independent"]),
                "variance_reduction": float(r["variance_reduction"]),
            }
        )
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------- running arms


def run_arms(
    specs: Sequence[str | RuleSet],
    n_players: int = 4,
    n_games: int = 100_000,
    seed: int = 0,
    strategies: str = "random",
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    columns: Sequence[str] = COLUMNS,
    house: str | None = None,
) -> list[pd.DataFrame]:
    """Play every rule set (with the ``house`` switches, if any) on games
    ``0 .. n_games - 1`` of ``seed``.

    Every spec is validated (rules, players, strategies) before any game is played.
    Returns one frame per spec with the ``columns`` and ``attrs['manifest']``.
    """
    from ..sim.simulate import iter_frames, make_job

    if not specs:
        raise ValueError("no rule set to play")
    check_size(len(specs), n_games)
    jobs = [make_job(parse_spec(s), n_games, n_players, strategies, seed, house) for s in specs]
    frames = []
    for job in jobs:
        parts = []
        for f in iter_frames(job, threads):
            parts.append(f[list(columns)])
            if progress is not None:
                progress(len(f))
        df = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
        df.attrs["manifest"] = job.manifest()
        frames.append(df)
    return frames


@dataclass
class Comparison:
    """Every arm against the first: ``table`` has one row per (arm, metric)."""

    rules: list[RuleSet]
    n_players: int
    n_games: int
    seed: int
    strategies: str
    table: pd.DataFrame
    seconds: float = 0.0
    manifests: list[dict] = field(default_factory=list)

    def format(self) -> str:
        """The comparison as plain text (what ``unosim compare`` prints)."""
        letters = [chr(ord("A") + i) if i < 26 else f"#{i}" for i in range(len(self.rules))]
        shown = [display_ruleset(r) for r in self.rules]  # words for the reader
        width = max(len(x) for x in shown)
        lines = [
            f"unosim compare: {self.n_players} players, strategies {self.strategies}, "
            f"{self.n_games:,} games per rule set, seed {self.seed}",
            "common random numbers: game i of every rule set is keyed by (seed, i); "
            "with the same deck it starts from the same deal",
        ]
        base_deck = self.rules[0].deck
        for letter, label, rs in zip(letters, shown, self.rules):
            note = "" if rs.deck == base_deck else "  (another deck: same seeds, other deals)"
            lines.append(  # the rule syntax too: what a user types to get it again
                f"  {letter}  {label:<{width}}  {rs.name}: rules {rs.hash()}, "
                f"{rs.deck_size()} cards{note}"
            )
        if self.seconds:
            games = self.n_games * len(self.rules)
            lines.append(f"simulated {games:,} games in {self.seconds:.1f} s")
        lines.append(
            "differences B - A with 95% intervals from the pairs; variance "
            "reduction = var(independent runs) / var(paired)"
        )
        for i in range(1, len(self.rules)):
            t = self.table[self.table["arm"] == i]
            lines.append("")
            lines.append(f"{letters[i]} {shown[i]}  -  A {shown[0]}")
            lines.append(
                f"  {'':17s}{'A':>10s}{letters[i]:>10s}{'difference':>12s}"
                f"  {'95% interval':<24s}{'var. reduction':>15s}"
            )
            for row in t.itertuples():
                lines.append("  " + _format_row(row))
        return "\n".join(lines)


def _num(x: float, digits: int) -> str:
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if math.isnan(x):
        return "nan"
    return f"{x:.{digits}f}"


def _format_row(row) -> str:
    digits = {
        "mean_turns": 2,
        "median_turns": 1,
        "seat0_win_rate": 4,
        "mean_points": 2,
        "truncation_rate": 6,
    }.get(row.metric, 4)
    vr = row.variance_reduction
    vr_txt = "n/a (no variance)" if math.isnan(vr) else ("inf" if math.isinf(vr) else f"{vr:.2f}x")
    ci = f"[{_num(row.lo, digits)}, {_num(row.hi, digits)}]"
    return (
        f"{row.label:<17s}{_num(row.value_a, digits):>10s}{_num(row.value_b, digits):>10s}"
        f"{_num(row.diff, digits):>12s}  {ci:<24s}{vr_txt:>15s}"
    )


def compare(
    specs: Sequence[str | RuleSet],
    n_players: int = 4,
    n_games: int = 100_000,
    seed: int = 0,
    strategies: str = "random",
    threads: int | None = None,
    confidence: float = 0.95,
    n_boot: int = 1000,
    progress: Callable[[int], None] | None = None,
) -> Comparison:
    """Play every rule set on the same seeds and compare each with the first.

    Parameters
    ----------
    specs : two or more rule-set specs (:func:`parse_spec`) or RuleSets.
    n_players, n_games, seed, strategies, threads : as :func:`unosim.simulate`.
    confidence : two-sided level of every interval.
    n_boot : bootstrap replicates of the median difference.
    progress : called with the number of games finished after each block.

    Returns
    -------
    Comparison
        ``table``: columns ``arm`` (1.. index into ``rules``), ``rules`` (its name),
        then those of :func:`paired_metrics`.
    """
    rules = [parse_spec(s) for s in specs]
    t0 = time.perf_counter()
    if len(rules) < 2:
        raise ValueError("compare needs at least two rule sets")
    frames = run_arms(rules, n_players, n_games, seed, strategies, threads, progress)
    seconds = time.perf_counter() - t0
    parts = []
    for i in range(1, len(frames)):
        t = paired_metrics(frames[0], frames[i], confidence, n_boot)
        t.insert(0, "rules", rules[i].name)
        t.insert(0, "arm", i)
        parts.append(t)
    return Comparison(
        rules,
        int(n_players),
        int(n_games),
        int(seed),
        strategies,
        pd.concat(parts, ignore_index=True),
        seconds,
        [f.attrs["manifest"] for f in frames],
    )
