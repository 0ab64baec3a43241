"""One colour per rule set and per strategy, the same on every page and figure.

Colours come from the colour-blind-friendly qualitative schemes of Okabe & Ito (2008)
and of Paul Tol (muted and bright): the six editions take the Okabe-Ito colours, with
`official` (the usual baseline) black; the house-rule presets take Okabe-Ito's
vermillion and Tol's muted colours. Strategies take Tol's bright scheme. No scheme has
eleven colours that every kind of colour blindness tells apart, so figures should also
label their lines and markers, not rely on colour alone.

Any other name (a TOML file, ``preset+key=value``, a strategy with parameters beyond
its name) gets a colour from a fallback list chosen by a stable hash of the name:
the same name, the same colour, in every process. :func:`colours` gives a list of
names distinct colours where it can (fallback names take unused fallback colours).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

__all__ = ["PRESET_COLOURS", "STRATEGY_COLOURS", "FALLBACK", "colour", "colours"]

PRESET_COLOURS = {
    # editions: Okabe-Ito
    "official": "#000000",
    "official-2018": "#0072B2",
    "pokemon": "#E69F00",
    "motu": "#CC79A7",
    "copag": "#009E73",
    "portugal": "#56B4E9",
    # house-rule presets: Okabe-Ito vermillion and Tol muted
    "stacking": "#D55E00",
    "progressive": "#882255",
    "seven-zero": "#999933",
    "jump-in": "#332288",
    "draw-until-playable": "#44AA99",
}

STRATEGY_COLOURS = {  # Tol bright
    "random": "#4477AA",
    "heuristic": "#EE6677",
    "table": "#228833",
    "weighted": "#CCBB44",
    "points-dumper": "#66CCEE",
    "aggressive": "#AA3377",
    "colour-counter": "#BBBBBB",
}

# for other names: Tol muted colours and greys not used above
FALLBACK = ("#117733", "#AA4499", "#661100", "#6699CC", "#DDCC77", "#88CCEE", "#555555", "#997700")


def _known(name: str) -> str | None:
    return PRESET_COLOURS.get(name, STRATEGY_COLOURS.get(name))


def _hashed(name: str) -> int:
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:4], "big")


def colour(name: str) -> str:
    """The colour (``#RRGGBB``) of a preset, a strategy, or any other name.

    Presets and plain strategy names have fixed colours; anything else (a TOML file,
    ``official+stacking=same``, ``heuristic:bluff=0.3``) one of :data:`FALLBACK`,
    chosen by a stable hash of the name.
    """
    name = str(name)
    known = _known(name)
    if known is not None:
        return known
    return FALLBACK[_hashed(name) % len(FALLBACK)]


def colours(names: Iterable[str]) -> dict[str, str]:
    """A colour for each name, distinct where possible: known names keep theirs; the
    others take, in order, their hashed fallback colour if no name so far has it, else
    the first fallback colour not yet used (the hashed one when all are)."""
    out: dict[str, str] = {}
    names = list(dict.fromkeys(str(n) for n in names))
    for n in names:
        known = _known(n)
        if known is not None:
            out[n] = known
    for n in names:
        if n in out:
            continue
        used = set(out.values())
        want = colour(n)
        if want in used:
            want = next((c for c in FALLBACK if c not in used), want)
        out[n] = want
    return out
