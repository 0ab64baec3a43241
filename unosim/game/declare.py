"""Declared cards: new cards described in a rule file (``[cards.NAME]``, docs/cards.md).

A declaration is a :class:`CardSpec`; :func:`parse_cards` reads the ``cards`` table of a
rule file, checks every field within bounds (one-line errors naming the file, the card
and the field) and gives the specs in the file's order: the ``d``-th is the kernel's
declared card ``d`` (``kernel.core.kinds``). :func:`kernel_block` writes one spec into the
rule array as the integers the kernel reads (``layout.D_*``, ``OP_*``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..kernel.core import kinds as KK
from ..kernel.core import layout as L

MAX_CARDS = KK.MAX_DECLARED  # declared cards in one rule set
MAX_STEPS = L.MAX_STEPS  # steps of one card's effect, name_colour included
MAX_N = 10  # cards one draw step makes a player draw
MAX_CARD_COPIES = 20  # copies of a declared card (per colour for coloured cards)
MAX_CARD_POINTS = 10_000

COLOURS = ("each", "wild")
MATCHES = ("rank", "colour", "anything")
# every primitive: its word, then the targets it takes (() for none); "draw" takes N first
PRIMITIVES: dict[str, tuple[str, ...]] = {
    "draw": ("next", "others", "chosen"),
    "draw_until_colour": ("next",),
    "skip": ("next", "everyone"),
    "spend_turn": ("next",),
    "reverse": (),
    "name_colour": (),
    "discard_colour": ("own", "victim"),
    "again": (),
    "swap": ("chosen",),
    "pass_hands": (),
    "deal_hands": (),
}
OPS = {
    "draw next": L.OP_DRAW_NEXT,
    "draw others": L.OP_DRAW_OTHERS,
    "draw chosen": L.OP_DRAW_CHOSEN,
    "skip next": L.OP_SKIP_NEXT,
    "skip everyone": L.OP_SKIP_ALL,
    "reverse": L.OP_REVERSE,
    "discard_colour own": L.OP_DISCARD_OWN,
    "discard_colour victim": L.OP_DISCARD_VICTIM,
    "again": L.OP_AGAIN,
    "swap chosen": L.OP_SWAP,
    "pass_hands": L.OP_PASS,
    "deal_hands": L.OP_DEAL,
    "spend_turn next": L.OP_SPEND_TURN,
    "draw_until_colour next": L.OP_DRAW_UNTIL_COLOUR,
    "name_colour": L.OP_NAME_AGAIN,  # a second name_colour (the first is not a step)
}
FIELDS = ("colours", "copies", "points", "matches", "stack", "effect")
_NAME = re.compile(r"[a-z][a-z0-9_]{0,23}")


class CardError(ValueError):
    """A declaration that cannot be played; the one-line message names card and field."""


@dataclass(frozen=True)
class CardSpec:
    """One declared card. ``effect`` holds its steps as normalised text
    (``"draw 6 next"``, ``"skip everyone"``, ``"name_colour"``)."""

    name: str
    colours: str = "each"
    copies: int = 2
    points: int = 20
    matches: str = "rank"
    stack: bool = False
    effect: tuple[str, ...] = ()

    @property
    def wild(self) -> bool:
        return self.colours == "wild"

    @property
    def names_colour(self) -> bool:
        return "name_colour" in self.effect

    def steps(self) -> list[tuple[str, int]]:
        """The steps but the first name_colour (which names the colour as the card is
        placed) as (operation key of ``OPS``, number); a later name_colour is a step."""
        out = []
        named = False
        for s in self.effect:
            w = s.split()
            if w[0] == "name_colour" and not named:
                named = True
                continue
            if w[0] == "draw":
                out.append((f"draw {w[2]}", int(w[1])))
            else:
                out.append((" ".join(w), 0))
        return out

    def to_dict(self) -> dict:
        return {
            "colours": self.colours,
            "copies": self.copies,
            "points": self.points,
            "matches": self.matches,
            "stack": self.stack,
            "effect": list(self.effect),
        }


def _builtin_names() -> set[str]:
    from . import cards

    return set(cards.RANK_NAMES) | set(cards.WILD_NAMES) | set(cards.POINT_FAMILIES)


def _step(where: str, i: int, text: Any) -> str:
    at = f"{where}: effect step {i + 1}"
    if not isinstance(text, str):
        raise CardError(f"{at} must be text like 'draw 2 next', got {text!r}")
    w = text.split()
    if not w or w[0] not in PRIMITIVES:
        raise CardError(f"{at} {text!r}: unknown primitive (known: {', '.join(PRIMITIVES)})")
    targets = PRIMITIVES[w[0]]
    if w[0] == "draw":
        if len(w) != 3 or not re.fullmatch(r"[0-9]+", w[1]):
            raise CardError(f"{at} {text!r} must be 'draw N {'|'.join(targets)}'")
        if not 1 <= int(w[1]) <= MAX_N:
            raise CardError(f"{at} {text!r}: N must be 1 to {MAX_N}")
        if w[2] not in targets:
            raise CardError(f"{at} {text!r}: target must be one of {', '.join(targets)}")
        return f"draw {int(w[1])} {w[2]}"
    if not targets:
        if len(w) != 1:
            raise CardError(f"{at} {text!r}: {w[0]} takes no target")
        return w[0]
    if len(w) != 2 or w[1] not in targets:
        raise CardError(f"{at} {text!r}: target must be one of {', '.join(targets)}")
    return f"{w[0]} {w[1]}"


def _int(where: str, key: str, v: Any, lo: int, hi: int) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise CardError(f"{where}: {key} must be a whole number from {lo} to {hi}, got {v!r}")
    return v


def parse_card(name: Any, d: Any, where: str = "") -> CardSpec:
    """One ``[cards.NAME]`` table as a :class:`CardSpec`; ``where`` names the file."""
    head = f"{where}: card {name!r}" if where else f"card {name!r}"
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise CardError(f"{head}: a name is 1-24 lower-case letters, digits or _")
    if name in _builtin_names():
        raise CardError(f"{head}: the name of a built-in card")
    if not isinstance(d, dict):
        raise CardError(f"{head} must be a table")
    unknown = sorted(set(d) - set(FIELDS))
    if unknown:
        raise CardError(f"{head}: unknown field {unknown[0]!r} (known: {', '.join(FIELDS)})")
    colours = d.get("colours", "each")
    if colours not in COLOURS:
        raise CardError(f"{head}: colours must be 'each' or 'wild', got {colours!r}")
    wild = colours == "wild"
    copies = _int(head, "copies", d.get("copies", 4 if wild else 2), 1, MAX_CARD_COPIES)
    points = _int(head, "points", d.get("points", 50 if wild else 20), 0, MAX_CARD_POINTS)
    matches = d.get("matches", "anything" if wild else "rank")
    if matches not in MATCHES:
        raise CardError(f"{head}: matches must be one of {', '.join(MATCHES)}, got {matches!r}")
    if wild and matches != "anything":
        raise CardError(f"{head}: matches of a wild card is 'anything'")
    stack = d.get("stack", False)
    if not isinstance(stack, bool):
        raise CardError(f"{head}: stack must be true or false, got {stack!r}")
    raw = d.get("effect", [])
    if not isinstance(raw, list):
        raise CardError(f"{head}: effect must be a list of steps")
    if len(raw) > MAX_STEPS:
        raise CardError(f"{head}: effect has {len(raw)} steps, at most {MAX_STEPS}")
    effect = tuple(_step(head, i, s) for i, s in enumerate(raw))
    if wild and "name_colour" not in effect:
        raise CardError(f"{head}: a wild card's effect must include name_colour")
    if stack:
        rest = list(effect)
        if "name_colour" in rest:
            rest.remove("name_colour")  # the first: named as the card is placed
        if len(rest) != 1 or not (rest[0].startswith("draw ") and rest[0].endswith(" next")):
            raise CardError(
                f"{head}: stack = true needs exactly one step 'draw N next' (and name_colour)"
            )
    return CardSpec(name, colours, copies, points, matches, stack, effect)


def parse_cards(table: Any, where: str = "") -> tuple[CardSpec, ...]:
    """The ``cards`` table of a rule file, in its order; ``where`` names the file."""
    head = f"{where}: cards" if where else "cards"
    if isinstance(table, (tuple, list)) and all(isinstance(c, CardSpec) for c in table):
        return tuple(table)
    if not isinstance(table, dict):
        raise CardError(f"{head} must be a table of [cards.NAME] tables")
    if len(table) > MAX_CARDS:
        raise CardError(f"{head}: {len(table)} cards declared, at most {MAX_CARDS}")
    return tuple(parse_card(name, d, where) for name, d in table.items())


def check_cards(specs: Any) -> None:
    """Raise CardError unless ``specs`` is a valid tuple of declarations."""
    if not isinstance(specs, tuple) or not all(isinstance(c, CardSpec) for c in specs):
        raise CardError("rule 'cards' must be a tuple of CardSpec (or a [cards] table)")
    if len(specs) > MAX_CARDS:
        raise CardError(f"cards: {len(specs)} cards declared, at most {MAX_CARDS}")
    names = [c.name for c in specs]
    if len(set(names)) != len(names):
        raise CardError("cards: a card is declared twice")
    for c in specs:  # a CardSpec made in Python is checked as a file's would be
        parse_card(c.name, c.to_dict())


_AT_NEXT = (
    "draw next",
    "draw_until_colour next",
    "skip next",
    "spend_turn next",
    "discard_colour victim",
)


def _attack(steps: list[tuple[str, int]]) -> tuple[int, int, int]:
    """(attack, cards drawn, swap) summary for the players' scores (``scoring.py``)."""
    ops = [op for op, _ in steps]
    drawn = sum(max(x, 1) for op, x in steps if op.startswith("draw"))  # until colour: 1+
    if any(op in ("draw others", "draw chosen", "skip everyone", "again") for op in ops):
        attack = KK.ATTACK_OTHERS
    elif any(op in _AT_NEXT for op in ops):
        attack = KK.ATTACK_NEXT
    elif "reverse" in ops:
        attack = KK.ATTACK_HEADS_UP
    else:
        attack = KK.ATTACK_NONE
    swap = KK.SWAP_NONE
    for op, code in (("deal_hands", KK.SWAP_ALL), ("pass_hands", KK.SWAP_ROTATE)):
        if op in ops:
            swap = code
    if "swap chosen" in ops:
        swap = KK.SWAP_ONE
    return attack, drawn, swap


