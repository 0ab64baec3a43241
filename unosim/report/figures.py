"""Figures shared by the report pages and ``unosim report``.

Conventions: matplotlib's Agg backend; every axis says what it shows and in which unit;
every plotted estimate carries its 95% interval; colours come from
:mod:`unosim.report.palette` (one colour per rule set and strategy, on every page); categories
with no order are never joined by lines, and a quantity against players is drawn only
at the player counts simulated. :func:`save` writes a figure as SVG and PNG with
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
from .palette import colours  # noqa: E402

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

__all__ = ["STYLE", "style", "save", "distributions", "seat_rates", "forest", "by_players"]

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


def save(fig, stem: Path) -> tuple[Path, Path]:
    """Write ``fig`` as ``<stem>.svg`` and ``<stem>.png`` (deterministic bytes), close it;
    returns the two paths."""
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    svg, png = stem.with_suffix(".svg"), stem.with_suffix(".png")
    with plt.rc_context({"svg.hashsalt": "unosim"}):
        fig.savefig(
            svg, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight"
        )
    fig.savefig(png, format="png", dpi=100, metadata={"Software": None}, bbox_inches="tight")
    plt.close(fig)
    return svg, png


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
        r = 100 * t["rate"].to_numpy()
        err = [r - 100 * t["lo"].to_numpy(), 100 * t["hi"].to_numpy() - r]
        ax.errorbar(x, r, yerr=err, fmt="o", ms=4, capsize=2.5, color=col[name], label=_wrap(name))
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
            ax.errorbar(
                [r.est],
                [y],
                xerr=[[r.est - r.lo], [r.hi - r.est]],
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
            est = t["est"].to_numpy()
            err = [est - t["lo"].to_numpy(), t["hi"].to_numpy() - est]
            ax.errorbar(
                x, est, yerr=err, fmt="o", ms=4, capsize=2.5, color=col[name], label=_wrap(name)
            )
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
