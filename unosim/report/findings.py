"""Plain-language findings: what a rule set changes against a baseline, in one sentence
per metric, with the numbers behind each sentence kept as data.

Every arm is compared with the baseline game by game (both played on the same seeds,
:mod:`unosim.analysis.compare`). For each metric a :class:`Finding` holds the two means, the
absolute difference with its 95% interval (Student t on the per-game differences;
Newcombe's paired interval for rates, :mod:`unosim.stats`) and the relative difference
``mean_b / mean_a - 1`` with a delta-method interval (the ratio of two paired means:
``se = sd(b - R a) / (sqrt(n) mean_a)``, a normal interval). A difference whose
absolute interval covers 0 is reported as "no detectable difference"; one too small to
notice (under 1% of the baseline, or 0.5 percentage points of a rate:
:data:`unosim.game.names.NOTICE`) is said to make "no practical difference".

One convention for percent: rates (seat 0's wins, truncated rounds) differ in
percentage points ("pp"), never in percent of themselves; lengths, points, cards and
penalties differ in relative percent of the baseline's mean. :func:`describe` says the
same of a rule set alone (means with intervals, no comparison).

Every number in a sentence is one of the finding's formatted strings
(:attr:`Finding.shown`), and :func:`findings_table` shows the same strings, so a
reader (or a test) can find each number of the text in the table.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypedDict

import numpy as np
import pandas as pd
from scipy.stats import norm

from ..game.names import noticeable
from ..stats import mean_ci, paired_diff, paired_rate_diff, quantile_ci, win_rates
from . import escape as esc
from .page import num

__all__ = [
    "METRICS",
    "Metric",
    "Finding",
    "compare_metric",
    "findings",
    "findings_table",
    "findings_data",
    "measures",
    "describe",
]


@dataclass(frozen=True)
class Metric:
    """A per-round quantity compared between rule sets."""

    key: str
    label: str  # a noun phrase, for tables
    unit: str  # of the means and differences ("turns", "cards"; "%" for rates)
    column: str
    rate: bool = False  # a 0/1 outcome: shown in % and percentage points
    more: str = "more"
    less: str = "fewer"


METRICS: dict[str, Metric] = {
    m.key: m
    for m in (
        Metric("turns", "round length", "turns", "turns", more="longer", less="shorter"),
        Metric("seat0", "seat 0 win rate", "%", "winner", rate=True),
        Metric("points", "winner's points per round", "points", "points"),
        Metric("cards_drawn", "cards drawn per round", "cards", "cards_drawn"),
        Metric(
            "max_stack",
            "largest pending draw penalty",
            "cards",
            "max_stack",
            more="larger",
            less="smaller",
        ),
        Metric("truncated", "rounds cut at max_turns", "%", "truncated", rate=True),
    )
}
DEFAULT_METRICS = ("turns", "seat0", "points", "cards_drawn", "max_stack")


def _digits(half: float, scale: float = 1.0) -> int:
    """Decimals that show an interval of half-width ``half`` (times ``scale``) to its
    first significant digit: 0 to 3."""
    h = abs(half * scale)
    if not math.isfinite(h) or h == 0:
        return 1
    return int(min(3, max(0, -math.floor(math.log10(h)))))


@dataclass
class Finding:
    """One metric of one rule set against the baseline, at one player count."""

    metric: str
    rules: str
    baseline: str
    players: int
    n: int
    value: float  # the rule set's mean (a rate for rate metrics)
    base_value: float
    diff: float  # value - base_value
    lo: float
    hi: float
    rel: float  # value / base_value - 1 (nan when the baseline mean is 0)
    rel_lo: float
    rel_hi: float
    identical: bool = False  # the same value in every paired round
    shown: dict[str, str] = field(default_factory=dict)  # the formatted numbers
    text: str = ""

    @property
    def detectable(self) -> bool:
        """Is 0 outside the interval of the difference?"""
        return self.lo > 0 or self.hi < 0


class Comparison(TypedDict):
    """What :func:`compare_metric` returns."""

    n: int
    value_a: float
    value_b: float
    diff: float
    lo: float
    hi: float
    rel: float
    rel_lo: float
    rel_hi: float
    identical: bool


def compare_metric(
    a: pd.DataFrame, b: pd.DataFrame, key: str, confidence: float = 0.95
) -> Comparison:
    """The paired comparison of metric ``key`` between round frames ``a`` (baseline) and
    ``b``: ``n``, ``value_a``, ``value_b``, ``diff``, ``lo``, ``hi``, ``rel``,
    ``rel_lo``, ``rel_hi``."""
    m = METRICS[key]
    if key == "seat0":
        x = (a["winner"].to_numpy() == 0).astype(np.float64)
        y = (b["winner"].to_numpy() == 0).astype(np.float64)
    else:
        x = a[m.column].to_numpy(np.float64)
        y = b[m.column].to_numpy(np.float64)
    r = paired_rate_diff(x, y, confidence) if m.rate else paired_diff(x, y, confidence)
    n = x.size
    ma, mb = float(x.mean()), float(y.mean())
    if ma != 0 and n > 1:
        ratio = mb / ma
        se = float(np.std(y - ratio * x, ddof=1)) / (math.sqrt(n) * abs(ma))
        z = float(norm.ppf(0.5 + confidence / 2.0))
        rel, rel_lo, rel_hi = ratio - 1.0, ratio - 1.0 - z * se, ratio - 1.0 + z * se
    else:
        rel = rel_lo = rel_hi = math.nan
    return {
        "n": int(n),
        "value_a": ma,
        "value_b": mb,
        "diff": float(r["diff"]),
        "lo": float(r["lo"]),
        "hi": float(r["hi"]),
        "rel": rel,
        "rel_lo": rel_lo,
        "rel_hi": rel_hi,
        "identical": bool(np.array_equal(x, y)),
    }


def _format(f: Finding, m: Metric) -> dict[str, str]:
    """The numbers of a finding as shown in its sentence and in the table."""
    scale = 100.0 if m.rate else 1.0
    half = max(f.diff - f.lo, f.hi - f.diff)
    d = 1 if f.identical else _digits(half, scale)
    while d < 3 and any(x != 0 and round(x * scale, d) == 0 for x in (f.lo, f.hi)):
        d += 1  # a bound is not 0: show it is not
    dv = max(d, 1)
    out = {
        "value": num(f.value * scale, dv),
        "base_value": num(f.base_value * scale, dv),
        "diff": num(f.diff * scale, d, sign=True),
        "lo": num(f.lo * scale, d, sign=True),
        "hi": num(f.hi * scale, d, sign=True),
    }
    # in words ("0.9 percentage points [0.4, 1.4] more"): sizes, the nearer bound first
    near, far = sorted((abs(f.lo), abs(f.hi)))
    out.update(
        diff_size=num(abs(f.diff) * scale, d),
        diff_size_lo=num(near * scale, d),
        diff_size_hi=num(far * scale, d),
    )
    if math.isfinite(f.rel):
        rd = _digits(max(f.rel - f.rel_lo, f.rel_hi - f.rel), 100.0)
        out.update(
            rel=num(f.rel * 100, rd, sign=True),
            rel_lo=num(f.rel_lo * 100, rd, sign=True),
            rel_hi=num(f.rel_hi * 100, rd, sign=True),
        )
        # in words ("2.7% [2.4, 3.0] shorter"): sizes, the nearer bound first
        lo, hi = sorted((abs(f.rel_lo), abs(f.rel_hi)))
        out.update(
            rel_size=num(abs(f.rel) * 100, rd),
            rel_size_lo=num(lo * 100, rd),
            rel_size_hi=num(hi * 100, rd),
        )
    return out


def _sentence(f: Finding, m: Metric, show: Callable[[str], str] = esc.code) -> str:
    s = f.shown
    b, a = show(f.rules), show(f.baseline)
    unit = "%" if m.rate else f" {m.unit}"
    d_unit = " percentage points" if m.rate else f" {m.unit}"
    diff = f"{s['diff']}{d_unit} [{s['lo']}, {s['hi']}]"
    if f.identical:
        return (
            f"{m.label.capitalize()}: no difference at all between {b} and {a}: the "
            f"same in every round ({s['value']}{unit})."
        )
    if not f.detectable:
        return (
            f"{m.label.capitalize()}: no detectable difference between {b} and {a} "
            f"({s['value']}{unit} and {s['base_value']}{unit}; difference {diff})."
        )
    word = m.more if f.diff > 0 else m.less
    if m.rate:  # a rate: the difference in percentage points, never relative
        rel = (
            f"{s['diff_size']} percentage points [{s['diff_size_lo']}, "
            f"{s['diff_size_hi']}] {word} than {a}'s {s['base_value']}%"
        )
    elif "rel" in s:
        rel = (
            f"{s['rel_size']}% [{s['rel_size_lo']}, {s['rel_size_hi']}] {word} than "
            f"{a}'s {s['base_value']}{unit}"
        )
    else:
        rel = f"against {a}'s {s['base_value']}{unit}"
    head = {
        "turns": f"Rounds last {s['value']} turns under {b}",
        "seat0": f"Seat 0 (the first to play) wins {s['value']}% of rounds under {b}",
        "points": f"The winner scores {s['value']} points per round under {b}",
        "cards_drawn": f"Players draw {s['value']} cards per round in all under {b}",
        "max_stack": f"The largest pending draw penalty of a round averages {s['value']} "
        f"cards under {b}",
        "truncated": f"{s['value']}% of rounds reach max_turns under {b}",
    }[m.key]
    # too small to notice (unosim.game.names.NOTICE, the atlas's thresholds): said so
    size = 100 * f.diff if m.rate else 100 * f.rel
    small = math.isfinite(size) and not noticeable(size, rate=m.rate)
    return (
        f"{head}, {rel}"
        + ("" if m.rate else f" ({diff})")
        + (", which makes no practical difference." if small else ".")
    )


def findings(
    frames: Sequence[pd.DataFrame],
    names: Sequence[str],
    players: int,
    metrics: Sequence[str] = DEFAULT_METRICS,
    confidence: float = 0.95,
    show: Callable[[str], str] = esc.code,
) -> list[Finding]:
    """Every rule set against the first (the baseline), one finding per metric.

    ``frames`` are round frames played on the same games (``unosim.analysis.compare.run_arms``),
    ``names`` their rule-set names, written into the sentences by ``show`` (a code span
    by default; :func:`unosim.report.escape.md_text` for display names). The
    ``truncated`` metric is added when any arm has a truncated round.
    """
    if len(frames) != len(names) or len(frames) < 2:
        raise ValueError("findings need two or more frames, one name each")
    keys = list(metrics)
    if "truncated" not in keys and any(f["truncated"].any() for f in frames):
        keys.append("truncated")
    out = []
    for frame, name in zip(frames[1:], names[1:]):
        for key in keys:
            r = compare_metric(frames[0], frame, key, confidence)
            f = Finding(
                key,
                name,
                names[0],
                int(players),
                r["n"],
                r["value_b"],
                r["value_a"],
                r["diff"],
                r["lo"],
                r["hi"],
                r["rel"],
                r["rel_lo"],
                r["rel_hi"],
                r["identical"],
            )
            f.shown = _format(f, METRICS[key])
            f.text = _sentence(f, METRICS[key], show)
            out.append(f)
    return out


def findings_table(fs: Sequence[Finding], show: Callable[[str], str] = esc.code) -> pd.DataFrame:
    """The findings as a table of the strings their sentences show (rates: their
    difference in percentage points only, no relative change)."""
    rows = []
    for f in fs:
        m = METRICS[f.metric]
        s = f.shown
        unit = "%" if m.rate else m.unit
        rows.append(
            {
                "players": str(f.players),
                "rule set": show(f.rules),
                "metric": m.label,
                "unit": unit,
                "baseline": s["base_value"],
                "rule set value": s["value"],
                "difference [95%]": f"{s['diff']} [{s['lo']}, {s['hi']}]"
                + (" pp" if m.rate else ""),
                "relative [95%]": (
                    f"{s['rel']}% [{s['rel_lo']}, {s['rel_hi']}]"
                    if "rel" in s and not m.rate
                    else ("n/a (a rate: pp)" if m.rate else "n/a")
                ),
                "detectable": "yes" if f.detectable else ("no: identical" if f.identical else "no"),
            }
        )
    return pd.DataFrame(rows)


def findings_data(fs: Sequence[Finding]) -> pd.DataFrame:
    """The findings' numbers at full precision (for a CSV)."""
    return pd.DataFrame(
        [
            {
                "players": f.players,
                "rules": f.rules,
                "baseline": f.baseline,
                "metric": f.metric,
                "n": f.n,
                "value": f.value,
                "baseline_value": f.base_value,
                "diff": f.diff,
                "lo": f.lo,
                "hi": f.hi,
                "rel": f.rel,
                "rel_lo": f.rel_lo,
                "rel_hi": f.rel_hi,
                "detectable": f.detectable,
                "identical": f.identical,
            }
            for f in fs
        ]
    )


