"""A rule set's own rules in words, wherever a rule appears (report tables, the design
page, the printable house-rules card): its house switches by display name and each
declared card with its effect, as its declaration says (docs/cards.md)."""

from __future__ import annotations

from ..game.declare import CardSpec
from ..game.names import DISPLAY, display_value
from ..game.rules import OFFICIAL, RuleSet

# each step of a declared card's effect (``CardSpec.effect``), as a player reads it
STEP_WORDS = {
    "draw next": "the next player draws {n}",
    "draw others": "every other player draws {n}",
    "draw chosen": "a player you choose draws {n}",
    "draw_until_colour next": "the next player draws until they draw the colour in play",
    "skip next": "the next player misses a turn",
    "skip everyone": "every other player misses a turn",
    "spend_turn next": "the next player loses their turn",
    "reverse": "the direction of play reverses",
    "name_colour": "you name a colour",
    "discard_colour own": "you also discard every card of that colour from your hand",
    "discard_colour victim": "the player hit discards every card of the colour in play",
    "again": "you play again",
    "swap chosen": "you swap hands with a player you choose",
    "pass_hands": "everyone passes their hand to the next player",
    "deal_hands": "all hands are gathered and dealt out again",
}
MATCH_WORDS = {
    "rank": "it goes on a card of its colour or another card like it",
    "colour": "it goes on a card of its colour",
    "anything": "it goes on any card",
}
# rules that say nothing at a table (a limit of the simulation, the set's name)
NOT_AT_THE_TABLE = ("name", "max_turns")


def card_title(spec: CardSpec) -> str:
    """``wild_draw_six`` -> ``Wild Draw Six``."""
    return spec.name.replace("_", " ").title()


def step_words(step: str) -> str:
    """One step of an effect (``"draw 6 next"``) in words."""
    w = step.split()
    if w[0] == "draw" and len(w) == 3:
        n = int(w[1])
        return STEP_WORDS[f"draw {w[2]}"].format(n=f"{n} card" if n == 1 else f"{n} cards")
    return STEP_WORDS.get(step, step.replace("_", " "))


def card_sentence(spec: CardSpec) -> str:
    """A declared card as one sentence a player follows: how many, what it does,
    what it goes on, its points."""
    many = (
        f"{spec.copies} {card_title(spec)} wild card{'s' if spec.copies != 1 else ''}"
        if spec.wild
        else f"{spec.copies} {card_title(spec)} per colour ({4 * spec.copies} cards)"
    )
    steps = [step_words(s) for s in spec.effect]
    does = ", then ".join(steps) if steps else "it does nothing but match"
    extra = "" if spec.wild else f"; {MATCH_WORDS[spec.matches]}"
    stack = "; it can be stacked on like a Draw Two" if spec.stack else ""
    return f"Add {many}: when one is played, {does}{extra}{stack}; it scores {spec.points} points."


def switch_changes(rs: RuleSet, base: RuleSet = OFFICIAL) -> list[tuple[str, object, object]]:
    """The house switches and numeric rules of ``rs`` that differ from ``base``, as
    ``(rule, value, base value)`` (the deck, points and declared cards apart)."""
    a, b = rs.to_dict(with_name=False), base.to_dict(with_name=False)
    return [
        (k, a[k], b.get(k))
        for k in a
        if k not in ("deck", "points", "cards", *NOT_AT_THE_TABLE) and a[k] != b.get(k)
    ]


def switch_name(rule: str, value: object) -> str:
    """A house switch by its display name and value ("Seven-Zero: on")."""
    if rule in DISPLAY:
        return display_value(rule, value)
    return f"{rule} = {value}"


def rules_in_words(rs: RuleSet, base: RuleSet = OFFICIAL) -> list[str]:
    """Every rule of ``rs`` that a table must know beyond ``base``: the switches by
    display name, then each declared card with its effect."""
    lines = [switch_name(k, v) for k, v, _ in switch_changes(rs, base)]
    if rs.deck != base.deck:
        lines.append(f"a deck of {rs.deck_size()} cards (the printed deck has {base.deck_size()})")
    lines += [card_sentence(c) for c in rs.cards]
    return lines
