"""The rule set: every named rule of RULES.md with its default, presets, TOML, hash.

A :class:`RuleSet` is frozen and validated on construction. ``to_array()`` turns it into
the small integer array the kernel reads (indices in :mod:`unosim.kernel.layout`).
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np
import tomllib

from . import cards

# allowed values of the enumerated rules, in kernel code order
CHOICES: dict[str, tuple[str, ...]] = {
    "stacking": ("none", "same", "progressive"),  # 8.1
    "draw_rule": ("one", "until_playable"),  # 4.2, 8.4
    "wd4_restriction": ("colour", "none"),  # 4.3, 8.5
    "blank_card": ("wild", "swap_hands"),  # 2
    "scoring": ("winner_takes_all", "each_own_negative"),  # 5
    "next_dealer": ("rotate", "winner"),  # 7
}

DECK_KEYS = cards.RANK_NAMES + cards.WILD_NAMES  # per colour for ranks, in all for wilds
STANDARD_DECK = tuple(cards.STANDARD_PER_COLOUR[k] for k in cards.RANK_NAMES) + tuple(
    cards.STANDARD_WILDS[k] for k in cards.WILD_NAMES)
STANDARD_POINTS = tuple(cards.DEFAULT_POINTS[k] for k in cards.POINT_FAMILIES)


class RuleError(ValueError):
    """A rule name or value that does not exist; the message names it."""


@dataclass(frozen=True)
class RuleSet:
    """Every rule of RULES.md, with its default (the `official` preset).

    ``deck`` holds copies per colour of each rank then copies of each wild-type kind,
    in ``DECK_KEYS`` order; ``points`` the points of each family in
    ``cards.POINT_FAMILIES`` order (-1 for numbers means face value).
    """

    name: str = "official"
    hand_size: int = 7  # 3.1
    deck: tuple[int, ...] = STANDARD_DECK  # 2
    points: tuple[int, ...] = STANDARD_POINTS  # 2
    blank_card: str = "wild"  # 2
    voluntary_draw: bool = True  # 4.2; no built-in strategy draws while holding a legal card
    draw_rule: str = "one"  # 4.2
    wd4_restriction: str = "colour"  # 4.3
    challenge: bool = True  # 4.3
    challenge_penalty: int = 2  # 4.3, 8.7
    catch_uno: float = 1.0  # 4.4
    uno_penalty: int = 2  # 4.4, 8.7
    scoring: str = "winner_takes_all"  # 5
    max_turns: int = 5000  # 5
    target_score: int = 500  # 7
    next_dealer: str = "rotate"  # 7
    penalty_elimination: bool = False  # 7
    elimination_score: int = 500  # 7
    max_rounds: int = 1000  # 7: a match that cannot finish stops here, flagged
    stacking: str = "none"  # 8.1
    seven_zero: bool = False  # 8.2
    jump_in: bool = False  # 8.3
    multi_play: bool = False  # 8.6

    def __post_init__(self) -> None:
        if isinstance(self.catch_uno, int) and not isinstance(self.catch_uno, bool):
            object.__setattr__(self, "catch_uno", float(self.catch_uno))  # one hash per value
        for f in fields(self):
            _check_type(f.name, getattr(self, f.name), f.type)
        for key, allowed in CHOICES.items():
            if getattr(self, key) not in allowed:
                raise RuleError(f"rule {key!r}: {getattr(self, key)!r} is not one of "
                                f"{', '.join(allowed)}")
        check_limits(self)
        positive = ("hand_size", "max_turns", "target_score", "elimination_score",
                    "max_rounds")
        for key in positive:
            if getattr(self, key) < 1:
                raise RuleError(f"rule {key!r} must be at least 1, got {getattr(self, key)}")
        for key in ("challenge_penalty", "uno_penalty"):
            if not 0 <= getattr(self, key) <= 100:
                raise RuleError(f"rule {key!r} must be between 0 and 100")
        if not 0.0 <= self.catch_uno <= 1.0:
            raise RuleError(f"rule 'catch_uno' must be a probability, got {self.catch_uno}")
        if len(self.deck) != len(DECK_KEYS) or min(self.deck) < 0:
            raise RuleError("rule 'deck': every count must be a whole number >= 0")
        if len(self.points) != len(cards.POINT_FAMILIES):
            raise RuleError("rule 'points': one value per card family")
        for key, v in zip(cards.POINT_FAMILIES, self.points):
            if not (0 <= v <= 10_000 or (key == "number" and v == -1)):
                raise RuleError(f"rule points.{key} must be between 0 and 10000"
                                + (" (or -1: face value)" if key == "number" else "")
                                + f", got {v}")
        if self.max_turns > 1_000_000:
            raise RuleError("rule 'max_turns' must be at most 1000000")
        counts = self.deck_counts()
        if counts.max() > 127:
            raise RuleError("rule 'deck': at most 127 copies of one card")
        if int(counts.sum()) > 1000:
            raise RuleError("rule 'deck': at most 1000 cards")
        if int(counts[:cards.N_COLOURED].sum()) == 0:
            raise RuleError("rule 'deck': the deck needs coloured cards")

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
        return cards.deck_counts({k: d[k] for k in cards.RANK_NAMES},
                                 {k: d[k] for k in cards.WILD_NAMES})

    def deck_size(self) -> int:
        return int(self.deck_counts().sum())

    def points_table(self) -> np.ndarray:
        return cards.points_table(self.points_dict)

    def check_players(self, n_players: int) -> None:
        """Raise RuleError unless ``n_players`` can play a round with this deck."""
        if not 2 <= n_players <= 10:
            raise RuleError(f"players must be between 2 and 10, got {n_players}")
        # 3: after the deal, the draw pile must hold a card that can start the discard
        # pile (a Wild Draw Four goes back), so it needs more than the Wild Draw Fours
        need = n_players * self.hand_size + 1 + self.deck_dict["wild_draw_four"]
        if need > self.deck_size():
            raise RuleError(f"deck of {self.deck_size()} cards is too small for {n_players} "
                            f"players with hand_size {self.hand_size} (needs {need})")

    def replace(self, **changes) -> "RuleSet":
        return dataclasses.replace(self, **changes)

    # -- serialisation -----------------------------------------------------------------
    def to_dict(self, with_name: bool = True) -> dict:
        d = {}
        for f in fields(self):
            if f.name == "name" and not with_name:
                continue
            v = getattr(self, f.name)
            d[f.name] = {"deck": self.deck_dict, "points": self.points_dict}.get(f.name, v)
        return d

    def to_toml(self) -> str:
        """TOML text that :func:`load_toml` reads back to an equal RuleSet."""
        import tomli_w

        return tomli_w.dumps(self.to_dict())

    def hash(self) -> str:
        """Stable content hash (the name is not part of it): 16 hex digits."""
        text = json.dumps(self.to_dict(with_name=False), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def to_array(self) -> np.ndarray:
        """The kernel's view: ``int64[layout.N_RULES]``."""
        from .kernel import layout as L

        a = np.zeros(L.N_RULES, dtype=np.int64)
        a[L.R_HAND_SIZE] = self.hand_size
        a[L.R_BLANK_SWAP] = self.blank_card == "swap_hands"
        a[L.R_VOLUNTARY_DRAW] = self.voluntary_draw
        a[L.R_DRAW_UNTIL] = self.draw_rule == "until_playable"
        a[L.R_WD4_RESTRICT] = self.wd4_restriction == "colour"
        a[L.R_CHALLENGE] = self.challenge
        a[L.R_CHALLENGE_PENALTY] = self.challenge_penalty
        a[L.R_CATCH_UNO] = int(round(self.catch_uno * 2**32))
        a[L.R_UNO_PENALTY] = self.uno_penalty
        a[L.R_MAX_TURNS] = self.max_turns
        a[L.R_STACKING] = CHOICES["stacking"].index(self.stacking)
        a[L.R_SEVEN_ZERO] = self.seven_zero
        a[L.R_JUMP_IN] = self.jump_in
        a[L.R_MULTI_PLAY] = self.multi_play
        a[L.R_SCORING] = CHOICES["scoring"].index(self.scoring)
        a[L.R_TARGET] = self.target_score
        a[L.R_NEXT_DEALER] = CHOICES["next_dealer"].index(self.next_dealer)
        a[L.R_ELIMINATION] = self.penalty_elimination
        a[L.R_ELIMINATION_SCORE] = self.elimination_score
        a[L.R_MAX_ROUNDS] = self.max_rounds
        return a


