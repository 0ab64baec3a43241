"""Display names: the words people read for the house rules, their values and the presets
(the atlas, and pages that speak to players rather than to the command line). Rule
syntax (``stacking=same``) stays where a reader must type it.

Kept apart from ``rules.py`` on purpose: names decide no result, so changing one moves
no cache key of the report pages (``analyses/common.py`` hashes ``rules.py``).
"""

from __future__ import annotations

from .rules import PRESETS, RuleError, RuleSet, apply, parse_house

DISPLAY: dict[str, tuple[str, dict]] = {
    "stacking": (
        "stacking",
        {
            "none": "no stacking",
            "same": "stacking (same card)",
            "progressive": "stacking (+4 on +2 too)",
        },
    ),
    "seven_zero": (
        "Seven-Zero",
        {False: "no Seven-Zero", True: "Seven-Zero (7 swaps hands, 0 passes them on)"},
    ),
    "jump_in": ("Jump-In", {False: "no Jump-In", True: "Jump-In (identical card out of turn)"}),
    "draw_rule": ("drawing", {"one": "draw one card", "until_playable": "draw until you can play"}),
    "after_draw": (
        "after drawing",
        {"play": "may play the card drawn", "pass": "turn ends after drawing"},
    ),
    "wd4_restriction": (
        "Wild Draw Four",
        {
            "colour": "Wild Draw Four only without the colour in play",
            "none": "Wild Draw Four at any time",
            "strict": "Wild Draw Four only with nothing else to play",
        },
    ),
    "multi_play": (
        "several cards at once",
        {False: "one card a turn", True: "several cards at once"},
    ),
    "last_card": (
        "going out",
        {"any": "go out on any card", "number": "go out only on a number card"},
    ),
    "uno_penalty": (
        "forgetting UNO",
        {2: "forgetting UNO costs 2 cards", 1: "forgetting UNO costs 1 card"},
    ),
    "challenge": ("challenges", {True: "Wild Draw Four can be challenged", False: "no challenges"}),
    "blank_card": (
        "blank card",
        {"wild": "blank card as a Wild", "swap_hands": "blank card swaps hands"},
    ),
}
PRESET_DISPLAY = {
    "official": "Official UNO",
    "official-2018": "UNO 2018 deck",
    "pokemon": "UNO Pokémon",
    "motu": "UNO Masters of the Universe",
    "copag": "Copag UNO (Brazil)",
    "portugal": "UNO in Portugal",
    "stacking": "stacking (same card)",
    "progressive": "stacking (+4 on +2 too)",
    "seven-zero": "Seven-Zero",
    "jump-in": "Jump-In",
    "draw-until-playable": "draw until you can play",
}


# who is playing, in words: the strategies the pages and the atlas speak of
PLAYERS_DISPLAY = {
    "random": "random players",
    "heuristic": "sensible (heuristic) players",
    "table": "table players",
    "expert": "the expert (who plays each possible move out before choosing)",
}
# the longer words a page gives the first time it names a player model
PLAYERS_EXPLAINED = {
    "random": "random players (who play any card they may, never bluff and never forget UNO)",
    "heuristic": "sensible (heuristic) players (who keep wild cards for later and attack a "
    "player about to go out)",
    "table": "table players (people who sometimes bluff and forget UNO)",
}
# what a person would notice (the atlas, the report pages): an effect under 1% of round
# length, points or cards, or under 0.5 percentage points of a win rate or a share of
# rounds, makes "no practical difference"
NOTICE = {"relative": 1.0, "points": 0.5}


def display_players(strategy: str, n: int | None = None, explained: bool = False) -> str:
    """Who is playing, in words: ``"4 random players"``, ``"table players (people who
    sometimes bluff and forget UNO)"`` with ``explained``; a strategy without words
    comes back as ``"<strategy> players"``."""
    words = (PLAYERS_EXPLAINED if explained else PLAYERS_DISPLAY).get(strategy)
    if words is None:
        words = PLAYERS_DISPLAY.get(strategy, f"{strategy} players")
    return f"{n} {words}" if n is not None else words


