"""Figures shared by the report pages and ``unosim report``.

Conventions: matplotlib's Agg backend; every axis says what it shows and in which unit;
every plotted estimate carries its 95% interval; colours come from
:mod:`unosim.report.palette` (one colour per rule set and strategy, on every page); categories
with no order are never joined by lines, and a quantity against players is drawn only
at the player counts simulated. :func:`save` writes a figure as SVG with
deterministic metadata (no dates, no software versions, fixed SVG ids), so the same
data give the same bytes. Every text drawn (names, titles, labels) is literal: it goes
through :func:`unosim.report.escape.mpl`, so a ``$`` in a name is never mathtext.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from . import escape as esc  # noqa: E402
from .numbers import num  # noqa: E402
from .palette import colours  # noqa: E402

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

__all__ = [
    "STYLE",
    "style",
    "save",
    "intervals",
    "player_axis",
    "symlog_percent",
    "plain_log",
    "forest_axis",
    "hist_panels",
    "distributions",
    "seat_rates",
    "forest",
    "by_players",
]

STYLE: dict[RcKeyType, Any] = {
    "figure.dpi": 100,
    "savefig.dpi": 100,
    "font.size": 9,
    "figure.constrained_layout.use": True,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.frameon": False,
    "svg.hashsalt": "unosim",
    "svg.fonttype": "path",
}


def style() -> None:
    """Apply :data:`STYLE` to matplotlib's rcParams."""
    plt.rcParams.update(STYLE)


style()


def save(fig, where) -> Path:
    """Write ``fig`` as SVG (deterministic bytes: no date, no software, fixed ids) to
    ``<where>.svg``, or into ``where`` when it is a binary file object; close it.
    Returns the path written (``where`` itself for a file object)."""
    target = where
    if isinstance(where, (str, Path)):
        target = Path(where).with_suffix(".svg")
        target.parent.mkdir(parents=True, exist_ok=True)
    with plt.rc_context({"svg.hashsalt": "unosim"}):
        fig.savefig(
            target, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight"
        )
    plt.close(fig)
    return target


def intervals(ax, x, triples, y=None, **kwargs):
    """Estimates with their 95% intervals: ``triples`` of ``(estimate, lo, hi)`` drawn at
    ``x`` as vertical error bars, or with ``y`` given at ``(estimate, y)`` as horizontal
    ones (``x`` is then ignored). ``kwargs`` go to ``ax.errorbar``; the one way every
    page draws an interval."""
    e = np.asarray(triples, dtype=float).reshape(-1, 3)
    err = [e[:, 0] - e[:, 1], e[:, 2] - e[:, 0]]
    if y is not None:
        return ax.errorbar(e[:, 0], y, xerr=err, **kwargs)
    return ax.errorbar(x, e[:, 0], yerr=err, **kwargs)


PLAYER_COUNTS = tuple(range(2, 11))  # the player counts a page's axes show


def player_axis(ax, counts=PLAYER_COUNTS) -> None:
    """x axis of a metric against the number of players: every count a tick."""
    ax.set_xticks(list(counts))
    ax.set_xlabel("players at the table")


def symlog_percent(ax, lin: float = 10.0) -> None:
    """x axis of relative changes (%): linear within ±lin, logarithmic beyond, with
    plain signed tick labels; call after plotting (limits follow the data)."""
    from matplotlib.ticker import FixedLocator, FuncFormatter

    lo, hi = ax.dataLim.x0, ax.dataLim.x1
    ax.set_xscale("symlog", linthresh=lin)

    def pad(v: float, up: bool) -> float:
        if abs(v) <= lin:
            return v + (2 if up else -2) * lin / 10
        return v * 1.35

    ax.set_xlim(pad(min(lo, 0.0), False), pad(max(hi, 0.0), True))
    lo, hi = ax.get_xlim()
    ticks = [t for t in (-100, -30, -10, -5, 0, 5, 10, 30, 100) if lo <= t <= hi]
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_minor_locator(FixedLocator([]))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:+g}" if v else "0"))


def plain_log(
    ax, axis: str = "x", ticks=(20, 30, 40, 50, 60, 80, 100, 200, 300, 500, 1000, 2000, 5000)
) -> None:
    """A log-scale axis labelled with plain numbers (``50``, not ``5×10^1``)."""
    from matplotlib.ticker import FixedLocator, NullLocator, ScalarFormatter

    a = ax.xaxis if axis == "x" else ax.yaxis
    lo, hi = ax.get_xlim() if axis == "x" else ax.get_ylim()
    a.set_major_locator(FixedLocator([t for t in ticks if lo <= t <= hi]))
    a.set_minor_locator(NullLocator())
    a.set_major_formatter(ScalarFormatter())


