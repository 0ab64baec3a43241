"""``unosim evaluate --out DIR``'s page: the strength ladder in words, a figure and a table.

``DIR/ladder.md`` and ``.html`` (:class:`unosim.report.page.Page`) open with what the
agent wins against the weakest and the strongest opponents and how that compares with the
best built-in strategy on the same deals, in plain words (a difference under
:data:`unosim.game.names.NOTICE`'s 0.5 percentage points is "no practical difference");
then the figure (``DIR/ladder/ladder.svg``: every row's win rate with its 95%
interval, grouped by opponents, the fair share marked), the table and how it was made.
Every outside name (the agent's, the rule set's) goes through :mod:`unosim.report.escape`.
The page is built in a temporary folder inside ``DIR`` and moved into place, so an
interrupted run leaves the earlier page whole.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..analysis.evaluate import Ladder
from ..game.names import display_players, display_preset, noticeable
from . import escape as esc
from .outfolder import swap_in
from .page import Page, pct

__all__ = ["Made", "build_page", "write_page", "PAGE_NAME"]

PAGE_NAME = "ladder"
WHO = {  # the reference rows' players, in words
    "agent": "the agent",
    "random": "built-in random",
    "expert": "the expert",
    "see-all-hands": "the expert seeing every hand",
}


def _opponents(opp: str, n: int) -> str:
    """``n`` opponents playing ``opp``, in words: "3 random players", "a random player"."""
    if opp == "expert":
        return f"{n} experts" if n > 1 else "an expert"
    if n > 1:
        return display_players(opp, n)
    words = display_players(opp).removesuffix("players") + "player"
    return ("an " if words[0] in "aeiou" else "a ") + words


# the agent stands out; the reference rows keep one colour each on every ladder
COLOURS = {"agent": "#d1495b", "random": "#6b6b6b", "best": "#2e6fba", "expert": "#1b7f3b"}
COLOURS["see-all-hands"] = "#c9a227"


def _who(player: str, best: str | None) -> str:
    if player == best:
        return f"built-in {player} (best built-in)"
    return WHO.get(player, player)


def short_name(agent: str) -> str:
    """The agent's name for a title: ``FILE.py:NAME`` without the folders."""
    where, sep, name = agent.strip().rpartition(":")
    if sep and where.endswith(".py"):
        return f"{Path(where).name}:{name}"
    return agent.strip()


def _rate(r) -> str:
    return f"{pct(r.win_rate)} of rounds (95% interval {pct(r.ci_low)} to {pct(r.ci_high)})"


def _against(agent: pd.Series, other: pd.Series | None, name: str) -> str:
    """How the agent's rate compares with ``other``'s, in words."""
    if other is None:
        return ""
    d = 100.0 * (agent.win_rate - other.win_rate)
    if not noticeable(d, rate=True):
        return f", no practical difference from {name} ({pct(other.win_rate)})"
    if agent.ci_low > other.ci_high or agent.ci_high < other.ci_low:
        side = "more" if d > 0 else "less"
        return f", {abs(d):.1f} percentage points {side} than {name} ({pct(other.win_rate)})"
    return f"; these rounds cannot tell it apart from {name} ({pct(other.win_rate)})"


def lead_sentences(lad: Ladder, n_players: int) -> list[str]:
    """The page's opening: the agent against the first and the last opponents, each
    beside the best built-in on the same deals (or built-in random when none was tried)."""
    t = lad.table
    opps = list(dict.fromkeys(t["opponents"]))
    out = []
    for opp in dict.fromkeys([opps[0], opps[-1]]):
        rows = t[t["opponents"] == opp].set_index("player")
        if "agent" not in rows.index:
            continue
        a = rows.loc["agent"]
        ref, name = None, ""
        if lad.best is not None and lad.best in rows.index:
            ref, name = rows.loc[lad.best], f"built-in {lad.best}, the best built-in"
        elif "random" in rows.index:
            ref, name = rows.loc["random"], "built-in random"
        out.append(
            f"Against {_opponents(opp, n_players - 1)} the agent wins {_rate(a)}"
            f"{_against(a, ref, name)}."
        )
    out.append(f"A player with no edge wins {pct(1.0 / n_players)} at {n_players} players.")
    return out