def display_preset(name: str) -> str:
    """A preset's display name (``"draw-until-playable"`` -> ``"draw until you can
    play"``), a rule-set name in compare syntax in words (:func:`display_rules`), or the
    name as it is."""
    return PRESET_DISPLAY.get(name) or display_rules(name)


def noticeable(value: float, rate: bool = False) -> bool:
    """Whether an effect would be noticed (:data:`NOTICE`): ``value`` is a relative
    change in percent, or with ``rate`` a difference of a rate in percentage points."""
    return abs(value) >= NOTICE["points" if rate else "relative"]


# numeric rules and deck counts in words: (singular, plural) with {} for the number
NUMBERS: dict[str, tuple[str, str]] = {
    "hand_size": ("{} card dealt to each player", "{} cards dealt to each player"),
    "uno_penalty": ("forgetting UNO costs {} card", "forgetting UNO costs {} cards"),
    "challenge_penalty": (
        "a failed challenge costs {} extra card",
        "a failed challenge costs {} extra cards",
    ),
    "deck.skip": ("{} Skip per colour", "{} Skips per colour"),
    "deck.reverse": ("{} Reverse per colour", "{} Reverses per colour"),
    "deck.draw_two": ("{} Draw Two per colour", "{} Draw Twos per colour"),
    "deck.wild": ("{} Wild in the deck", "{} Wilds in the deck"),
    "deck.wild_draw_four": ("{} Wild Draw Four in the deck", "{} Wild Draw Fours in the deck"),
}


def display_value(rule: str, value: object) -> str:
    """How a reader reads ``rule = value`` ("stacking (same card)", "5 cards dealt to
    each player"); rule syntax for a rule without a display name."""
    name, values = DISPLAY.get(rule, (None, {}))
    if value in values:
        return values[value]
    if rule in NUMBERS and isinstance(value, int) and not isinstance(value, bool):
        return NUMBERS[rule][value != 1].format(value)
    return f"{rule}={str(value).lower()}"


def rule_value(rs: RuleSet, rule: str) -> object:
    """The value of ``rule`` in RuleSet ``rs``; ``deck.KEY`` and ``points.KEY`` name one
    entry of a table."""
    table, dot, entry = rule.partition(".")
    if dot:
        return (rs.deck_dict if table == "deck" else rs.points_dict)[entry]
    return getattr(rs, rule)


def display_rules(text: str) -> str:
    """A rule-set name in compare syntax, in words: ``"official+stacking=same,
    jump_in=true"`` -> ``"Official UNO with stacking (same card), Jump-In (identical card
    out of turn)"``. Text that is not a preset plus switches comes back as it is."""
    preset, _, house = text.partition("+")
    if preset not in PRESET_DISPLAY:
        return text
    try:
        changes = apply(PRESETS[preset], parse_house(house)) if house else PRESETS[preset]
    except RuleError:
        return text
    words = [display_value(r, rule_value(changes, r)) for r in parse_house(house)]
    return PRESET_DISPLAY[preset] + (" with " + ", ".join(words) if words else "")


def display_ruleset(rs: RuleSet) -> str:
    """What a reader reads for a :class:`~unosim.game.rules.RuleSet`: :func:`display_rules`
    of its name when the name is a preset plus switches that give these very rules;
    for a rule file with switches (``numbers-only+seven_zero=true``), its name with the
    switches in words; else its name as it is (a name never claims rules it lacks)."""
    base, _, house = rs.name.partition("+")
    try:
        switches = parse_house(house) if house else {}
        if base in PRESETS:
            same = apply(PRESETS[base], switches).hash() == rs.hash()
            return display_rules(rs.name) if same else rs.name
        words = [display_value(r, getattr(rs, r)) for r in switches]
    except (RuleError, AttributeError):
        return rs.name
    return base + " with " + ", ".join(words) if words else rs.name