def forest_axis(
    ax,
    labels: Sequence[str],
    est,
    lo,
    hi,
    colours: Sequence[str],
    offsets: Sequence[float] | None = None,
    marker: str = "o",
    label: str | None = None,
) -> None:
    """Horizontal dot-and-interval plot (one row per label, first at the top), a
    line at 0."""
    y = np.arange(len(labels)) + (0 if offsets is None else np.asarray(offsets))
    est, lo, hi = (np.asarray(v, dtype=float) for v in (est, lo, hi))
    for i in range(len(labels)):
        intervals(
            ax,
            None,
            [(est[i], lo[i], hi[i])],
            y=[y[i]],
            fmt=marker,
            ms=5,
            capsize=2,
            color=colours[i],
            label=label if i == 0 else None,
        )
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_yticks(np.arange(len(labels)), [esc.mpl(t) for t in labels])
    ax.set_ylim(len(labels) - 0.5, -0.5)
    ax.margins(x=0.08)


def hist_panels(
    samples: dict[str, np.ndarray],
    colours: dict[str, str],
    xlabel: str,
    xmax: float,
    ncols: int = 4,
    unit: str = "",
    bins: int | None = None,
    integer: bool = True,
    height: float = 1.55,
    width: float = 11.0,
):
    """Small multiples: one histogram per sample (share of rounds, %), its mean marked;
    a shared x axis cut at ``xmax`` (what lies beyond is said in the panel)."""
    names = list(samples)
    nrows = -(-len(names) // ncols)
    fig, axes = plt.subplots(
        nrows, ncols, figsize=(width, height * nrows + 0.6), sharex=True, sharey=True, squeeze=False
    )
    for ax, name in zip(axes.flat, names):
        v = np.asarray(samples[name])
        step: float
        if integer:
            step = max(1, int(math.ceil(xmax / 60)))
            edges = np.arange(0, xmax + step, step) - 0.5
        else:
            step = float(np.ceil(xmax / (bins or 60)))
            edges = np.arange(0, xmax + step, step)
        h, _ = np.histogram(v, bins=edges)
        ax.stairs(100 * h / len(v), edges, fill=True, color=colours[name], alpha=0.75)
        m = float(v.mean())
        ax.axvline(m, color="black", lw=1)
        beyond = float((v > xmax).mean())
        ax.set_title(esc.mpl(name), fontsize=8)
        ax.text(
            0.98,
            0.95,
            f"mean {num(m, 1)}{unit}"
            + (f"\n{num(100 * beyond, 1)}% beyond {num(xmax, 0)}" if beyond >= 0.0005 else ""),
            transform=ax.transAxes,
            ha="right",
            va="top",
            fontsize=7,
            bbox={"facecolor": "white", "alpha": 0.8, "lw": 0, "pad": 1},
        )
        ax.set_xlim(0, xmax)
    for ax in axes.flat[len(names) :]:
        ax.set_visible(False)
    for j in range(ncols):  # the lowest visible panel of each column carries the x axis
        col = [ax for ax in axes[:, j] if ax.get_visible()]
        if col:
            col[-1].xaxis.set_tick_params(labelbottom=True)
            col[-1].set_xlabel(xlabel)
    for ax in axes[:, 0]:
        ax.set_ylabel(f"% of rounds\nper {num(step, 0)}{unit or ' units'}")
    return fig


def _clip(samples: Mapping[str, np.ndarray], q: float) -> float:
    """The pooled ``q`` quantile: the right end of a shared x-axis."""
    return float(np.quantile(np.concatenate([np.asarray(s) for s in samples.values()]), q))


WRAP = 30  # characters of a name on one line of a legend or an axis


def _wrap(name: str) -> str:
    """A name for a legend or tick label, escaped (:func:`unosim.report.escape.mpl`)
    and broken at spaces into lines of about :data:`WRAP` characters."""
    return "\n".join(textwrap.wrap(esc.mpl(name), WRAP, break_long_words=False)) or esc.mpl(name)


def _colours(names: Sequence[str], palette: Mapping[str, str] | None) -> dict[str, str]:
    """``palette`` where it names a colour (a rule set shown by its display name keeps
    its own colour), else :func:`unosim.report.palette.colours`."""
    col = colours(names)
    return {n: (palette or {}).get(n, col[n]) for n in names}


def distributions(
    samples: Mapping[str, np.ndarray],
    xlabel: str,
    unit: str,
    title: str = "",
    cut: float = 0.995,
    means: Mapping[str, tuple] | None = None,
    palette: Mapping[str, str] | None = None,
):
    """Small multiples: one histogram per name (shared axes), its mean marked.

    Parameters
    ----------
    samples : name -> values (integers: one bin per value, or wider bins past 120 values).
    xlabel, unit : the x-axis ``"<xlabel> (<unit>)"``.
    cut : the x-axis ends at this pooled quantile; each panel says how many of its values
        lie beyond (none are dropped from the means).
    means : name -> ``(mean, lo, hi)`` to mark (default: the sample mean, no interval).
    palette : name -> colour (default :func:`unosim.report.palette.colours` of the names).
    """
    names = list(samples)
    col = _colours(names, palette)
    right = _clip(samples, cut)
    lo_all = min(float(np.min(s)) for s in samples.values())
    span = max(1.0, right - lo_all)
    width = max(1, int(math.ceil(span / 120)))  # at most ~120 bars
    edges = np.arange(math.floor(lo_all) - 0.5, right + width + 0.5, width)
    fig, axes = plt.subplots(
        len(names),
        1,
        figsize=(7.5, 1.5 + 1.35 * len(names)),
        sharex=True,
        sharey=True,
        squeeze=False,
    )
    for ax, name in zip(axes[:, 0], names):
        v = np.asarray(samples[name], dtype=np.float64)
        h, _ = np.histogram(v, bins=edges)
        share = 100.0 * h / v.size / width  # % of rounds per unit
        ax.stairs(share, edges, fill=True, color=col[name], alpha=0.55, lw=0)
        ax.stairs(share, edges, color=col[name], lw=1.0)
        m = means[name] if means and name in means else (float(v.mean()), None, None)
        ax.axvline(m[0], color="black", lw=1.2, ls="--")
        if m[1] is not None and math.isfinite(m[1]):
            ax.axvspan(m[1], m[2], color="black", alpha=0.15, lw=0)
        beyond = int((v > edges[-1]).sum())
        note = f"mean {m[0]:,.1f}" + (
            f"; {beyond:,} beyond the axis ({100 * beyond / v.size:.2g}%)" if beyond else ""
        )
        ax.set_title(f"{esc.mpl(name)}: {note}", loc="left", fontsize=9)
        per = unit.rstrip("s") if width == 1 else f"{width} {unit}"
        ax.set_ylabel(f"% of rounds\nper {esc.mpl(per)}")
    axes[-1, 0].set_xlabel(esc.mpl(f"{xlabel} ({unit})"))
    axes[-1, 0].set_xlim(edges[0], edges[-1])
    if title:
        fig.suptitle(esc.mpl(title))
    return fig


def seat_rates(
    rates: Mapping[str, pd.DataFrame],
    n_players: int,
    title: str = "",
    palette: Mapping[str, str] | None = None,
):
    """Win rate of each seat with its interval, one marker colour per name (dodged, not
    joined); the fair share ``1 / n`` as a line. ``rates`` are :func:`unosim.stats.win_rates`
    frames (``seat``, ``rate``, ``lo``, ``hi``)."""
    names = list(rates)
    col = _colours(names, palette)
    fig, ax = plt.subplots(figsize=(max(5.5, 1.0 + 0.9 * n_players), 3.6))
    k = len(names)
    step = min(0.8 / max(k, 1), 0.18)
    for i, name in enumerate(names):
        t = rates[name]
        x = t["seat"].to_numpy() + (i - (k - 1) / 2) * step
        e = 100 * t[["rate", "lo", "hi"]].to_numpy(float)
        intervals(ax, x, e, fmt="o", ms=4, capsize=2.5, color=col[name], label=_wrap(name))
    ax.axhline(100 / n_players, color="grey", lw=0.8, ls=":", label=f"fair share 1/{n_players}")
    ax.set_xticks(
        range(n_players),
        [
            f"{s}" + (" (first)" if s == 0 else " (dealer)" if s == n_players - 1 else "")
            for s in range(n_players)
        ],
    )
    ax.set_xlabel("seat (0 plays first; the last seat deals)")
    ax.set_ylabel("rounds won (%)")
    ax.margins(x=0.05, y=0.15)
    if max(len(n) for n in names) <= WRAP:
        ax.legend(fontsize=8, ncol=min(3, k + 1), loc="upper right")
    else:  # long names (display names, --name): one column beside the axes
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    if title:
        ax.set_title(esc.mpl(title))
    return fig


def forest(
    rows: pd.DataFrame,
    xlabel: str = "change against the baseline (%)",
    title: str = "",
    fmt: str = "{:+.1f}%",
    palette: Mapping[str, str] | None = None,
    ref: float = 0.0,
):
    """A forest plot: one row per (group, name) with its estimate and interval, grouped
    by ``group`` (e.g. the metric), coloured by ``name`` (the rule set); ``ref`` (0)
    marked; each estimate written beside its marker with ``fmt``.

    ``rows`` columns: ``group``, ``name``, ``est``, ``lo``, ``hi`` (in the x unit).
    """
    groups = list(dict.fromkeys(rows["group"]))
    names = list(dict.fromkeys(rows["name"]))
    col = _colours(names, palette)
    per = max(_wrap(n).count("\n") + 1 for n in names)  # lines of the longest name
    fig, ax = plt.subplots(figsize=(7.5, 0.9 + 0.21 * (len(rows) * per + len(groups))))
    y, ticks, labels = 0.0, [], []
    for gname in groups:
        g = rows[rows["group"] == gname]
        ax.text(
            0.0,
            y,
            esc.mpl(gname),
            transform=ax.get_yaxis_transform(),
            ha="right",
            va="center",
            fontweight="bold",
            fontsize=8.5,
        )
        y += 1
        for r in g.itertuples():
            intervals(
                ax,
                None,
                [(r.est, r.lo, r.hi)],
                y=[y],
                fmt="o",
                ms=4,
                capsize=2.5,
                color=col[r.name],
            )
            ax.annotate(
                fmt.format(r.est),
                (r.hi, y),
                xytext=(5, 0),
                textcoords="offset points",
                va="center",
                fontsize=7.5,
            )
            ticks.append(y)
            labels.append(_wrap(r.name))
            y += 1
        y += 0.4
    ax.axvline(ref, color="grey", lw=0.8)
    ax.margins(x=0.12)
    ax.set_yticks(ticks, labels, fontsize=8)
    ax.set_ylim(y - 0.4, -0.8)
    ax.set_xlabel(esc.mpl(xlabel))
    ax.grid(axis="y", visible=False)
    if title:
        ax.set_title(esc.mpl(title), loc="left")
    return fig


def by_players(
    rows: pd.DataFrame,
    panels: Sequence[tuple[str, str]],
    title: str = "",
    palette: Mapping[str, str] | None = None,
):
    """Each metric against the number of players: markers with intervals at the player
    counts simulated only (no lines between them), one colour per name.

    ``rows`` columns: ``metric``, ``name``, ``players``, ``est``, ``lo``, ``hi``;
    ``panels``: ``(metric, y-axis label with unit)`` in order.
    """
    names = list(dict.fromkeys(rows["name"]))
    col = _colours(names, palette)
    counts = sorted(set(int(p) for p in rows["players"]))
    k = len(names)
    step = 0.12 if len(counts) > 1 else 0.1
    ncols = min(3, len(panels))
    nrows = -(-len(panels) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.4 * ncols, 3.0 * nrows), squeeze=False)
    for ax in axes.flat[len(panels) :]:
        ax.set_visible(False)
    for ax, (metric, ylabel) in zip(axes.flat, panels):
        sub = rows[rows["metric"] == metric]
        for i, name in enumerate(names):
            t = sub[sub["name"] == name].sort_values("players")
            x = t["players"].to_numpy(float) + (i - (k - 1) / 2) * step
            e = t[["est", "lo", "hi"]].to_numpy(float)
            intervals(ax, x, e, fmt="o", ms=4, capsize=2.5, color=col[name], label=_wrap(name))
        ax.set_xticks(counts)
        ax.set_xlabel("players (simulated counts only)")
        ax.set_ylabel(esc.mpl(ylabel))
        ax.margins(x=0.1)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    if len(panels) < nrows * ncols:  # the legend in the empty panel
        axes.flat[len(panels)].set_visible(True)
        axes.flat[len(panels)].axis("off")
        axes.flat[len(panels)].legend(handles, labels, loc="center", title="rule set")
    else:
        axes[0, 0].legend(fontsize=8)
    if title:
        fig.suptitle(esc.mpl(title))
    return fig
