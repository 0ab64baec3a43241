"""The rule set: every named rule of RULES.md, declared once, with presets, TOML, hash.

Each rule is declared once in ``RULES`` (name, RULES.md section, type and choices,
default, bounds, one line of description). From that list follow the :class:`RuleSet`
fields, their validation, the TOML and ``--house`` parsing, the kernel's rule array
(``to_array``: slot ``layout.R_<NAME>``, encoded by type), ``unosim rules show`` and the
rules table of ``docs/rules.md`` (:func:`rules_table`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from . import cards
from .declare import CardError, CardSpec, check_cards, parse_cards, write_array
from .spelling import did_you_mean, missing_file_hint

DECK_KEYS = cards.RANK_NAMES + cards.WILD_NAMES  # per colour for ranks, in all for wilds
STANDARD_DECK = tuple(cards.STANDARD_PER_COLOUR[k] for k in cards.RANK_NAMES) + tuple(
    cards.STANDARD_WILDS[k] for k in cards.WILD_NAMES
)
STANDARD_POINTS = tuple(cards.DEFAULT_POINTS[k] for k in cards.POINT_FAMILIES)

# The rules format (``versions.RULES_FORMAT_VERSION``): a rule's ``since``. The hash
# covers every format-1 rule (so the hashes of format 1 stay as they were) and each later
# rule only when it differs from its default.

MAX_COPIES = 127  # copies of one card kind (int8 piles, int16 hands)
MAX_DECK = 1000  # cards in a deck
MAX_POINTS = 10_000  # points of one card
MAX_TOTAL = 10**12  # target_score, elimination_score: int64 totals stay far from overflow


@dataclass(frozen=True)
class Rule:
    """One rule of RULES.md.

    ``type`` is ``int``, ``bool``, ``float``, ``choice`` (one of ``choices``), or
    ``deck``/``points``/``cards`` (tables; ``cards``: declared cards, docs/cards.md).
    ``bounds`` (inclusive) apply to ``int`` and ``float``. ``since`` is the rules format
    that added it. ``kernel``: the kernel reads it from slot ``layout.R_<NAME>`` of the
    rule array.
    """

    name: str
    section: str
    type: str
    default: object
    doc: str
    choices: tuple[str, ...] = ()
    bounds: tuple[float, float] | None = None
    since: int = 1
    kernel: bool = True

    @property
    def slot_name(self) -> str:
        return "R_" + self.name.upper()

    def encode(self, value: Any) -> int:
        """The value as the kernel's int64 code."""
        if self.type == "choice":
            return self.choices.index(value)
        if self.type == "float":  # a probability, in 32-bit fixed point
            return int(round(value * 2**32))
        return int(value)

    def show_values(self) -> str:
        if self.type == "choice":
            return ", ".join(f"`{c}`" for c in self.choices)
        if self.type == "bool":
            return "`true`, `false`"
        if self.bounds is not None:
            lo, hi = self.bounds
            return f"{lo:,} to {hi:,}" if self.type == "int" else f"{lo} to {hi}"
        return "table"


