"""Words of the report pages: display names, changes in words, lists.

Pages speak display names (:mod:`unosim.game.names`), not rule syntax: a preset, a
rule-set name or a player model goes through these, escaped for where it goes (Markdown
text, or figure text through :func:`unosim.report.escape.mpl`).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ..game import names as N
from . import escape as esc
from .cache import PLAYER_COUNTS
from .page import ci, num
from .palette import colour

__all__ = [
    "colour",
    "shown",
    "shown_fig",
    "players",
    "players_fig",
    "noticeable",
    "change",
    "pp_change",
    "names_and",
    "by_players_table",
]


def shown(name: str) -> str:
    """A preset or rule-set name in words, as Markdown text ("Official UNO",
    "stacking (same card)")."""
    return esc.md_text(N.display_preset(name))


def shown_fig(name: str) -> str:
    """A preset or rule-set name in words, for figure text."""
    return esc.mpl(N.display_preset(name))


def players(strategy: str, n: int | None = None, explained: bool = False) -> str:
    """Who is playing, in words ("4 random players"; with ``explained``, "table players
    (people who sometimes bluff and forget UNO)")."""
    return esc.md_text(N.display_players(strategy, n, explained))


def players_fig(strategy: str, n: int | None = None) -> str:
    """Who is playing, in words, for figure text."""
    return esc.mpl(N.display_players(strategy, n))


def noticeable(value: float, rate: bool = False) -> bool:
    """An effect a person would notice (``unosim.game.names.NOTICE``): ``value`` a
    relative change in %, or with ``rate`` a difference in percentage points."""
    return N.noticeable(value, rate)


def change(p: float, more: str = "longer", less: str = "shorter", digits: int = 1) -> str:
    """A relative change in % in words: "2.4% shorter", or "no practical difference"
    under the threshold of notice."""
    if not noticeable(p):
        return "no practical difference"
    return f"{num(abs(p), digits)}% {more if p > 0 else less}"


def pp_change(d: float, up: str = "up", down: str = "down", digits: int = 2) -> str:
    """A difference of a rate in percentage points (``d`` in points) in words: "0.84
    percentage points down", or "no practical difference" under the threshold."""
    if not noticeable(d, rate=True):
        return "no practical difference"
    return f"{num(abs(d), digits)} percentage points {up if d > 0 else down}"


def names_and(items: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def by_players_table(
    stats: dict, names: Sequence[str], label: str, key: str, digits: int
) -> pd.DataFrame:
    """A table of ``stats[name, players][key]`` (estimate, low, high): one row per name
    (first column ``label``), one column per player count."""
    rows = []
    for name in names:
        row = {label: shown(name)}
        for n in PLAYER_COUNTS:
            est, lo, hi = stats[name, n][key]
            row[f"{n}"] = ci(est, lo, hi, digits)
        rows.append(row)
    return pd.DataFrame(rows)