def kernel_block(spec: CardSpec) -> list[int]:
    """The declared card's ``layout.DC_W`` integers (``layout.D_*`` fields)."""
    b = [0] * L.DC_W
    steps = spec.steps()
    attack, drawn, swap = _attack(steps)
    b[L.D_WILD] = int(spec.wild)
    b[L.D_NAMES] = int(spec.names_colour)
    b[L.D_PENALTY] = steps[0][1] if spec.stack else 0
    b[L.D_ATTACK], b[L.D_DRAWS], b[L.D_SWAP] = attack, drawn, swap
    b[L.D_N_STEPS] = len(steps)
    for i, (op, x) in enumerate(steps):
        b[L.D_STEPS + 2 * i] = OPS[op]
        b[L.D_STEPS + 2 * i + 1] = x
    return b


def write_array(specs: tuple[CardSpec, ...], a: Any) -> None:
    """Write the declared cards into the rule array ``a`` (``RuleSet.to_array``)."""
    a[L.DC_N] = len(specs)
    for d, spec in enumerate(specs):
        rank = KK.DECLARED_RANK + d
        if not spec.wild and spec.matches == "anything":
            a[L.DC_ANYWHERE] |= 1 << rank
        if not spec.wild and spec.matches == "colour":
            a[L.DC_COLOUR_ONLY] |= 1 << rank
        if spec.stack:
            a[L.DC_STACKS] |= 1 << d
        a[L.DC0 + d * L.DC_W : L.DC0 + (d + 1) * L.DC_W] = kernel_block(spec)