RULES: tuple[Rule, ...] = (
    Rule("hand_size", "3", "int", 7, "cards dealt to each player", bounds=(1, MAX_DECK)),
    Rule(
        "deck",
        "2",
        "deck",
        STANDARD_DECK,
        "copies of each card: per colour for "
        "`0`..`9`, `skip`, `reverse`, `draw_two`; in all for each wild-type card",
        kernel=False,
    ),
    Rule(
        "points",
        "2",
        "points",
        STANDARD_POINTS,
        "points of each card family (`number = -1`: face value)",
        kernel=False,
    ),
    Rule(
        "blank_card",
        "2",
        "choice",
        "wild",
        "what a Wild Customizable does",
        choices=("wild", "swap_hands"),
    ),
    Rule(
        "voluntary_draw",
        "4.2",
        "bool",
        True,
        "a player may draw while holding a legal "
        "card (no built-in strategy does; the move checker enforces it)",
        kernel=False,
    ),
    Rule(
        "draw_rule",
        "4.2, 8.4",
        "choice",
        "one",
        "draw one card, or until a legal one (which must be played)",
        choices=("one", "until_playable"),
    ),
    Rule(
        "wd4_restriction",
        "4.3, 8.5, 8.10",
        "choice",
        "colour",
        "Wild Draw Four only "
        "without a card of the current colour, always, or only without another legal "
        "card",
        choices=("colour", "none", "strict"),
    ),
    Rule("challenge", "4.3", "bool", True, "the next player may challenge a Wild Draw Four"),
    Rule(
        "challenge_penalty",
        "4.3, 8.7",
        "int",
        2,
        "extra cards a failed challenger draws",
        bounds=(0, 100),
    ),
    Rule(
        "catch_uno",
        "4.4",
        "float",
        1.0,
        "probability that a forgotten UNO call is caught",
        bounds=(0.0, 1.0),
    ),
    Rule(
        "uno_penalty", "4.4, 8.7", "int", 2, "cards drawn for a forgotten UNO call", bounds=(0, 100)
    ),
    Rule(
        "scoring",
        "5",
        "choice",
        "winner_takes_all",
        "who scores the hands left",
        choices=("winner_takes_all", "each_own_negative"),
    ),
    Rule(
        "max_turns",
        "5",
        "int",
        5000,
        "turns after which a round stops, flagged `truncated`",
        bounds=(1, 1_000_000),
    ),
    Rule("target_score", "7", "int", 500, "points that win a match", bounds=(1, MAX_TOTAL)),
    Rule(
        "next_dealer",
        "7",
        "choice",
        "rotate",
        "who deals the next round of a match",
        choices=("rotate", "winner"),
    ),
    Rule(
        "penalty_elimination",
        "7",
        "bool",
        False,
        "seed 000's match: penalised hand "
        "points add up, a player reaching `elimination_score` is out",
    ),
    Rule(
        "elimination_score",
        "7",
        "int",
        500,
        "penalty points that eliminate a player",
        bounds=(1, MAX_TOTAL),
    ),
    Rule(
        "max_rounds",
        "7",
        "int",
        1000,
        "the project's safety stop (not a printed rule): "
        "rounds after which a match stops, flagged `truncated`",
        bounds=(1, 1_000_000),
    ),
    Rule(
        "stacking",
        "8.1",
        "choice",
        "none",
        "Draw Two / Wild Draw Four penalties may be stacked",
        choices=("none", "same", "progressive"),
    ),
    Rule("seven_zero", "8.2", "bool", False, "a 7 swaps hands, a 0 rotates every hand"),
    Rule("jump_in", "8.3", "bool", False, "an identical card may be played out of turn"),
    Rule("multi_play", "8.6", "bool", False, "identical cards and same-colour runs in one play"),
    Rule(
        "last_card",
        "8.8",
        "choice",
        "any",
        "a play that empties the hand may hold any card, or number cards only",
        choices=("any", "number"),
        since=2,
    ),
    Rule(
        "after_draw",
        "8.9",
        "choice",
        "play",
        "a legal card just drawn may be played, or the turn ends",
        choices=("play", "pass"),
        since=2,
    ),
    Rule(
        "cards",
        "2",
        "cards",
        (),
        "declared cards: `[cards.NAME]` tables of a rule file (docs/cards.md)",
        since=3,
        kernel=False,
    ),
)
RULE_BY_NAME = {r.name: r for r in RULES}
RULE_NAMES = tuple(RULE_BY_NAME)
KERNEL_RULES = tuple(r for r in RULES if r.kernel)
# allowed values of the rules with choices, in kernel code order
CHOICES: dict[str, tuple[str, ...]] = {r.name: r.choices for r in RULES if r.choices}
_ANNOTATION = {
    "int": "int",
    "bool": "bool",
    "float": "float",
    "choice": "str",
    "deck": "tuple[int, ...]",
    "points": "tuple[int, ...]",
    "cards": "tuple[CardSpec, ...]",
}


