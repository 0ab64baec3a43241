"""Confidence intervals and paired comparisons for simulated UNO rounds.

Every function takes plain arrays (or a DataFrame of round records) and returns
Python floats, dicts or a small DataFrame, so results can go straight into
tables and reports.

Conventions
-----------
* ``confidence`` is the two-sided coverage, ``0 < confidence < 1`` (default 0.95).
* Paired functions compare two arms run under common random numbers: element
  ``i`` of ``a`` and of ``b`` come from the same game seed. Differences are
  always ``b - a`` (the second arm minus the first).
* An interval that the data cannot bound is reported as ``-inf``/``inf``
  (quantile intervals from too few games) or ``nan`` (a t interval from one
  observation).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import binom, binomtest, norm
from scipy.stats import t as student_t

__all__ = [
    "wilson_ci",
    "win_rates",
    "mean_ci",
    "quantile_ci",
    "paired_diff",
    "paired_rate_diff",
    "paired_quantile_diff",
    "summary_table",
]

# Elements per bootstrap batch (rows x games) in paired_quantile_diff, to bound memory.
_BOOT_BATCH_ELEMENTS = 2_000_000


# --------------------------------------------------------------------------- helpers


def _check_confidence(confidence: float) -> float:
    confidence = float(confidence)
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie strictly between 0 and 1, got {confidence}")
    return confidence


def _as_sample(x: Any, name: str = "x") -> np.ndarray:
    """Return `x` as a non-empty, finite, 1-D float64 array."""
    arr = np.asarray(x, dtype=np.float64)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} is empty")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinite values")
    return arr


def _as_pair(a: Any, b: Any) -> tuple[np.ndarray, np.ndarray]:
    a_arr, b_arr = _as_sample(a, "a"), _as_sample(b, "b")
    if a_arr.shape != b_arr.shape:
        raise ValueError(f"paired samples differ in length: {a_arr.size} vs {b_arr.size}")
    return a_arr, b_arr


def _as_indicator(x: Any, name: str) -> np.ndarray:
    """Return a 0/1 (or bool) sample as a float64 array of 0.0 and 1.0."""
    arr = _as_sample(x, name)
    if not np.all((arr == 0.0) | (arr == 1.0)):
        raise ValueError(f"{name} must contain only 0/1 or False/True")
    return arr


# ------------------------------------------------------------------------- proportions


def wilson_ci(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion.

    Parameters
    ----------
    successes : int
        Number of successes, ``0 <= successes <= n``.
    n : int
        Number of trials. ``n == 0`` gives ``(nan, nan)``.
    confidence : float, default 0.95
        Two-sided confidence level.

    Returns
    -------
    (lo, hi) : tuple of float
        Bounds in ``[0, 1]`` from
        ``scipy.stats.binomtest(successes, n).proportion_ci(method='wilson')``
        (no continuity correction).
    """
    confidence = _check_confidence(confidence)
    k, n = int(successes), int(n)
    if n < 0 or not 0 <= k <= max(n, 0):
        raise ValueError(f"need 0 <= successes <= n, got successes={k}, n={n}")
    if n == 0:
        return (math.nan, math.nan)
    ci = binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
    return (float(ci.low), float(ci.high))


def win_rates(winner: np.ndarray, n_players: int, confidence: float = 0.95) -> pd.DataFrame:
    """Win rate of every seat with Wilson intervals.

    Parameters
    ----------
    winner : ndarray of int, shape (n_games,)
        Winning seat of each round, in ``0 .. n_players - 1``; ``-1`` marks a
        truncated round, which counts in ``games`` but as a win for nobody.
    n_players : int
        Number of seats.
    confidence : float, default 0.95
        Two-sided confidence level.

    Returns
    -------
    pandas.DataFrame, shape (n_players, 6)
        Columns ``seat`` (int64), ``wins`` (int64), ``games`` (int64, the same
        ``n_games`` on every row), ``rate`` (float64, ``wins / games``; NaN if no
        games), ``lo``, ``hi`` (float64, Wilson bounds).
    """
    n_players = int(n_players)
    if n_players < 1:
        raise ValueError(f"n_players must be >= 1, got {n_players}")
    w = np.asarray(winner)
    if w.ndim != 1:
        raise ValueError(f"winner must be 1-D, got shape {w.shape}")
    if w.size and not np.issubdtype(w.dtype, np.integer):
        if not np.all(w == np.round(w)):
            raise ValueError("winner must hold integer seat numbers")
    w = w.astype(np.int64)
    if np.any((w < -1) | (w >= n_players)):
        raise ValueError(f"winner values must lie in -1 .. {n_players - 1}")

    games = int(w.size)
    wins = np.bincount(w[w >= 0], minlength=n_players).astype(np.int64)
    bounds = np.array([wilson_ci(int(k), games, confidence) for k in wins], dtype=np.float64)
    rate = wins / games if games else np.full(n_players, np.nan)
    return pd.DataFrame(
        {
            "seat": np.arange(n_players, dtype=np.int64),
            "wins": wins,
            "games": np.full(n_players, games, dtype=np.int64),
            "rate": rate.astype(np.float64),
            "lo": bounds[:, 0],
            "hi": bounds[:, 1],
        }
    )


