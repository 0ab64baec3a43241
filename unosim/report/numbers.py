"""The numbers a report page quotes: rates, means and quantiles with their 95% intervals,
and how they are written (:func:`num`, :func:`ci`, :func:`pct`).

Triples are ``(estimate, lo, hi)``.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..stats import mean_ci, quantile_ci, wilson_ci

__all__ = ["num", "ci", "pm", "pct", "rel", "rate", "describe", "leaders", "half"]


def num(x: float, digits: int = 2, sign: bool = False) -> str:
    """``x`` with ``digits`` decimals (thousands separated); infinities as ``∞``."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    if float(f"{x:.{digits}f}") == 0.0:
        x = 0.0  # no "−0.00"
    text = f"{x:+,.{digits}f}" if sign else f"{x:,.{digits}f}"
    return text.replace("-", "−")


def ci(est: float, lo: float, hi: float, digits: int = 2, sign: bool = False) -> str:
    """``est [lo, hi]``: an estimate and its interval."""
    return f"{num(est, digits, sign)} [{num(lo, digits, sign)}, {num(hi, digits, sign)}]"


def pm(half: float, digits: int = 2) -> str:
    """``±half``: the half-width of an interval."""
    return "±" + num(half, digits)


def pct(x: float, digits: int = 1) -> str:
    """``x`` as a percentage."""
    return num(100.0 * x, digits) + "%"


def rel(diff: float, base: float) -> float:
    """A difference as a percentage of a base value."""
    return 100.0 * diff / base if base else math.nan


def rate(k: int, n: int) -> tuple[float, float, float]:
    """``(k / n, lo, hi)`` with the Wilson interval."""
    lo, hi = wilson_ci(int(k), int(n))
    return (k / n if n else math.nan, lo, hi)


def describe(df: pd.DataFrame, n_players: int) -> dict:
    """Headline statistics of a frame of rounds, each with its 95% interval.

    Means and quantiles of ``turns`` and ``cards_played`` count every round (a truncated
    one at its censored length, reported beside them as ``truncated``); points use
    completed rounds only. Triples are ``(estimate, lo, hi)``.
    """
    n = len(df)
    trunc = df["truncated"].to_numpy(bool)
    done = ~trunc
    turns = df["turns"].to_numpy(np.float64)
    cards = df["cards_played"].to_numpy(np.float64)
    pts = df["points"].to_numpy(np.float64)[done]
    ms = df["max_stack"].to_numpy()
    out = {
        "games": n,
        "completed": int(done.sum()),
        "truncated": int(trunc.sum()),
        "trunc_rate": rate(int(trunc.sum()), n),
        "turns_mean": mean_ci(turns),
        "cards_mean": mean_ci(cards),
        "seat0": rate(int((df["winner"].to_numpy() == 0).sum()), n),
        "dealer": rate(int((df["winner"].to_numpy() == n_players - 1).sum()), n),
        "drawn_mean": mean_ci(df["cards_drawn"].to_numpy(np.float64)),
        "reshuffles_mean": float(df["reshuffles"].mean()),
        "max_stack_mean": mean_ci(ms.astype(np.float64)),
        "max_stack_q": np.quantile(ms, [0.5, 0.9, 0.99]),
        "max_stack_max": int(ms.max()),
        "stack_ge_8": rate(int((ms >= 8).sum()), n),
        "stack_ge_12": rate(int((ms >= 12).sum()), n),
    }
    for q, tag in ((0.5, "median"), (0.9, "p90"), (0.99, "p99")):
        out[f"turns_{tag}"] = quantile_ci(turns, q)
        out[f"cards_{tag}"] = quantile_ci(cards, q)
    if pts.size:
        out["points_mean"] = mean_ci(pts)
        out["points_median"] = quantile_ci(pts, 0.5)
        out["points_p90"] = quantile_ci(pts, 0.9)
        out["points_ge_100"] = rate(int((pts >= 100).sum()), pts.size)
        out["points_ge_200"] = rate(int((pts >= 200).sum()), pts.size)
    else:
        nan3 = (math.nan,) * 3
        for k in ("points_mean", "points_median", "points_p90", "points_ge_100", "points_ge_200"):
            out[k] = nan3
    return out


def leaders(values: dict[str, tuple[float, float, float]], highest: bool = True) -> list[str]:
    """The best name by estimate, then every other whose interval overlaps the best's
    (not separated from it at this scale), best first."""
    order = sorted(values, key=lambda k: values[k][0], reverse=highest)
    top = values[order[0]]
    tied = [k for k in order[1:] if (values[k][2] >= top[1] if highest else values[k][1] <= top[2])]
    return [order[0], *tied]


def half(t: tuple[float, float, float]) -> float:
    """Largest distance from the estimate to a bound of ``(est, lo, hi)``."""
    return max(t[0] - t[1], t[2] - t[0])
