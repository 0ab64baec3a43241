"""Card kinds as small integers, their lookup tables, and deck builders (RULES.md section 2).

A *kind* is one of ``N_KINDS`` integers. Coloured kinds come first, one block of
``N_RANKS`` per colour: ``kind = colour * N_RANKS + rank`` with ranks 0-9 the numbers,
then Skip, Reverse, Draw Two. Wild-type kinds follow (``WILD`` .. ``GRAYSKULL``); they
have no colour (``COLOUR[kind] == -1``) and no rank (``RANK[kind] == -1``).

Declared cards (docs/cards.md) take the reserved kinds after the built-in ones
(``kernel.core.kinds``); their names come from the rule set (``names`` arguments below: the
declared cards' names in declaration order).

A deck is a count per kind (``int16[N_KINDS]``), so any edition or custom deck is data.
"""

from __future__ import annotations

import numpy as np

from ..kernel.core.kinds import (  # noqa: F401  (the kernel's tables, published here)
    COLOUR,
    CUSTOMIZABLE,
    DECLARED_COLOURED,
    DECLARED_RANK,
    DECLARED_WILD,
    DRAW_TWO,
    GRAYSKULL,
    GRENINJA,
    KIND_AT,
    N_BUILTIN_KINDS,
    N_COLOURED,
    N_COLOURS,
    N_KINDS,
    N_RANKS,
    RANK,
    REVERSE,
    SHUFFLE_HANDS,
    SKIP,
    SNORLAX,
    WILD,
    WILD_DRAW_FOUR,
)

COLOURS = ("red", "yellow", "green", "blue")
COLOUR_LETTERS = "RYGB"
RANK_NAMES = tuple(str(r) for r in range(10)) + ("skip", "reverse", "draw_two")
RANK_SYMBOLS = tuple(str(r) for r in range(10)) + ("S", "R", "+2")
WILD_KINDS = (WILD, WILD_DRAW_FOUR, SHUFFLE_HANDS, CUSTOMIZABLE, SNORLAX, GRENINJA, GRAYSKULL)
WILD_NAMES = (
    "wild",
    "wild_draw_four",
    "shuffle_hands",
    "customizable",
    "snorlax",
    "greninja",
    "grayskull",
)
WILD_SYMBOLS = ("W", "W+4", "WSH", "WC", "SNX", "GRN", "PoG")

# Names used in rule files for the points of each card family (RULES.md section 2).
POINT_FAMILIES = ("number", "skip", "reverse", "draw_two") + WILD_NAMES
DEFAULT_POINTS = {
    "number": -1,
    "skip": 20,
    "reverse": 20,
    "draw_two": 20,
    **{name: 50 for name in WILD_NAMES},
}  # number: -1 means face value


def kind(colour: int, rank: int) -> int:
    """Kind of the coloured card ``(colour, rank)``."""
    return colour * N_RANKS + rank


def declared_slot(k: int) -> int:
    """The declared card (0 .. MAX_DECLARED - 1) of kind ``k``, or -1 for a built-in kind."""
    if k < N_BUILTIN_KINDS:
        return -1
    if k < DECLARED_COLOURED:
        return k - DECLARED_WILD
    return (k - DECLARED_COLOURED) // N_COLOURS


def kind_name(k: int, names: tuple[str, ...] = ()) -> str:
    """Short readable name of a kind: ``R7``, ``G+2``, ``BS``, ``W+4``; a declared card
    by its name (``names``, in declaration order): ``wild_draw_six``, ``R:discard_all``
    (``X1``, ``RX1``... without names)."""
    d = declared_slot(k)
    if d >= 0:
        c = int(COLOUR[k])
        if d >= len(names):
            return ("" if c < 0 else COLOUR_LETTERS[c]) + f"X{d + 1}"
        return names[d] if c < 0 else f"{COLOUR_LETTERS[c]}:{names[d]}"
    if k >= N_COLOURED:
        return WILD_SYMBOLS[k - N_COLOURED]
    return COLOUR_LETTERS[k // N_RANKS] + RANK_SYMBOLS[k % N_RANKS]


def parse_kind(text: str, names: tuple[str, ...] = ()) -> int:
    """Inverse of :func:`kind_name` (case-insensitive)."""
    t = text.strip().upper()
    for k in range(N_KINDS):
        if kind_name(k, names).upper() == t:
            return k
    raise ValueError(f"unknown card {text!r}")


def declared_kinds(d: int, wild: bool) -> list[int]:
    """The kinds of declared card ``d``: one if wild, one per colour if not."""
    if wild:
        return [DECLARED_WILD + d]
    return [int(KIND_AT[c, DECLARED_RANK + d]) for c in range(N_COLOURS)]


def points_table(points: dict[str, int], declared: tuple = ()) -> np.ndarray:
    """Points of every kind, ``int16[N_KINDS]``, from per-family points (-1 = face value)
    and the declared cards' (``declare.CardSpec``)."""
    out = np.zeros(N_KINDS, dtype=np.int16)
    for d, spec in enumerate(declared):
        for k in declared_kinds(d, spec.wild):
            out[k] = spec.points
    for k in range(N_COLOURED):
        r = k % N_RANKS
        if r < 10:
            p = points["number"]
            out[k] = r if p < 0 else p
        else:
            out[k] = points[RANK_NAMES[r]]
    for i, name in enumerate(WILD_NAMES):
        out[N_COLOURED + i] = points[name]
    return out


# Deck composition: per-colour counts of each rank, and counts of each wild-type kind.
STANDARD_PER_COLOUR = {
    "0": 1,
    **{str(r): 2 for r in range(1, 10)},
    "skip": 2,
    "reverse": 2,
    "draw_two": 2,
}
STANDARD_WILDS = {
    "wild": 4,
    "wild_draw_four": 4,
    "shuffle_hands": 0,
    "customizable": 0,
    "snorlax": 0,
    "greninja": 0,
    "grayskull": 0,
}


def deck_counts(
    per_colour: dict[str, int], wilds: dict[str, int], declared: tuple = ()
) -> np.ndarray:
    """Count of each kind in a deck, ``int16[N_KINDS]``.

    Parameters
    ----------
    per_colour : copies of each rank in every colour, keys ``"0"``..``"9"``,
        ``"skip"``, ``"reverse"``, ``"draw_two"``.
    wilds : copies of each wild-type kind, keys from ``WILD_NAMES``.
    declared : the declared cards (``declare.CardSpec``): ``copies`` of each kind.
    """
    out = np.zeros(N_KINDS, dtype=np.int16)
    for d, spec in enumerate(declared):
        for k in declared_kinds(d, spec.wild):
            out[k] = spec.copies
    for r, name in enumerate(RANK_NAMES):
        for c in range(N_COLOURS):
            out[kind(c, r)] = per_colour.get(name, 0)
    for i, name in enumerate(WILD_NAMES):
        out[N_COLOURED + i] = wilds.get(name, 0)
    return out


def standard_deck() -> np.ndarray:
    """The 108-card standard deck as counts per kind."""
    return deck_counts(STANDARD_PER_COLOUR, STANDARD_WILDS)