# ----------------------------------------------------------------------- means, quantiles


def mean_ci(x: Any, confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean with a Student t interval.

    Parameters
    ----------
    x : array_like, shape (n,)
        Finite values (e.g. turns per round).
    confidence : float, default 0.95
        Two-sided confidence level.

    Returns
    -------
    (mean, lo, hi) : tuple of float
        ``mean -/+ t_{(1+confidence)/2, n-1} * s / sqrt(n)``. With ``n == 1`` the
        interval is ``(nan, nan)`` (no variance estimate); with zero sample
        variance it collapses to ``(mean, mean)``.
    """
    confidence = _check_confidence(confidence)
    arr = _as_sample(x)
    n = arr.size
    mean = float(arr.mean())
    if n == 1:
        return (mean, math.nan, math.nan)
    se = float(arr.std(ddof=1)) / math.sqrt(n)
    if se == 0.0:
        return (mean, mean, mean)
    half = float(student_t.ppf(0.5 + confidence / 2.0, df=n - 1)) * se
    return (mean, mean - half, mean + half)


def mean_ci_from_sums(
    s: Any, s2: Any, m: int, confidence: float = 0.95
) -> tuple[np.ndarray, np.ndarray]:
    """Mean and normal-approximation half-width from running sums.

    For streams too long to keep (tournaments): ``s`` and ``s2`` are the sums and sums
    of squares of ``m`` independent values (arrays: one entry per quantity), so the
    interval is ``mean -/+ z * sqrt(var / m)`` with the unbiased variance.

    Returns
    -------
    (mean, half) : tuple of ndarray
    """
    confidence = _check_confidence(confidence)
    if m < 1:
        raise ValueError("need at least one value")
    s = np.asarray(s, dtype=np.float64)
    mean = s / m
    var = np.maximum(np.asarray(s2, dtype=np.float64) / m - mean**2, 0.0) * m / max(m - 1, 1)
    return mean, float(norm.ppf(0.5 + confidence / 2.0)) * np.sqrt(var / m)


def _count_cdf_at_most(n: int, q: float, alpha: float) -> int:
    """Number of ``k`` in ``0..n`` with ``P(Binom(n, q) <= k) <= alpha``."""
    k = int(binom.ppf(alpha, n, q))  # smallest k with cdf(k) >= alpha
    while k >= 0 and binom.cdf(k, n, q) > alpha:
        k -= 1
    while k < n and binom.cdf(k + 1, n, q) <= alpha:
        k += 1
    return k + 1


def _order_stat_ranks(n: int, q: float, confidence: float) -> tuple[int, int]:
    """1-based ranks ``(l, u)`` of the order statistics bounding the q-quantile.

    ``l`` is the largest rank with ``P(B <= l - 1) <= alpha/2`` and ``u`` the
    smallest with ``P(B >= u) <= alpha/2``, ``B ~ Binom(n, q)``. ``l == 0`` means
    no lower bound, ``u == n + 1`` no upper bound. ``[X_(l), X_(u)]`` then covers
    the population quantile ``inf{x : F(x) >= q}`` with probability at least
    ``P(l <= B <= u - 1) >= confidence`` for any distribution, ties included:
    ``#{X_i <= xi} ~ Binom(n, F(xi))`` with ``F(xi) >= q`` and
    ``#{X_i < xi} ~ Binom(n, F(xi-))`` with ``F(xi-) < q``.
    """
    alpha_half = (1.0 - confidence) / 2.0
    lower = _count_cdf_at_most(n, q, alpha_half)
    # B >= u  <=>  n - B <= n - u, and n - B ~ Binom(n, 1 - q).
    upper = n + 1 - _count_cdf_at_most(n, 1.0 - q, alpha_half)
    return lower, upper


def quantile_ci(x: Any, q: float, confidence: float = 0.95) -> tuple[float, float, float]:
    """Sample quantile with a distribution-free order-statistic interval.

    Parameters
    ----------
    x : array_like, shape (n,)
        Finite values; ties (integer game lengths) are fine.
    q : float
        Quantile level, ``0 < q < 1`` (0.5 for the median).
    confidence : float, default 0.95
        Two-sided confidence level.

    Returns
    -------
    (estimate, lo, hi) : tuple of float
        ``estimate`` is ``numpy.quantile(x, q)`` (linear interpolation, so the
        median of an even sample is the mean of the middle two). ``lo, hi`` are
        the order statistics ``X_(l), X_(u)`` chosen from Binom(n, q) tail
        probabilities; the closed interval has coverage at least `confidence`
        for continuous and discrete data alike. A side the sample is too small to
        bound is ``-inf`` / ``inf``.
    """
    confidence = _check_confidence(confidence)
    q = float(q)
    if not 0.0 < q < 1.0:
        raise ValueError(f"q must lie strictly between 0 and 1, got {q}")
    arr = np.sort(_as_sample(x))
    n = arr.size
    lower, upper = _order_stat_ranks(n, q, confidence)
    lo = float(arr[lower - 1]) if lower >= 1 else -math.inf
    hi = float(arr[upper - 1]) if upper <= n else math.inf
    return (float(np.quantile(arr, q)), lo, hi)


# ------------------------------------------------------------------ paired comparisons


def _variance_ratio(independent_var: float, paired_var: float) -> float:
    """``independent_var / paired_var``; inf if only the paired one is 0, nan if both."""
    if paired_var > 0.0:
        return independent_var / paired_var
    return math.inf if independent_var > 0.0 else math.nan


def paired_diff(a: Any, b: Any, confidence: float = 0.95) -> dict[str, float]:
    """Mean difference ``b - a`` of paired samples (common random numbers).

    Parameters
    ----------
    a, b : array_like, shape (n,)
        Outcomes of the two arms; ``a[i]`` and ``b[i]`` share game seed ``i``.
    confidence : float, default 0.95
        Two-sided confidence level.

    Returns
    -------
    dict
        ``n`` (int); ``mean_a``, ``mean_b``; ``diff`` = mean of ``b - a``;
        ``lo``, ``hi`` = t interval on the differences (as
        ``scipy.stats.ttest_rel(b, a).confidence_interval()``); ``se_paired`` =
        ``sd(b - a) / sqrt(n)``; ``se_independent`` =
        ``sqrt(var(a)/n + var(b)/n)``, the standard error two independent runs of
        the same size would have had; ``variance_reduction`` =
        ``se_independent**2 / se_paired**2`` (inf if the paired variance is 0 and
        the independent one is not, nan if both are 0 or ``n == 1``);
        ``confidence``. Variances use ``ddof=1``.
    """
    a_arr, b_arr = _as_pair(a, b)
    diff, lo, hi = mean_ci(b_arr - a_arr, confidence)
    n = a_arr.size
    if n > 1:
        paired_var = float(np.var(b_arr - a_arr, ddof=1)) / n
        independent_var = (float(np.var(a_arr, ddof=1)) + float(np.var(b_arr, ddof=1))) / n
        ratio = _variance_ratio(independent_var, paired_var)
    else:
        paired_var = independent_var = ratio = math.nan
    return {
        "n": int(n),
        "mean_a": float(a_arr.mean()),
        "mean_b": float(b_arr.mean()),
        "diff": diff,
        "lo": lo,
        "hi": hi,
        "se_paired": math.sqrt(paired_var),
        "se_independent": math.sqrt(independent_var),
        "variance_reduction": ratio,
        "confidence": float(confidence),
    }


def _newcombe_paired_ci(a: np.ndarray, b: np.ndarray, confidence: float) -> tuple[float, float]:
    """Newcombe (1998) method 10 interval for ``mean(b) - mean(a)`` of paired 0/1 data.

    Square-and-add of the two marginal Wilson intervals with the correlation
    correction ``phi`` as in Fagerland, Lydersen & Laake, *Statistical Analysis
    of Contingency Tables*, ch. 8. Stays sensible when few pairs are discordant,
    where the t interval on differences shrinks to zero width.
    """
    n = a.size
    n11 = int(np.sum((a == 1) & (b == 1)))
    n10 = int(np.sum((a == 1) & (b == 0)))
    n01 = int(np.sum((a == 0) & (b == 1)))
    n00 = n - n11 - n10 - n01
    k_a, k_b = n11 + n10, n11 + n01
    p_a, p_b = k_a / n, k_b / n
    lo_a, hi_a = wilson_ci(k_a, n, confidence)
    lo_b, hi_b = wilson_ci(k_b, n, confidence)

    margins = float(k_a) * (n - k_a) * k_b * (n - k_b)
    cross = float(n11) * n00 - float(n10) * n01
    if margins == 0.0 or 0.0 <= cross <= n / 2.0:
        phi = 0.0
    elif cross > n / 2.0:
        phi = (cross - n / 2.0) / math.sqrt(margins)
    else:
        phi = cross / math.sqrt(margins)

    d_lo = math.sqrt(
        max((p_b - lo_b) ** 2 + (hi_a - p_a) ** 2 - 2.0 * phi * (p_b - lo_b) * (hi_a - p_a), 0.0)
    )
    d_hi = math.sqrt(
        max((hi_b - p_b) ** 2 + (p_a - lo_a) ** 2 - 2.0 * phi * (hi_b - p_b) * (p_a - lo_a), 0.0)
    )
    diff = p_b - p_a
    return (diff - d_lo, diff + d_hi)


def paired_rate_diff(
    a_bool: Any, b_bool: Any, confidence: float = 0.95, method: str = "newcombe"
) -> dict[str, float]:
    """Difference of paired proportions ``mean(b) - mean(a)`` (e.g. seat-0 win rates).

    Parameters
    ----------
    a_bool, b_bool : array_like of bool or 0/1, shape (n,)
        Per-game indicators of the two arms; element ``i`` shares game seed ``i``.
    confidence : float, default 0.95
        Two-sided confidence level.
    method : {"newcombe", "t"}, default "newcombe"
        Interval from the pairs: Newcombe's hybrid score interval for paired
        proportions (method 10; keeps a positive width when few outcomes
        differ), or the t interval on the ``-1/0/1`` differences.

    Returns
    -------
    dict
        The keys of :func:`paired_diff` (``mean_a``, ``mean_b`` are the two
        rates; ``diff``, ``se_paired``, ``se_independent``,
        ``variance_reduction``), with ``lo``, ``hi`` from `method`, plus
        ``discordant`` (int, number of games whose outcome differs) and
        ``method``.
    """
    a_arr, b_arr = _as_indicator(a_bool, "a_bool"), _as_indicator(b_bool, "b_bool")
    if a_arr.shape != b_arr.shape:
        raise ValueError(f"paired samples differ in length: {a_arr.size} vs {b_arr.size}")
    if method not in ("newcombe", "t"):
        raise ValueError(f"method must be 'newcombe' or 't', got {method!r}")
    out: dict[str, Any] = paired_diff(a_arr, b_arr, confidence)
    if method == "newcombe":
        out["lo"], out["hi"] = _newcombe_paired_ci(a_arr, b_arr, confidence)
    out["discordant"] = int(np.sum(a_arr != b_arr))
    out["method"] = method
    return out


def paired_quantile_diff(
    a: Any,
    b: Any,
    q: float = 0.5,
    n_boot: int = 2000,
    seed: int = 0,
    confidence: float = 0.95,
) -> dict[str, float]:
    """Difference of quantiles ``Q_q(b) - Q_q(a)`` with a paired bootstrap interval.

    Parameters
    ----------
    a, b : array_like, shape (n,)
        Outcomes of the two arms; ``a[i]`` and ``b[i]`` share game seed ``i``.
    q : float, default 0.5
        Quantile level (0.5: difference of medians).
    n_boot : int, default 2000
        Bootstrap resamples. Each resamples game indices with replacement and
        keeps pairs together.
    seed : int, default 0
        Seed of the ``numpy.random.Generator``; the result is deterministic.
    confidence : float, default 0.95
        Two-sided confidence level.

    Returns
    -------
    dict
        ``n``, ``q``, ``quantile_a``, ``quantile_b``, ``diff`` (estimates with
        ``numpy.quantile``, linear interpolation), ``lo``, ``hi`` (percentile
        bootstrap interval of the difference), ``n_boot``, ``seed``,
        ``confidence``.
    """
    confidence = _check_confidence(confidence)
    q = float(q)
    if not 0.0 < q < 1.0:
        raise ValueError(f"q must lie strictly between 0 and 1, got {q}")
    n_boot = int(n_boot)
    if n_boot < 1:
        raise ValueError(f"n_boot must be >= 1, got {n_boot}")
    a_arr, b_arr = _as_pair(a, b)
    n = a_arr.size

    rng = np.random.default_rng(seed)
    boot = np.empty(n_boot, dtype=np.float64)
    batch = max(1, _BOOT_BATCH_ELEMENTS // n)
    for start in range(0, n_boot, batch):
        stop = min(start + batch, n_boot)
        idx = rng.integers(0, n, size=(stop - start, n))
        boot[start:stop] = np.quantile(b_arr[idx], q, axis=1) - np.quantile(a_arr[idx], q, axis=1)
    alpha = 1.0 - confidence
    lo, hi = np.quantile(boot, [alpha / 2.0, 1.0 - alpha / 2.0])

    q_a, q_b = float(np.quantile(a_arr, q)), float(np.quantile(b_arr, q))
    return {
        "n": int(n),
        "q": q,
        "quantile_a": q_a,
        "quantile_b": q_b,
        "diff": q_b - q_a,
        "lo": float(lo),
        "hi": float(hi),
        "n_boot": n_boot,
        "seed": int(seed),
        "confidence": confidence,
    }


# ---------------------------------------------------------------------------- summary

_SUMMARY_COLUMNS = ("winner", "turns", "points", "truncated")


def summary_table(df: pd.DataFrame, n_players: int, confidence: float = 0.95) -> dict[str, Any]:
    """Headline statistics of a frame of simulated rounds.

    Parameters
    ----------
    df : pandas.DataFrame, shape (n_games, >= 4)
        One row per round with columns ``winner`` (int, ``-1`` if truncated),
        ``turns`` (int), ``points`` (int, points scored by the winner) and
        ``truncated`` (bool).
    n_players : int
        Number of seats.
    confidence : float, default 0.95
        Two-sided confidence level of every interval.

    Returns
    -------
    dict
        ``games``, ``completed``, ``truncated`` (int counts);
        ``turns_mean``, ``turns_lo``, ``turns_hi`` (t interval);
        ``turns_median``, ``turns_median_lo``, ``turns_median_hi``
        (order-statistic interval); ``points_mean``, ``points_lo``,
        ``points_hi``; ``seats`` (DataFrame from :func:`win_rates`, every game in
        the denominator). Turn and point statistics use completed rounds only,
        since a truncated round has no winner and a censored length; they are NaN
        if no round completed.
    """
    missing = [c for c in _SUMMARY_COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"df lacks columns {missing}")
    truncated = df["truncated"].to_numpy(dtype=bool)
    done = ~truncated
    out: dict[str, Any] = {
        "games": int(len(df)),
        "completed": int(done.sum()),
        "truncated": int(truncated.sum()),
    }
    nan3 = (math.nan, math.nan, math.nan)
    turns = df["turns"].to_numpy(dtype=np.float64)[done]
    points = df["points"].to_numpy(dtype=np.float64)[done]
    has_data = turns.size > 0
    out["turns_mean"], out["turns_lo"], out["turns_hi"] = (
        mean_ci(turns, confidence) if has_data else nan3
    )
    out["turns_median"], out["turns_median_lo"], out["turns_median_hi"] = (
        quantile_ci(turns, 0.5, confidence) if has_data else nan3
    )
    out["points_mean"], out["points_lo"], out["points_hi"] = (
        mean_ci(points, confidence) if has_data else nan3
    )
    out["seats"] = win_rates(df["winner"].to_numpy(), n_players, confidence)
    return out
