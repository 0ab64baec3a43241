"""Per-chunk aggregates of simulated rounds: exact integer counts, sums and histograms.

An :class:`Aggregate` is what ``--summary-only`` keeps of a chunk of games instead of
its rows, and what every chunk reports back in any mode. Aggregates add up exactly
(integers only, no floats), so the merged aggregate of a run, and every figure computed
from it, is the same whatever the chunk size, the order chunks finish in, the executor,
or the number of workers. The headline statistics (``summary_table``) are computed
from an aggregate alone and match :func:`unosim.stats.summary_table` on the rows.

Histograms count completed rounds only (a truncated round has no winner and a censored
length, RULES.md section 6); value ``v`` goes to bin ``v`` for ``0 <= v < BINS`` and
to the last bin (overflow) for ``v >= BINS``. A quantile that falls in the overflow bin
is reported as ``inf``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..stats import _order_stat_ranks, wilson_ci
from . import engine

FORMAT = 1  # version of the on-disk form (``to_dict``)
TURNS_BINS = 1 << 14  # exact turn counts 0 .. 16383, then one overflow bin
POINTS_BINS = 1 << 14  # exact winner's points 0 .. 16383, then one overflow bin
# totals over every round (truncated ones too), in record-column order
TOTAL_COLUMNS = (
    "turns",
    "cards_played",
    "cards_drawn",
    "reshuffles",
    "challenges",
    "bluffs",
    "uno_penalties",
)


def _zeros(bins: int) -> np.ndarray:
    return np.zeros(bins + 1, dtype=np.int64)


@dataclass
class Aggregate:
    """Exact aggregates of a set of rounds with ``n_players`` seats.

    Attributes
    ----------
    n_players : int
    games, truncated : int
        Rounds, and rounds stopped at ``max_turns`` (no winner).
    wins : int64[n_players]
        Rounds won by each seat.
    turns_hist : int64[TURNS_BINS + 1]
        Completed rounds by number of turns (last bin: ``>= TURNS_BINS``).
    points_hist : int64[POINTS_BINS + 1]
        Completed rounds by the winner's points (last bin: ``>= POINTS_BINS``).
    turns_sum, turns_sumsq, points_sum, points_sumsq : int
        Sums and sums of squares over completed rounds (exact Python ints).
    totals : dict[str, int]
        Sum of each ``TOTAL_COLUMNS`` column over every round.
    max_stack : int
        Largest ``max_stack`` of any round.
    """

    n_players: int
    games: int = 0
    truncated: int = 0
    wins: np.ndarray = None  # type: ignore[assignment]
    turns_hist: np.ndarray = None  # type: ignore[assignment]
    points_hist: np.ndarray = None  # type: ignore[assignment]
    turns_sum: int = 0
    turns_sumsq: int = 0
    points_sum: int = 0
    points_sumsq: int = 0
    totals: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TOTAL_COLUMNS, 0))
    max_stack: int = 0

    def __post_init__(self) -> None:
        if self.wins is None:
            self.wins = np.zeros(self.n_players, dtype=np.int64)
        if self.turns_hist is None:
            self.turns_hist = _zeros(TURNS_BINS)
        if self.points_hist is None:
            self.points_hist = _zeros(POINTS_BINS)

    # ------------------------------------------------------------------ building

    @classmethod
    def from_records(cls, out: np.ndarray, n_players: int) -> Aggregate:
        """Aggregate the kernel's raw records ``int32[n, N_COLS]`` (one pass, compiled)."""
        wins = np.zeros(n_players, dtype=np.int64)
        turns_hist, points_hist = _zeros(TURNS_BINS), _zeros(POINTS_BINS)
        sums = np.zeros(4, dtype=np.int64)
        totals = np.zeros(len(TOTAL_COLUMNS), dtype=np.int64)
        truncated, max_stack, bad = engine.aggregate(
            np.ascontiguousarray(out), n_players, wins, turns_hist, points_hist, sums, totals
        )
        if bad:
            raise ValueError("records hold a winner outside the seats, or negative turns or points")
        return cls(
            n_players=n_players,
            games=int(out.shape[0]),
            truncated=int(truncated),
            wins=wins,
            turns_hist=turns_hist,
            points_hist=points_hist,
            turns_sum=int(sums[0]),
            turns_sumsq=int(sums[1]),
            points_sum=int(sums[2]),
            points_sumsq=int(sums[3]),
            totals={name: int(v) for name, v in zip(TOTAL_COLUMNS, totals)},
            max_stack=int(max_stack),
        )

    def add(self, other: Aggregate) -> Aggregate:
        """Add ``other`` into this aggregate (in place) and return it."""
        if other.n_players != self.n_players:
            raise ValueError(
                f"cannot add aggregates of {other.n_players} and {self.n_players} players"
            )
        self.games += other.games
        self.truncated += other.truncated
        self.wins += other.wins
        self.turns_hist += other.turns_hist
        self.points_hist += other.points_hist
        self.turns_sum += other.turns_sum
        self.turns_sumsq += other.turns_sumsq
        self.points_sum += other.points_sum
        self.points_sumsq += other.points_sumsq
        for k in TOTAL_COLUMNS:
            self.totals[k] += other.totals[k]
        self.max_stack = max(self.max_stack, other.max_stack)
        return self

    @property
    def completed(self) -> int:
        return self.games - self.truncated

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Aggregate):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    # ------------------------------------------------------------------ on disk

    def to_dict(self) -> dict[str, Any]:
        """A small JSON-able dict; histograms trimmed after their last non-zero bin."""

        def trim(h: np.ndarray) -> list[int]:
            body = h[:-1]
            nz = np.flatnonzero(body)
            return body[: nz[-1] + 1 if nz.size else 0].tolist()

        return {
            "format": FORMAT,
            "n_players": self.n_players,
            "games": self.games,
            "truncated": self.truncated,
            "wins": self.wins.tolist(),
            "turns_hist": trim(self.turns_hist),
            "turns_overflow": int(self.turns_hist[-1]),
            "points_hist": trim(self.points_hist),
            "points_overflow": int(self.points_hist[-1]),
            "turns_sum": self.turns_sum,
            "turns_sumsq": self.turns_sumsq,
            "points_sum": self.points_sum,
            "points_sumsq": self.points_sumsq,
            "totals": dict(self.totals),
            "max_stack": self.max_stack,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Aggregate:
        if d.get("format") != FORMAT:
            raise ValueError(f"unknown aggregate format {d.get('format')!r}")

        def untrim(values: list[int], overflow: int, bins: int) -> np.ndarray:
            h = _zeros(bins)
            h[: len(values)] = values
            h[-1] = overflow
            return h

        return cls(
            n_players=int(d["n_players"]),
            games=int(d["games"]),
            truncated=int(d["truncated"]),
            wins=np.array(d["wins"], dtype=np.int64),
            turns_hist=untrim(d["turns_hist"], d["turns_overflow"], TURNS_BINS),
            points_hist=untrim(d["points_hist"], d["points_overflow"], POINTS_BINS),
            turns_sum=int(d["turns_sum"]),
            turns_sumsq=int(d["turns_sumsq"]),
            points_sum=int(d["points_sum"]),
            points_sumsq=int(d["points_sumsq"]),
            totals={k: int(d["totals"][k]) for k in TOTAL_COLUMNS},
            max_stack=int(d["max_stack"]),
        )

    # ------------------------------------------------------------------ statistics

    def summary_table(self, confidence: float = 0.95) -> dict[str, Any]:
        """The dict of :func:`unosim.stats.summary_table`, from the aggregates alone.

        Means use the exact sums (t intervals from the exact sums of squares); the
        median and its order-statistic interval come from the exact histograms.
        """
        n = self.completed
        out: dict[str, Any] = {"games": self.games, "completed": n, "truncated": self.truncated}
        nan3 = (math.nan, math.nan, math.nan)
        has = n > 0
        out["turns_mean"], out["turns_lo"], out["turns_hi"] = (
            moments_mean_ci(n, self.turns_sum, self.turns_sumsq, confidence) if has else nan3
        )
        out["turns_median"], out["turns_median_lo"], out["turns_median_hi"] = (
            hist_quantile_ci(self.turns_hist, 0.5, confidence) if has else nan3
        )
        out["points_mean"], out["points_lo"], out["points_hi"] = (
            moments_mean_ci(n, self.points_sum, self.points_sumsq, confidence) if has else nan3
        )
        out["seats"] = seat_table(self.wins, self.games, confidence)
        return out


def moments_mean_ci(
    n: int, s: int, ss: int, confidence: float = 0.95
) -> tuple[float, float, float]:
    """Mean with a Student t interval from exact integer ``n``, ``sum``, ``sum of squares``.

    The same conventions as :func:`unosim.stats.mean_ci`: ``n == 1`` gives a NaN
    interval, zero variance a zero-width one.
    """
    from scipy.stats import t as student_t

    mean = s / n
    if n == 1:
        return (mean, math.nan, math.nan)
    var = (n * ss - s * s) / (n * (n - 1))  # exact integers, one rounding
    if var <= 0:
        return (mean, mean, mean)
    half = float(student_t.ppf(0.5 + confidence / 2.0, df=n - 1)) * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def _order_stat(cum: np.ndarray, rank: int) -> float:
    """Value of the ``rank``-th smallest (1-based) from cumulative bin counts."""
    b = int(np.searchsorted(cum, rank, side="left"))
    return math.inf if b == cum.size - 1 else float(b)


def hist_quantile_ci(
    hist: np.ndarray, q: float, confidence: float = 0.95
) -> tuple[float, float, float]:
    """:func:`unosim.stats.quantile_ci` of the values a histogram counts.

    ``hist[v]`` counts value ``v``; the last bin is the overflow (reported ``inf``).
    """
    cum = np.cumsum(hist)
    n = int(cum[-1])
    h = (n - 1) * q  # numpy's linear interpolation between order statistics
    lo_i = math.floor(h)
    a = _order_stat(cum, lo_i + 1)
    frac = h - lo_i
    est = a if frac == 0 else a + frac * (_order_stat(cum, lo_i + 2) - a)
    lower, upper = _order_stat_ranks(n, q, confidence)
    lo = _order_stat(cum, lower) if lower >= 1 else -math.inf
    hi = _order_stat(cum, upper) if upper <= n else math.inf
    return (float(est), lo, hi)


def seat_table(wins: np.ndarray, games: int, confidence: float = 0.95) -> pd.DataFrame:
    """Win rates with Wilson intervals, as :func:`unosim.stats.win_rates`."""
    n_players = len(wins)
    bounds = np.array(
        [wilson_ci(int(k), games, confidence) for k in wins], dtype=np.float64
    ).reshape(n_players, 2)
    rate = wins / games if games else np.full(n_players, np.nan)
    return pd.DataFrame(
        {
            "seat": np.arange(n_players, dtype=np.int64),
            "wins": np.asarray(wins, dtype=np.int64),
            "games": np.full(n_players, games, dtype=np.int64),
            "rate": np.asarray(rate, dtype=np.float64),
            "lo": bounds[:, 0],
            "hi": bounds[:, 1],
        }
    )