class RuleError(ValueError):
    """A rule name or value that does not exist; the message names it."""


_C = TypeVar("_C")


def _declared(cls: type[_C]) -> type[_C]:
    """Add one annotation and default per declared rule (after ``name``), from which
    ``dataclass`` makes the fields."""
    for r in RULES:
        cls.__annotations__[r.name] = _ANNOTATION[r.type]
        setattr(cls, r.name, r.default)
    return cls


if TYPE_CHECKING:
    _DEFAULT: Any = None  # stands for the declared default, which ``_declared`` sets


@dataclass(frozen=True)
@_declared
class RuleSet:
    """Every rule of RULES.md (one field per entry of ``RULES``), with its default (the
    `official` preset).

    ``deck`` holds copies per colour of each rank then copies of each wild-type kind,
    in ``DECK_KEYS`` order; ``points`` the points of each family in
    ``cards.POINT_FAMILIES`` order (-1 for numbers means face value).
    """

    name: str = "official"
    if TYPE_CHECKING:  # the fields ``_declared`` adds, spelled out for type checkers
        # (tests/test_rule_declarations.py checks they are the names, order and types
        # of RULES)
        hand_size: int = _DEFAULT
        deck: tuple[int, ...] = _DEFAULT
        points: tuple[int, ...] = _DEFAULT
        blank_card: str = _DEFAULT
        voluntary_draw: bool = _DEFAULT
        draw_rule: str = _DEFAULT
        wd4_restriction: str = _DEFAULT
        challenge: bool = _DEFAULT
        challenge_penalty: int = _DEFAULT
        catch_uno: float = _DEFAULT
        uno_penalty: int = _DEFAULT
        scoring: str = _DEFAULT
        max_turns: int = _DEFAULT
        target_score: int = _DEFAULT
        next_dealer: str = _DEFAULT
        penalty_elimination: bool = _DEFAULT
        elimination_score: int = _DEFAULT
        max_rounds: int = _DEFAULT
        stacking: str = _DEFAULT
        seven_zero: bool = _DEFAULT
        jump_in: bool = _DEFAULT
        multi_play: bool = _DEFAULT
        last_card: str = _DEFAULT
        after_draw: str = _DEFAULT
        cards: tuple[CardSpec, ...] = _DEFAULT

    def __post_init__(self) -> None:
        for f in fields(self):  # numpy scalars (np.int64(5)) stand for their values
            v = getattr(self, f.name)
            if isinstance(v, np.generic) or (
                isinstance(v, tuple) and any(isinstance(x, np.generic) for x in v)
            ):
                object.__setattr__(self, f.name, _plain(v))
        if isinstance(self.catch_uno, int) and not isinstance(self.catch_uno, bool):
            object.__setattr__(self, "catch_uno", float(self.catch_uno))  # one hash per value
        if isinstance(self.cards, (list, dict)):  # a table or list: read as a file's
            try:
                object.__setattr__(self, "cards", parse_cards(self.cards))
            except CardError as e:
                raise RuleError(str(e)) from None
        _check_name(self.name)
        for r in RULES:
            _check_value(r, getattr(self, r.name))
        counts = self.deck_counts()
        if int(counts.sum()) > MAX_DECK:
            raise RuleError(f"rule 'deck': at most {MAX_DECK} cards")
        if int(counts[: cards.N_COLOURED].sum()) == 0:
            raise RuleError("rule 'deck': the deck needs coloured cards")
        if self.after_draw == "pass" and self.draw_rule == "until_playable":  # 8.9
            raise RuleError(
                "rule 'after_draw': pass cannot be combined with draw_rule "
                "until_playable (which requires the drawn card to be played)"
            )

    # -- views -------------------------------------------------------------------------
    @property
    def deck_dict(self) -> dict[str, int]:
        return dict(zip(DECK_KEYS, self.deck))

    @property
    def points_dict(self) -> dict[str, int]:
        return dict(zip(cards.POINT_FAMILIES, self.points))

    def deck_counts(self) -> np.ndarray:
        """Copies of each kind, ``int16[N_KINDS]``."""
        d = self.deck_dict
        return cards.deck_counts(
            {k: d[k] for k in cards.RANK_NAMES},
            {k: d[k] for k in cards.WILD_NAMES},
            self.cards,
        )

    def deck_size(self) -> int:
        return int(self.deck_counts().sum())

    def points_table(self) -> np.ndarray:
        return cards.points_table(self.points_dict, self.cards)

    @property
    def card_names(self) -> tuple[str, ...]:
        """The declared cards' names, in declaration order (``cards.kind_name``)."""
        return tuple(c.name for c in self.cards)

    def check_players(self, n_players: int) -> None:
        """Raise RuleError unless ``n_players`` can play a round with this deck."""
        if not 2 <= n_players <= 10:
            raise RuleError(f"players must be between 2 and 10, got {n_players}")
        # 3: after the deal, the draw pile must hold a card that can start the discard
        # pile (a Wild Draw Four goes back), so it needs more than the Wild Draw Fours
        need = n_players * self.hand_size + 1 + self.deck_dict["wild_draw_four"]
        if need > self.deck_size():
            raise RuleError(
                f"deck of {self.deck_size()} cards is too small for {n_players} "
                f"players with hand_size {self.hand_size} (needs {need})"
            )

    def replace(self, **changes: Any) -> RuleSet:
        return dataclasses.replace(self, **changes)

    # -- serialisation -----------------------------------------------------------------
    def to_dict(self, with_name: bool = True) -> dict:
        d = {}
        for f in fields(self):
            if f.name == "name" and not with_name:
                continue
            v = getattr(self, f.name)
            d[f.name] = {"deck": self.deck_dict, "points": self.points_dict}.get(f.name, v)
        d["cards"] = {c.name: c.to_dict() for c in self.cards}
        if not self.cards:  # a rule set without declared cards reads as before them
            del d["cards"]
        return d

    def to_toml(self) -> str:
        """TOML text that :func:`load_toml` reads back to an equal RuleSet."""
        import tomli_w

        return tomli_w.dumps(self.to_dict())

    def hash_fields(self) -> dict:
        """What :meth:`hash` covers: every rule of rules format 1, and each later rule
        whose value differs from its default."""
        d = self.to_dict(with_name=False)
        for r in RULES:
            if r.since > 1 and getattr(self, r.name) == r.default:
                d.pop(r.name, None)
        return d

    def hash(self) -> str:
        """Stable content hash (the name is not part of it): 16 hex digits.

        Every rule of rules format 1 is hashed; a later rule only when it differs from
        its default (which keeps format 1's behaviour), so adding a rule changes no
        existing rule set's hash."""
        text = json.dumps(self.hash_fields(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def to_array(self) -> np.ndarray:
        """The kernel's view: ``int64[layout.N_RULES]``, rule ``r`` in slot
        ``layout.R_<NAME>`` encoded by ``Rule.encode``."""
        from ..kernel.core import layout as L

        a = np.zeros(L.N_RULE_ARRAY, dtype=np.int64)
        for r in KERNEL_RULES:
            a[getattr(L, r.slot_name)] = r.encode(getattr(self, r.name))
        write_array(self.cards, a)
        return a


def annotated_toml(rs: RuleSet) -> str:
    """``rs.to_toml()`` with each rule's RULES.md section and description above it
    (``unosim rules show``); reads back as the same RuleSet."""
    import tomli_w

    d = rs.to_dict()
    lines = [tomli_w.dumps({"name": d.pop("name")}).rstrip()]
    tables: list[str] = []
    for r in RULES:
        table = r.type in ("deck", "points", "cards")
        default = {"cards": "none"}.get(r.type, "standard") if table else _show(r.default)
        comment = f"# docs/rules.md {r.section}: {r.doc} ({r.show_values()}; default {default})"
        if r.name not in d:  # no declared cards: the comment alone
            tables.append(comment)
            continue
        text = tomli_w.dumps({r.name: d[r.name]}).rstrip()
        (tables if table else lines).append(f"{comment}\n{text}")
    return "\n".join(lines + [""] + tables) + "\n"


def _show(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


TABLE_START, TABLE_END = "<!-- rules-table:start -->", "<!-- rules-table:end -->"


def rules_table() -> str:
    """The Markdown table of every rule (``docs/rules.md``), from ``RULES``."""
    rows = ["| rule | section | values | default | what it does |", "|---|---|---|---|---|"]
    for r in RULES:
        default = "standard" if r.type in ("deck", "points") else f"`{_show(r.default)}`"
        default = "none" if r.type == "cards" else default
        rows.append(f"| `{r.name}` | {r.section} | {r.show_values()} | {default} | {r.doc} |")
    return "\n".join(rows) + "\n"


def update_rules_doc(path: str | Path) -> bool:
    """Rewrite the rules table between the markers of ``path``; True if it changed.

    ``unosim rules table docs/rules.md`` runs it."""
    p = Path(path)
    text = p.read_text()
    head, start, rest = text.partition(TABLE_START)
    _, end, tail = rest.partition(TABLE_END)
    if not start or not end:
        raise RuleError(f"{p}: no {TABLE_START} ... {TABLE_END} markers")
    new = f"{head}{TABLE_START}\n{rules_table()}{TABLE_END}{tail}"
    if new != text:
        p.write_text(new)
    return new != text


def _check_name(name: object) -> None:
    if not isinstance(name, str):
        raise RuleError(f"rule set name must be text, got {type(name).__name__}")
    if not name.isprintable():  # control characters, line and paragraph separators
        raise RuleError(
            f"rule set name {name!r} must not contain control characters or line breaks"
        )


def _plain(v: object) -> object:
    """A numpy scalar as its Python value (``np.int64(5)`` -> ``5``), in tuples too."""
    if isinstance(v, tuple):
        return tuple(_plain(x) for x in v)
    return v.item() if isinstance(v, np.generic) else v


def _is_int(v: object) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _check_value(r: Rule, v: Any) -> None:
    """Raise RuleError (one line, naming the rule) unless ``v`` is a value of ``r``."""
    key = r.name
    if r.type == "cards":
        try:
            check_cards(v)
        except CardError as e:
            raise RuleError(str(e)) from None
        return
    if r.type in ("deck", "points"):
        keys = DECK_KEYS if r.type == "deck" else cards.POINT_FAMILIES
        if not isinstance(v, tuple) or not all(_is_int(x) for x in v):
            raise RuleError(f"rule {key!r} must be a table of whole numbers")
        if len(v) != len(keys):
            raise RuleError(f"rule {key!r}: one value per entry ({', '.join(keys)})")
        for k, x in zip(keys, v):
            if r.type == "deck" and not 0 <= x <= MAX_COPIES:
                raise RuleError(f"rule deck.{k} must be between 0 and {MAX_COPIES}, got {x}")
            if r.type == "points" and not (0 <= x <= MAX_POINTS or (k == "number" and x == -1)):
                raise RuleError(
                    f"rule points.{k} must be between 0 and {MAX_POINTS}"
                    + (" (or -1: face value)" if k == "number" else "")
                    + f", got {x}"
                )
        return
    if r.type == "choice":
        if not isinstance(v, str) or v not in r.choices:
            raise RuleError(f"rule {key!r}: {v!r} is not one of {', '.join(r.choices)}")
        return
    ok = {
        "bool": isinstance(v, bool),
        "int": _is_int(v),
        "float": isinstance(v, (int, float)) and not isinstance(v, bool),
    }[r.type]
    if not ok:
        raise RuleError(f"rule {key!r} must be {_ANNOTATION[r.type]}, got {type(v).__name__} {v!r}")
    if r.bounds is not None:
        lo, hi = r.bounds
        if not lo <= v <= hi:  # NaN fails too
            what = "a probability" if r.type == "float" else f"between {lo} and {hi}"
            raise RuleError(f"rule {key!r} must be {what}, got {v!r}")


def _with_deck(base: RuleSet, **wilds: int) -> tuple[int, ...]:
    d = base.deck_dict
    d.update(wilds)
    return tuple(d[k] for k in DECK_KEYS)


OFFICIAL = RuleSet()

# RULES.md section 9; house-rule presets are `official` plus one switch.
PRESETS: dict[str, RuleSet] = {
    "official": OFFICIAL,
    "official-2018": OFFICIAL.replace(
        name="official-2018", deck=_with_deck(OFFICIAL, shuffle_hands=1, customizable=3)
    ),
    "pokemon": OFFICIAL.replace(
        name="pokemon", deck=_with_deck(OFFICIAL, snorlax=2, greninja=2), next_dealer="winner"
    ),
    "motu": OFFICIAL.replace(name="motu", deck=_with_deck(OFFICIAL, grayskull=4)),
    "copag": OFFICIAL.replace(
        name="copag", wd4_restriction="none", challenge=False, multi_play=True
    ),
    "portugal": OFFICIAL.replace(name="portugal", uno_penalty=1, challenge=False),
    "stacking": OFFICIAL.replace(name="stacking", stacking="same"),
    "progressive": OFFICIAL.replace(name="progressive", stacking="progressive"),
    "seven-zero": OFFICIAL.replace(name="seven-zero", seven_zero=True),
    "jump-in": OFFICIAL.replace(name="jump-in", jump_in=True),
    "draw-until-playable": OFFICIAL.replace(name="draw-until-playable", draw_rule="until_playable"),
}

PRESET_NOTES = {
    "official": "Mattel's official rules, 108 cards",
    "official-2018": "2018 deck: + Wild Shuffle Hands, + 3 Wild Customizable (112 cards)",
    "pokemon": "UNO Pokémon: + 2 Snorlax, + 2 Greninja; the winner deals next (112 cards)",
    "motu": "Masters of the Universe: + 4 Powers of Grayskull (112 cards)",
    "copag": "Copag (Brazil): no Wild Draw Four restriction, no challenge, multi-card plays",
    "portugal": "Portuguese rules: forgetting UNO costs 1 card, no challenge",
    "stacking": "official + stacking = same (+2 on +2, +4 on +4)",
    "progressive": "official + stacking = progressive (+4 on +2, same-colour +2 on +4)",
    "seven-zero": "official + Seven-Zero (7 swaps hands, 0 rotates them)",
    "jump-in": "official + Jump-In (identical cards out of turn)",
    "draw-until-playable": "official + draw until a playable card",
}


_INT_TEXT = re.compile(r"[+-]?[0-9]+")  # ASCII digits only ("٣" is refused)
_FLOAT_TEXT = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def _coerce(key: str, value: Any) -> Any:
    """Coerce a value given as text (``--house``) to the declared type of rule ``key``."""
    kind = RULE_BY_NAME[key].type
    if not isinstance(value, str) or kind == "choice":
        return value
    low = value.strip().lower()
    if kind == "bool":
        if low in ("true", "on", "yes", "1"):
            return True
        if low in ("false", "off", "no", "0"):
            return False
        raise RuleError(f"rule {key!r}: {value!r} is not true/false")
    if kind == "int" and _INT_TEXT.fullmatch(low):
        return int(low)
    if kind == "float" and _FLOAT_TEXT.fullmatch(low):
        return float(low)
    raise RuleError(f"rule {key!r}: {value!r} is not a number")


def apply(base: RuleSet, changes: dict, name: str | None = None, coerce: bool = True) -> RuleSet:
    """``base`` with ``changes`` (rule name -> value; with ``coerce``, text values from
    the command line are converted to the rule's type; a TOML file's are not).

    ``deck`` and ``points`` take tables (dicts) that change only the keys they give.
    Unknown names and bad values raise :class:`RuleError` naming them.
    """
    kw: dict[str, object] = {}
    changes = _tables(changes)
    for key, value in changes.items():
        if key not in RULE_NAMES:
            raise RuleError(f"unknown rule {key!r}{did_you_mean(key, RULE_NAMES)}")
        if key == "cards":
            if coerce and isinstance(value, str):
                raise RuleError("rule 'cards': cards are declared in a rule file ([cards.NAME])")
            try:
                kw[key] = parse_cards(value)
            except CardError as e:
                raise RuleError(str(e)) from None
            continue
        if key in ("deck", "points"):
            if not isinstance(value, dict):
                raise RuleError(f"rule {key!r} must be a table")
            keys = DECK_KEYS if key == "deck" else cards.POINT_FAMILIES
            cur = dict(zip(keys, getattr(base, key)))
            for k, v in value.items():
                k = str(k)
                if k not in cur:
                    raise RuleError(f"unknown {key} entry {k!r} (known: {', '.join(keys)})")
                if not _is_int(v):
                    raise RuleError(f"rule {key}.{k} must be a whole number, got {v!r}")
                cur[k] = int(v)
            kw[key] = tuple(cur[k] for k in keys)
        else:
            kw[key] = _coerce(key, value) if coerce else value
    if name is not None:
        kw["name"] = name
    return base.replace(**kw)


def _tables(changes: dict) -> dict:
    """``changes`` with each ``deck.KEY`` / ``points.KEY`` entry (``--house`` syntax)
    moved into a ``deck`` / ``points`` table, its text value read as a whole number."""
    if not any(isinstance(k, str) and k.partition(".")[0] in TABLES for k in changes):
        return changes
    out: dict = {}
    for key, value in changes.items():
        table, dot, entry = str(key).partition(".")
        if not dot or table not in TABLES:
            out[key] = value
            continue
        if isinstance(value, str):
            if not _INT_TEXT.fullmatch(value.strip()):
                raise RuleError(f"rule {key}: {value!r} is not a whole number")
            value = int(value.strip())
        out.setdefault(table, {})
        if not isinstance(out[table], dict):
            raise RuleError(f"rule {table!r} given as a table and as {key}")
        out[table][entry] = value
    return out


TABLES = {"deck": DECK_KEYS, "points": cards.POINT_FAMILIES}  # deck.KEY=N in --house


def parse_house(text: str) -> dict[str, str]:
    """``"stacking=same,seven_zero=true"`` -> ``{"stacking": "same", "seven_zero": "true"}``.

    One entry of the ``deck`` or ``points`` table is ``deck.KEY=N`` (``deck.draw_two=3``:
    3 Draw Two per colour)."""
    out: dict[str, str] = {}
    for item in filter(None, (s.strip() for s in text.split(","))):
        if "=" not in item:
            raise RuleError(f"house rule {item!r} must be NAME=VALUE")
        k, v = (s.strip() for s in item.split("=", 1))
        table, dot, entry = k.partition(".")
        if dot and table in TABLES:
            if entry not in TABLES[table]:
                raise RuleError(
                    f"unknown {table} entry {entry!r} (known: {', '.join(TABLES[table])})"
                )
        elif k not in RULE_NAMES or k in ("deck", "points", "cards"):
            raise RuleError(f"unknown rule {k!r}{did_you_mean(k, RULE_NAMES)}")
        if k in out:
            raise RuleError(f"house rule {k!r} given twice ({out[k]!r} and {v!r})")
        out[k] = v
    return out


def load_toml(path: str | Path) -> RuleSet:
    """Read a rule file. ``preset = "NAME"`` picks the base (default `official`);
    every other key is a rule name; ``[deck]`` and ``[points]`` are tables.

    Every error of the file is reported at once, on one line, each with the line of
    the file where its key stands: ``rule file 'r.toml': 2 errors: line 3: unknown rule
    'stackng' (did you mean 'stacking'?); line 4: ...``."""
    from . import tomlfile

    p = Path(path)
    head = f"rule file {str(p)!r}"
    try:
        text = tomlfile.read_text(p, "rule file", RuleError)
    except FileNotFoundError:
        raise RuleError(f"{head} not found{missing_file_hint(str(p))}") from None
    except OSError as e:
        raise RuleError(f"{head}: {e.strerror or e.__class__.__name__}") from None
    data = tomlfile.parse(text, p, "rule file", RuleError)
    errors: list[tuple[int | None, str]] = []
    base_name = data.pop("preset", "official")
    if not isinstance(base_name, str) or base_name not in PRESETS:
        hint = did_you_mean(base_name, PRESETS)
        errors.append((_key_line(text, "preset"), f"unknown preset {base_name!r}{hint}"))
        base_name = "official"
    name = data.pop("name", p.stem)
    if not isinstance(name, str):
        errors.append((_key_line(text, "name"), "rule 'name' must be text"))
        name = p.stem
    if "cards" in data:  # errors name the file, the card and the field
        try:
            data["cards"] = parse_cards(data["cards"], str(p))
        except CardError as e:  # its message names the file already: once is enough
            msg = str(e).removeprefix(f"{p}: ")
            errors.append((_key_line(text, "cards"), msg))
            del data["cards"]
    base = PRESETS[base_name]
    for key in list(data):  # each key alone, so that every bad one is named
        try:
            apply(base, {key: data[key]}, coerce=False)
        except RuleError as e:
            errors.append((_key_line(text, key), str(e)))
            del data[key]
    if not errors:
        try:
            return apply(base, data, name=name, coerce=False)
        except RuleError as e:  # rules that cannot go together
            errors.append((None, str(e)))
    raise RuleError(_file_errors(head, errors))


def _file_errors(head: str, errors: list[tuple[int | None, str]]) -> str:
    """One line naming the file and each error with its line (when known)."""
    parts = [(f"line {line}: " if line else "") + msg for line, msg in errors[:20]]
    more = f"; and {len(errors) - 20} more" if len(errors) > 20 else ""
    if len(errors) == 1:
        return f"{head}, {parts[0]}" if errors[0][0] else f"{head}: {parts[0]}"
    return f"{head}: {len(errors)} errors: " + "; ".join(parts) + more


def _key_line(text: str, key: str) -> int | None:
    """The line (from 1) where ``key`` is set or its table opens (``key = ...``,
    ``[key]``, ``[key.x]``, ``key.x = ...``), or None."""
    pattern = re.compile(
        r"^[ \t]*(?:\[[ \t]*)?[\"']?" + re.escape(key) + r"[\"']?[ \t]*(?:=|\]|\.)",
        re.MULTILINE,
    )
    m = pattern.search(text)
    return text.count("\n", 0, m.start()) + 1 if m else None


def is_file(text: str) -> bool:
    """Whether ``text`` names an existing file; ``False`` for a text no file system takes
    as a name (too long, a NUL), rather than an ``OSError``: a rule-set spec of many
    switches is longer than a file name may be."""
    try:
        return Path(text).is_file()
    except (OSError, ValueError):
        return False


def resolve(rules: str | Path | RuleSet, house: str | dict | None = None) -> RuleSet:
    """A RuleSet from a preset name, a TOML path or a RuleSet, plus house switches."""
    if isinstance(rules, RuleSet):
        rs = rules
    elif isinstance(rules, str) and rules in PRESETS:
        rs = PRESETS[rules]
    elif str(rules).endswith(".toml") or is_file(str(rules)):
        rs = load_toml(rules)
    else:
        raise RuleError(
            f"unknown preset {str(rules)!r}{did_you_mean(str(rules), PRESETS)} "
            f"(presets: {', '.join(PRESETS)}; or give a .toml file)"
        )
    if house:
        changes = parse_house(house) if isinstance(house, str) else dict(house)
        label = (
            house
            if isinstance(house, str) and house.isprintable()
            else ",".join(f"{k}={v}" for k, v in changes.items())
        )
        rs = apply(rs, changes, name=f"{rs.name}+{label}")
    return rs