# -- limits (issue 17): what the kernel's integer types and memory can hold ----------
LIMITS = {"target_score": 10**9, "elimination_score": 10**9, "max_rounds": 1_000_000,
          "hand_size": 1000, "challenge_penalty": 100, "uno_penalty": 100}
MAX_COPIES = 127  # copies of one card kind (int8 in the kernel)
MAX_NAME = 200  # characters of a rule-set name


def check_limits(rs: "RuleSet") -> None:
    """Bounds that keep every number inside the kernel's types and the name on one
    printable line; raises :class:`RuleError` naming the rule."""
    if not rs.name.isprintable() or len(rs.name) > MAX_NAME:
        raise RuleError(f"rule 'name' must be one line of printable text of at most "
                        f"{MAX_NAME} characters, got {rs.name!r}")
    for key, top in LIMITS.items():
        if getattr(rs, key) > top:
            raise RuleError(f"rule {key!r} must be at most {top:,}, got {getattr(rs, key):,}")
    for key, v in zip(DECK_KEYS, rs.deck):
        if v > MAX_COPIES:
            raise RuleError(f"rule deck.{key}: at most {MAX_COPIES} copies of one card, "
                            f"got {v:,}")


_TYPES = {"int": int, "float": float, "bool": bool, "str": str}


def _check_type(key: str, value, type_name) -> None:
    t = str(type_name)
    if t.startswith("tuple"):
        if not isinstance(value, tuple) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise RuleError(f"rule {key!r} must be a table of whole numbers")
        return
    want = _TYPES[t]
    ok = isinstance(value, want)
    if want is int:
        ok = ok and not isinstance(value, bool)
    if want is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not ok:
        raise RuleError(f"rule {key!r} must be {t}, got {type(value).__name__} {value!r}")


