"""Tests of unosim.stats: intervals against closed forms, published values and scipy."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binom, norm, ttest_rel
from scipy.stats import t as student_t

from unosim.stats import (
    _order_stat_ranks,
    mean_ci,
    mean_ci_from_sums,
    paired_diff,
    paired_quantile_diff,
    paired_rate_diff,
    quantile_ci,
    summary_table,
    wilson_ci,
    win_rates,
)

# ------------------------------------------------------------------------------ Wilson


def _wilson_by_hand(k: int, n: int, confidence: float) -> tuple[float, float]:
    """(p + z^2/2n -/+ z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n)."""
    z = norm.ppf(0.5 + confidence / 2)
    p = k / n
    centre = p + z**2 / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z**2 / (4 * n**2))
    denom = 1 + z**2 / n
    return ((centre - half) / denom, (centre + half) / denom)


def test_wilson_matches_formula_and_textbook_value():
    lo, hi = wilson_ci(81, 263)
    hand_lo, hand_hi = _wilson_by_hand(81, 263, 0.95)
    assert lo == pytest.approx(hand_lo, abs=1e-10)
    assert hi == pytest.approx(hand_hi, abs=1e-10)
    # Newcombe (1998), Stat. Med. 17:857-872, worked example 81/263: 0.2553 to 0.3662.
    assert (round(lo, 4), round(hi, 4)) == (0.2553, 0.3662)


@pytest.mark.parametrize(
    "k, n, expected",
    [  # Newcombe (1998), worked examples, Wilson score method without continuity correction.
        (15, 148, (0.0624, 0.1605)),
        (0, 20, (0.0000, 0.1611)),
        (1, 29, (0.0061, 0.1718)),
    ],
)
def test_wilson_published_cases(k, n, expected):
    lo, hi = wilson_ci(k, n)
    assert (round(lo, 4), round(hi, 4)) == expected


def test_wilson_other_confidence_and_edges():
    lo, hi = wilson_ci(7, 40, confidence=0.9)
    assert (lo, hi) == pytest.approx(_wilson_by_hand(7, 40, 0.9), abs=1e-10)
    assert all(math.isnan(v) for v in wilson_ci(0, 0))
    with pytest.raises(ValueError):
        wilson_ci(5, 4)
    with pytest.raises(ValueError):
        wilson_ci(1, 4, confidence=1.0)


# ------------------------------------------------------------------------ win rates


def test_win_rates_counts_truncated_rounds_for_nobody():
    # 10 games, 3 seats: seat 0 wins 4, seat 1 wins 3, seat 2 wins 1, 2 truncated (-1).
    winner = np.array([0, 1, -1, 0, 2, 0, 1, -1, 0, 1], dtype=np.int8)
    table = win_rates(winner, 3)
    assert list(table.columns) == ["seat", "wins", "games", "rate", "lo", "hi"]
    assert table["seat"].tolist() == [0, 1, 2]
    assert table["wins"].tolist() == [4, 3, 1]
    assert table["games"].tolist() == [10, 10, 10]
    np.testing.assert_allclose(table["rate"], [0.4, 0.3, 0.1])
    assert table["rate"].sum() == pytest.approx(0.8)  # 2 of 10 won by nobody
    for row in table.itertuples():
        assert (row.lo, row.hi) == pytest.approx(wilson_ci(row.wins, 10))
        assert row.lo < row.rate < row.hi
    assert table["wins"].dtype == np.int64 and table["lo"].dtype == np.float64


def test_win_rates_seat_without_wins_and_validation():
    table = win_rates(np.array([1, 1, -1]), 4)
    assert table["wins"].tolist() == [0, 2, 0, 0]
    assert table.loc[0, "lo"] == 0.0 and table.loc[0, "hi"] > 0.0
    with pytest.raises(ValueError):
        win_rates(np.array([0, 4]), 4)
    with pytest.raises(ValueError):
        win_rates(np.array([0, -2]), 4)


# ------------------------------------------------------------------------------ means


def test_mean_ci_against_t_by_hand():
    x = np.array([12, 15, 9, 20, 14, 11, 17, 13], dtype=float)
    n = x.size
    m = x.sum() / n
    s = math.sqrt(((x - m) ** 2).sum() / (n - 1))
    half = student_t.ppf(0.975, n - 1) * s / math.sqrt(n)
    mean, lo, hi = mean_ci(x)
    assert mean == pytest.approx(m)
    assert (lo, hi) == pytest.approx((m - half, m + half), rel=1e-12)
    _, lo90, hi90 = mean_ci(x, confidence=0.90)
    assert lo < lo90 < hi90 < hi


def test_mean_ci_degenerate_samples():
    mean, lo, hi = mean_ci([7])
    assert mean == 7.0 and math.isnan(lo) and math.isnan(hi)
    assert mean_ci([4, 4, 4]) == (4.0, 4.0, 4.0)
    with pytest.raises(ValueError):
        mean_ci([])
    with pytest.raises(ValueError):
        mean_ci([1.0, np.nan])


def test_mean_ci_from_sums_is_the_normal_interval_of_the_values():
    rng = np.random.default_rng(4)
    x = rng.normal(3.0, 2.0, size=(500, 2))  # two quantities, 500 values each
    mean, half = mean_ci_from_sums(x.sum(0), (x**2).sum(0), 500)
    assert mean == pytest.approx(x.mean(0), rel=1e-12)
    z = norm.ppf(0.975)
    assert half == pytest.approx(z * x.std(0, ddof=1) / math.sqrt(500), rel=1e-9)
    _, half90 = mean_ci_from_sums(x.sum(0), (x**2).sum(0), 500, confidence=0.90)
    assert (half90 < half).all()
    m1, h1 = mean_ci_from_sums([5.0], [25.0], 1)  # one value: no spread known
    assert m1[0] == 5.0 and h1[0] == 0.0
    with pytest.raises(ValueError):
        mean_ci_from_sums([1.0], [1.0], 0)


# -------------------------------------------------------------------------- quantiles


def test_quantile_ci_median_of_ten_is_second_to_ninth():
    # Binom(10, 1/2): P(B <= 1) = 11/1024 <= 0.025 < P(B <= 2) = 56/1024, so the
    # classic 95% median interval is [X_(2), X_(9)] with coverage 1 - 22/1024.
    assert _order_stat_ranks(10, 0.5, 0.95) == (2, 9)
    x = np.array([31, 4, 15, 9, 26, 5, 35, 8, 97, 93])  # sorted: 4 5 8 9 15 26 31 35 93 97
    est, lo, hi = quantile_ci(x, 0.5)
    assert (est, lo, hi) == (20.5, 5.0, 93.0)


def test_quantile_ci_too_few_points_is_unbounded():
    # n = 5: P(B = 0) = 1/32 > 0.025, so no order statistic bounds the median.
    _, lo, hi = quantile_ci([1, 2, 3, 4, 5], 0.5)
    assert lo == -math.inf and hi == math.inf
    # One-sided: the 0.9 quantile of 20 points has a lower bound but no upper one.
    _, lo, hi = quantile_ci(np.arange(20), 0.9)
    assert math.isfinite(lo) and hi == math.inf


def _exact_coverage(pmf: np.ndarray, n: int, q: float, confidence: float) -> float:
    """Exact P(X_(l) <= xi <= X_(u)) for iid draws from `pmf` on 0..K-1 (ties!)."""
    cdf = np.cumsum(pmf)
    xi = int(np.argmax(cdf >= q - 1e-12))  # population quantile inf{x : F(x) >= q}
    f_at, f_below = cdf[xi], (cdf[xi - 1] if xi > 0 else 0.0)
    lower, upper = _order_stat_ranks(n, q, confidence)
    # X_(l) <= xi  <=>  #{X <= xi} >= l;   X_(u) < xi  <=>  #{X < xi} >= u.
    return float(binom.sf(lower - 1, n, f_at) - binom.sf(upper - 1, n, f_below))


@pytest.mark.parametrize(
    "pmf",
    [
        np.array([0.2, 0.3, 0.5]),  # heavy ties, median on an atom
        np.array([0.5, 0.5]),  # q = 0.5 exactly at a jump of F
        np.full(20, 0.05),  # discrete uniform, like game lengths
    ],
)
@pytest.mark.parametrize("q", [0.1, 0.25, 0.5, 0.9])
def test_quantile_ci_exact_coverage_on_discrete_data(pmf, q):
    for n in range(1, 80):
        assert _exact_coverage(pmf, n, q, 0.95) >= 0.95 - 1e-12, n


def test_quantile_ci_simulated_coverage_with_integer_ties():
    rng = np.random.default_rng(20240101)
    true_median = 3.0  # geometric(p=0.2) on 1, 2, ...: F(3) = 0.488, F(4) = 0.590
    reps, hits = 1000, 0
    for _ in range(reps):
        _, lo, hi = quantile_ci(rng.geometric(0.2, size=40), 0.5)
        hits += lo <= true_median <= hi
    # Conservative by construction; 5 sigma below nominal would flag a real defect.
    assert hits / reps >= 0.95 - 5 * math.sqrt(0.95 * 0.05 / reps)


# --------------------------------------------------------------------- paired, means


def test_paired_diff_matches_ttest_rel():
    a = np.array([52, 61, 47, 70, 58, 66, 49, 55, 63, 60], dtype=float)
    b = np.array([55, 60, 52, 74, 57, 70, 53, 56, 69, 61], dtype=float)
    res = paired_diff(a, b)
    ref = ttest_rel(b, a).confidence_interval(confidence_level=0.95)
    assert res["diff"] == pytest.approx(np.mean(b - a))
    assert (res["lo"], res["hi"]) == pytest.approx((ref.low, ref.high), rel=1e-12)
    n = a.size
    assert res["se_independent"] == pytest.approx(
        math.sqrt(np.var(a, ddof=1) / n + np.var(b, ddof=1) / n)
    )
    assert res["se_paired"] == pytest.approx(np.std(b - a, ddof=1) / math.sqrt(n))
    ref90 = ttest_rel(b, a).confidence_interval(confidence_level=0.90)
    res90 = paired_diff(a, b, confidence=0.90)
    assert (res90["lo"], res90["hi"]) == pytest.approx((ref90.low, ref90.high), rel=1e-12)


def test_variance_reduction_correlated_vs_independent():
    rng = np.random.default_rng(7)
    n = 4000
    base = rng.normal(100.0, 15.0, n)
    # Common random numbers: strongly correlated arms, true ratio 2*225 / (2*9) = 25.
    a = base + rng.normal(0.0, 3.0, n)
    b = base + 1.0 + rng.normal(0.0, 3.0, n)
    assert paired_diff(a, b)["variance_reduction"] > 15.0
    # Independent arms: true ratio 1; sampling sd of the estimate is about 0.02.
    c = rng.normal(100.0, 15.0, n)
    d = rng.normal(101.0, 15.0, n)
    assert 0.88 < paired_diff(c, d)["variance_reduction"] < 1.12


def test_paired_diff_zero_division_guards():
    x = np.array([1.0, 2.0, 4.0])
    assert paired_diff(x, x + 1.0)["variance_reduction"] == math.inf
    assert math.isnan(paired_diff([3.0, 3.0], [5.0, 5.0])["variance_reduction"])
    with pytest.raises(ValueError):
        paired_diff([1.0, 2.0], [1.0, 2.0, 3.0])


# ----------------------------------------------------------------- paired, proportions


def _pairs_from_table(n11: int, n10: int, n01: int, n00: int) -> tuple[np.ndarray, np.ndarray]:
    a = np.repeat([True, True, False, False], [n11, n10, n01, n00])
    b = np.repeat([True, False, True, False], [n11, n10, n01, n00])
    return a, b


def test_paired_rate_diff_newcombe_published_case():
    # Cavo et al. (2012) in Fagerland, Lydersen & Laake, ch. 8: table [[59, 6], [16, 80]],
    # first minus second -0.0621 (95% CI -0.1186 to -0.0046); we report second minus first.
    a, b = _pairs_from_table(59, 6, 16, 80)
    res = paired_rate_diff(a, b)
    assert res["diff"] == pytest.approx(10 / 161)
    assert (round(res["lo"], 4), round(res["hi"], 4)) == (0.0046, 0.1186)
    assert res["discordant"] == 22 and res["method"] == "newcombe"
    assert res["mean_a"] == pytest.approx(65 / 161) and res["mean_b"] == pytest.approx(75 / 161)


def test_paired_rate_diff_t_method_matches_ttest_rel():
    a, b = _pairs_from_table(30, 4, 11, 25)
    res = paired_rate_diff(a, b, method="t")
    ref = ttest_rel(b.astype(float), a.astype(float)).confidence_interval()
    assert (res["lo"], res["hi"]) == pytest.approx((ref.low, ref.high), rel=1e-12)
    assert res["variance_reduction"] > 1.0  # concordant pairs dominate


def test_paired_rate_diff_without_discordant_pairs():
    a, b = _pairs_from_table(40, 0, 0, 60)
    t_res = paired_rate_diff(a, b, method="t")
    assert (t_res["lo"], t_res["hi"]) == (0.0, 0.0)  # the t interval degenerates ...
    nc = paired_rate_diff(a, b)
    assert nc["lo"] < 0.0 < nc["hi"]  # ... Newcombe's does not
    with pytest.raises(ValueError):
        paired_rate_diff([0, 2], [1, 1])


# ------------------------------------------------------------------- paired, quantiles


def test_paired_quantile_diff_deterministic_and_sensible():
    rng = np.random.default_rng(11)
    a = rng.integers(20, 80, size=300)
    b = a + rng.integers(-2, 6, size=300)  # correlated integer lengths, shifted up ~1.5
    r1 = paired_quantile_diff(a, b, q=0.5, n_boot=500, seed=42)
    r2 = paired_quantile_diff(a, b, q=0.5, n_boot=500, seed=42)
    assert r1 == r2
    assert r1["diff"] == np.median(b) - np.median(a)
    assert r1["lo"] <= r1["diff"] <= r1["hi"]
    assert r1["hi"] - r1["lo"] < 10.0


def test_paired_quantile_diff_exact_shift_has_zero_width():
    a = np.array([11, 15, 15, 18, 22, 25, 31, 40, 44], dtype=float)
    res = paired_quantile_diff(a, a + 3, n_boot=200, seed=0)
    assert (res["diff"], res["lo"], res["hi"]) == (3.0, 3.0, 3.0)


# ---------------------------------------------------------------------------- summary


def test_summary_table_small_frame():
    df = pd.DataFrame(
        {
            "winner": [0, 1, -1, 0, 2, 1],
            "turns": [20, 30, 500, 40, 25, 35],
            "points": [50, 80, 0, 65, 40, 100],
            "truncated": [False, False, True, False, False, False],
        }
    )
    s = summary_table(df, n_players=3)
    assert (s["games"], s["completed"], s["truncated"]) == (6, 5, 1)
    # Completed rounds only: turns 20 30 40 25 35 -> mean 30, median 30.
    assert (s["turns_mean"], s["turns_lo"], s["turns_hi"]) == pytest.approx(
        mean_ci([20, 30, 40, 25, 35])
    )
    assert s["turns_median"] == 30.0
    assert s["points_mean"] == pytest.approx(67.0)
    seats = s["seats"]
    assert seats["wins"].tolist() == [2, 2, 1] and seats["games"].tolist() == [6, 6, 6]
    with pytest.raises(ValueError):
        summary_table(df.drop(columns="points"), 3)
