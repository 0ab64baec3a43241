"""One line from the rules atlas for a rule set and a table size, if the atlas covers
them and its data is on this disk (``reports/atlas/data/`` in a clone, ``make atlas``):
what ``unosim play`` shows after a round."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..game.rules import RuleSet
from . import atlas_grid as G
from .atlas_data import read_data_file

DATA = Path(__file__).resolve().parents[2] / "reports" / "atlas" / "data"
MAX_FILE = 8 << 20  # bytes of one atlas data file, at most


def atlas_key(rs: RuleSet) -> str | None:
    """The atlas's key of ``rs`` (same rules, any name), or None if the grid lacks it."""
    want = rs.hash()
    values = tuple(getattr(rs, s, None) for s in G.SWITCH_NAMES)
    if any(v not in vals for v, (_, vals) in zip(values, G.SWITCHES)) or not G.valid(values):
        return None
    for deck in range(len(G.DECKS)):
        key = G.key_of(deck, values)
        try:
            if G.rule_set(key).hash() == want:
                return key
        except ValueError:
            continue
    return None


@lru_cache(maxsize=8)
def _group(name: str) -> dict:
    """The cells of the atlas's data file ``name`` (``atlas_data``'s packed form), or
    an empty dict: no file, too large, another group's or not readable."""
    path = DATA / f"{name}.js"
    if not path.is_file() or path.stat().st_size > MAX_FILE:
        return {}
    try:
        found, cells = read_data_file(path.read_text("utf-8"))
    except ValueError:
        return {}
    return cells if found == name else {}


def atlas_line(rs: RuleSet, n_players: int, opponents: tuple[str, ...] = ()) -> str | None:
    """One sentence on these rules at this table size from the atlas, or None."""
    key = atlas_key(rs)
    if key is None or n_players not in G.PLAYERS:
        return None
    strategy = "table" if opponents and all(o == "table" for o in opponents) else "random"
    deck = G.DECKS[int(key[0])][0]
    cell = _group(f"{strategy}-{deck}-{n_players}").get(G.sim_key(key, strategy))
    if not cell:
        return None
    m = G.cell_metrics(cell, n_players)
    return (
        f"The rules atlas, {int(m['rounds']):,} rounds of {n_players} {strategy} players "
        f"with these rules: a round lasts {m['turns_mean']:.1f} turns on average (median "
        f"{m['turns_median']:g}), and the seat that plays first wins "
        f"{100 * m['seat0_rate']:.1f}% of them (an even share: {100 / n_players:.1f}%)."
    )