# ----------------------------------------------------------------- a rule set alone

# decimals of each measure as a page shows it (seat 0's rate in %)
DIGITS = {"turns": 2, "seat0": 2, "points": 2, "cards_drawn": 2, "max_stack": 3}


def measures(df: pd.DataFrame, players: int) -> dict[str, tuple[float, float, float]]:
    """The means of a frame of rounds with their 95% intervals, ``(est, lo, hi)`` per
    metric of :data:`DIGITS` (seat 0's win rate as a fraction, Wilson interval), and
    ``median_turns`` (its interval from order statistics)."""
    turns = df["turns"].to_numpy(np.float64)
    wr = win_rates(df["winner"].to_numpy(), players)
    rate, lo, hi = (wr[c].to_numpy(np.float64)[0] for c in ("rate", "lo", "hi"))  # seat 0
    return {
        "turns": mean_ci(turns),
        "seat0": (float(rate), float(lo), float(hi)),
        "points": mean_ci(df["points"].to_numpy(np.float64)),
        "cards_drawn": mean_ci(df["cards_drawn"].to_numpy(np.float64)),
        "max_stack": mean_ci(df["max_stack"].to_numpy(np.float64)),
        "median_turns": quantile_ci(turns, 0.5),
    }


def shown_ci(m: dict, key: str, unit: str = "") -> str:
    """``est [lo, hi]`` of measure ``key`` as pages show it (seat 0's rate in %), with
    ``unit`` after the estimate."""
    scale = 100.0 if key == "seat0" else 1.0
    e, lo, hi = (x * scale for x in m[key])
    d = DIGITS[key]
    return f"{num(e, d)}{unit} [{num(lo, d)}, {num(hi, d)}]"


def describe(
    df: pd.DataFrame, name: str, players: int, show: Callable[[str], str] = esc.code
) -> list[str]:
    """Plain sentences about one rule set alone (no baseline): round length, seat 0's
    wins against the fair share, points, cards drawn, the largest penalty, and
    truncated rounds if any; every number is one :func:`shown_ci` of :func:`measures`,
    as the page's table of the rule set shows it."""
    m = measures(df, players)
    b = show(name)
    fair = num(100.0 / players, 1)
    out = [
        f"Rounds last {shown_ci(m, 'turns')} turns on average under {b} with {players} "
        f"players (median {num(m['median_turns'][0], 0)}).",
        f"Seat 0 (the first to play) wins {shown_ci(m, 'seat0', '%')} of rounds; the fair "
        f"share is {fair}%.",
        f"The winner scores {shown_ci(m, 'points')} points per round.",
        f"Players draw {shown_ci(m, 'cards_drawn')} cards per round in all.",
        f"The largest pending draw penalty of a round averages {shown_ci(m, 'max_stack')} cards.",
    ]
    trunc = int(df["truncated"].sum())
    if trunc:
        out.append(f"{trunc:,} of {len(df):,} rounds reached max_turns (no winner).")
    return out