RULE_NAMES = tuple(f.name for f in fields(RuleSet) if f.name != "name")


def _with_deck(base: RuleSet, **wilds: int) -> tuple[int, ...]:
    d = base.deck_dict
    d.update(wilds)
    return tuple(d[k] for k in DECK_KEYS)


OFFICIAL = RuleSet()

# RULES.md section 9; house-rule presets are `official` plus one switch.
PRESETS: dict[str, RuleSet] = {
    "official": OFFICIAL,
    "official-2018": OFFICIAL.replace(
        name="official-2018", deck=_with_deck(OFFICIAL, shuffle_hands=1, customizable=3)),
    "pokemon": OFFICIAL.replace(
        name="pokemon", deck=_with_deck(OFFICIAL, snorlax=2, greninja=2), next_dealer="winner"),
    "motu": OFFICIAL.replace(name="motu", deck=_with_deck(OFFICIAL, grayskull=4)),
    "copag": OFFICIAL.replace(name="copag", wd4_restriction="none", challenge=False,
                              multi_play=True),
    "portugal": OFFICIAL.replace(name="portugal", uno_penalty=1, challenge=False),
    "stacking": OFFICIAL.replace(name="stacking", stacking="same"),
    "progressive": OFFICIAL.replace(name="progressive", stacking="progressive"),
    "seven-zero": OFFICIAL.replace(name="seven-zero", seven_zero=True),
    "jump-in": OFFICIAL.replace(name="jump-in", jump_in=True),
    "draw-until-playable": OFFICIAL.replace(name="draw-until-playable",
                                            draw_rule="until_playable"),
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


def _coerce(key: str, value, current):
    """Coerce a value given as text (``--house``) to the type of the current value."""
    if not isinstance(value, str) or isinstance(current, str):
        return value
    low = value.strip().lower()
    if isinstance(current, bool):
        if low in ("true", "on", "yes", "1"):
            return True
        if low in ("false", "off", "no", "0"):
            return False
        raise RuleError(f"rule {key!r}: {value!r} is not true/false")
    try:
        if not low.isascii():  # int() and float() also read other scripts' digits
            raise ValueError(low)
        return int(low) if isinstance(current, int) else float(low)
    except ValueError:
        raise RuleError(f"rule {key!r}: {value!r} is not a number") from None


def apply(base: RuleSet, changes: dict, name: str | None = None,
          coerce: bool = True) -> RuleSet:
    """``base`` with ``changes`` (rule name -> value; with ``coerce``, text values from
    the command line are converted to the rule's type; a TOML file's are not).

    ``deck`` and ``points`` take tables (dicts) that change only the keys they give.
    Unknown names and bad values raise :class:`RuleError` naming them.
    """
    kw = {}
    for key, value in changes.items():
        if key not in RULE_NAMES:
            raise RuleError(f"unknown rule {key!r}")
        if key in ("deck", "points"):
            if not isinstance(value, dict):
                raise RuleError(f"rule {key!r} must be a table")
            keys = DECK_KEYS if key == "deck" else cards.POINT_FAMILIES
            cur = dict(zip(keys, getattr(base, key)))
            for k, v in value.items():
                k = str(k)
                if k not in cur:
                    raise RuleError(f"unknown {key} entry {k!r} (known: {', '.join(keys)})")
                if not isinstance(v, int) or isinstance(v, bool):
                    raise RuleError(f"rule {key}.{k} must be a whole number, got {v!r}")
                cur[k] = v
            kw[key] = tuple(cur[k] for k in keys)
        else:
            kw[key] = _coerce(key, value, getattr(base, key)) if coerce else value
    if name is not None:
        kw["name"] = name
    return base.replace(**kw)


def parse_house(text: str) -> dict[str, str]:
    """``"stacking=same,seven_zero=true"`` -> ``{"stacking": "same", "seven_zero": "true"}``."""
    out: dict[str, str] = {}
    for item in filter(None, (s.strip() for s in text.split(","))):
        if "=" not in item:
            raise RuleError(f"house rule {item!r} must be NAME=VALUE")
        k, v = (s.strip() for s in item.split("=", 1))
        if k not in RULE_NAMES or k in ("deck", "points"):
            raise RuleError(f"unknown rule {k!r}")
        if k in out:
            raise RuleError(f"house rule {k!r} given twice ({out[k]!r} and {v!r})")
        out[k] = v
    return out


def load_toml(path: str | Path) -> RuleSet:
    """Read a rule file. ``preset = "NAME"`` picks the base (default `official`);
    every other key is a rule name; ``[deck]`` and ``[points]`` are tables."""
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text())
    except FileNotFoundError:
        raise RuleError(f"rule file {str(p)!r} not found") from None
    except (OSError, UnicodeDecodeError) as e:
        raise RuleError(f"rule file {str(p)!r}: {e.__class__.__name__}: {e}") from None
    except tomllib.TOMLDecodeError as e:
        raise RuleError(f"rule file {str(p)!r}: {e}") from None
    base_name = data.pop("preset", "official")
    if not isinstance(base_name, str) or base_name not in PRESETS:
        raise RuleError(f"rule 'preset': unknown preset {base_name!r} in {str(p)!r}")
    name = data.pop("name", p.stem)
    if not isinstance(name, str):
        raise RuleError(f"rule 'name' must be text in {str(p)!r}")
    return apply(PRESETS[base_name], data, name=name, coerce=False)


def resolve(rules: "str | Path | RuleSet", house: "str | dict | None" = None) -> RuleSet:
    """A RuleSet from a preset name, a TOML path or a RuleSet, plus house switches."""
    if isinstance(rules, RuleSet):
        rs = rules
    elif isinstance(rules, str) and rules in PRESETS:
        rs = PRESETS[rules]
    elif str(rules).endswith(".toml") or Path(str(rules)).is_file():
        rs = load_toml(rules)
    else:
        raise RuleError(f"unknown preset {str(rules)!r} (presets: {', '.join(PRESETS)}; "
                        "or give a .toml file)")
    if house:
        changes = parse_house(house) if isinstance(house, str) else dict(house)
        label = (house if isinstance(house, str) and house.isprintable()
                 else ",".join(f"{k}={v}" for k, v in changes.items()))
        rs = apply(rs, changes, name=f"{rs.name}+{label}")
    return rs