def _figure(page: Page, lad: Ladder, n_players: int) -> None:
    from . import figures

    t = lad.table
    rows = pd.DataFrame(
        {
            "group": [f"against {_opponents(o, n_players - 1)}" for o in t["opponents"]],
            "name": [_who(p, lad.best) for p in t["player"]],
            "est": 100.0 * t["win_rate"],
            "lo": 100.0 * t["ci_low"],
            "hi": 100.0 * t["ci_high"],
        }
    )
    fig = figures.forest(
        rows,
        xlabel="rounds won (%), 95% intervals",
        fmt="{:.1f}%",
        palette={_who(p, lad.best): COLOURS.get(p, COLOURS["best"]) for p in t["player"]},
        ref=100.0 / n_players,
    )
    page.figure(
        fig,
        PAGE_NAME,
        f"Rounds won by each player against each group of opponents, on the same deals "
        f"(the grey line: {pct(1.0 / n_players)}, a player with no edge).",
    )


@dataclass(frozen=True)
class Made:
    """How a ladder was made, for its page: ``agent`` is the text that named the agent,
    ``label`` its seat label (name and file hash), both outside text; ``facts`` are shown
    in the provenance list as they are (markup)."""

    agent: str
    label: str
    rules: str
    n_players: int
    seed: int
    command: str
    facts: dict[str, str] = field(default_factory=dict)


def build_page(lad: Ladder, out: Path, made: Made) -> Page:
    """The ladder's page in folder ``out`` (written by the caller with ``Page.write``)."""
    agent, rules, n_players = made.agent, made.rules, made.n_players
    page = Page(
        PAGE_NAME,
        f"Strength ladder: {esc.md_text(short_name(agent))}",
        f"How often does this agent win a round of {esc.md_text(display_preset(rules))} at "
        f"{n_players} players against built-in opponents of rising strength, beside "
        "built-in players on the same deals?",
        out,
    )
    page.opening = lead_sentences(lad, n_players)
    page.lead(" ".join(page.opening))
    _figure(page, lad, n_players)
    page.heading("The ladder")
    page.para(
        "Each row plays every seat in turn on the same pre-declared deals, which do not "
        "depend on the agent; rows with an expert at the table play the first of them. "
        "The expert seeing every hand is the same search dealt the true hands: an upper "
        "bound of what knowing the hidden cards is worth, not a fair player."
    )
    t = lad.table
    page.table(
        pd.DataFrame(
            {
                "player": [esc.md_text(_who(p, lad.best)) for p in t["player"]],
                "against": [_opponents(o, n_players - 1) for o in t["opponents"]],
                "rounds": [f"{r:,}" for r in t["rounds"]],
                "rounds won [95% interval]": [
                    f"{pct(w)} [{pct(lo)}, {pct(hi)}]"
                    for w, lo, hi in zip(t["win_rate"], t["ci_low"], t["ci_high"])
                ],
                "played": [
                    "earlier (cache)" if (p, o) in lad.cached else "now"
                    for p, o in zip(t["player"], t["opponents"])
                ],
            }
        ),
        align=["l", "l", "r", "r", "l"],
    )
    if lad.cached:
        page.para(
            f"{len(lad.cached)} rows of built-in players were read from the cache of an "
            "earlier ladder on the same deals (each checked with this user's key); "
            f"{esc.code('--no-cache')} plays them again."
        )
    page.para(f"The same rows as a table of numbers: [{esc.code('ladder.csv')}](ladder.csv).")
    page.provenance(
        [made.command],
        {
            "agent": f"{esc.code(agent)}, seated as {esc.code(made.label)}",
            "rules": esc.code(rules),
            "players": str(n_players),
            "root seed of the deals": str(made.seed),
            "expert": esc.code(lad.expert),
            **made.facts,
        },
        pd.DataFrame(),
    )
    return page


def write_page(lad: Ladder, out: Path, made: Made) -> Path:
    """Write ``out/ladder.md``, ``.html`` and ``out/ladder/`` (the figure): built in a
    temporary folder inside ``out``, then moved into place file by file (the figure's
    folder first). Returns the HTML page's path."""
    out = Path(out)
    tmp = Path(tempfile.mkdtemp(prefix=f".{PAGE_NAME}.tmp-", dir=out))
    try:
        page = build_page(lad, tmp, made)
        page.write()
        swap_in(tmp / PAGE_NAME, out / PAGE_NAME)
        for suffix in (".md", ".html"):
            os.replace(tmp / f"{PAGE_NAME}{suffix}", out / f"{PAGE_NAME}{suffix}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out / f"{PAGE_NAME}.html"
