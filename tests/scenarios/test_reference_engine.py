"""Tests of the pure-Python reference engine (tests/reference/engine.py).

Layers: hand-traced scenarios built from a scripted deck order (arithmetic in comments),
then random play with invariants after every step for every preset and house rule.
"""

from __future__ import annotations

import random

import pytest

from tests.reference.engine import (
    COLOURS,
    DEFAULT_RULES,
    PRESETS,
    Round,
    arrange_deck,
    card,
    cards,
    game_rng,
    make_deck,
    play_round,
    simulate,
    summarise,
)

ROW_KEYS_FIXED = [
    "winner",
    "first_player",
    "turns",
    "cards_played",
    "cards_drawn",
    "reshuffles",
    "points",
]
ROW_KEYS_TAIL = ["max_stack", "challenges", "bluffs", "uno_penalties", "truncated"]


class FixedColour(Round):
    """A Round whose players always name `NAMED` (to script wild-card scenarios)."""

    NAMED = "red"

    def choose_colour(self, seat):
        return self.NAMED


def scripted(rules, n, hands, turn_up, draw_top=(), *, params=None, seed=0, cls=Round, **over):
    """A Round (checks on, events logged) from hands given as strings, e.g. 'red 5, wild'."""
    r = {**(PRESETS[rules] if isinstance(rules, str) else rules), **over}
    hs = [cards(h) for h in hands]
    r.setdefault("hand_size", len(hs[0]))
    r["hand_size"] = len(hs[0])
    deck = arrange_deck(r, n, hs, card(turn_up), cards(", ".join(draw_top)) if draw_top else ())
    return cls(r, n, random.Random(seed), params, deck=deck, checks=True, log=[])


def events(rnd, kind):
    return [e for e in rnd.log if e[0] == kind]


# ---------------------------------------------------------------------------
# Deck and API basics
# ---------------------------------------------------------------------------


def test_deck_sizes():
    assert len(make_deck("official")) == 108
    for name in ("official-2018", "pokemon", "motu"):
        assert len(make_deck(name)) == 112
    for name in (
        "copag",
        "portugal",
        "stacking",
        "progressive",
        "seven-zero",
        "jump-in",
        "draw-until-playable",
    ):
        assert len(make_deck(name)) == 108


def test_row_has_exactly_the_section_6_columns():
    row = play_round("official", 3, random.Random(5))
    expected = (
        ROW_KEYS_FIXED
        + [f"hand_points_{s}" for s in range(3)]
        + [f"hand_size_{s}" for s in range(3)]
        + ROW_KEYS_TAIL
    )
    assert list(row) == expected
    assert isinstance(row["truncated"], bool)


def test_unknown_rule_or_param_rejected():
    with pytest.raises(ValueError):
        play_round({"stacking_mode": "same"}, 4, random.Random(1))
    with pytest.raises(ValueError):
        play_round("official", 2, random.Random(1), params=[{"blof": 0.1}, {}])


def test_illegal_play_is_caught_by_the_checking_hook():
    rnd = scripted("official", 2, ["blue 1, blue 2", "green 3, green 4"], "red 5")
    rnd.setup()
    with pytest.raises(AssertionError):
        rnd.play_card(0, 0, how="hand")  # blue 1 on red 5 is illegal


def test_determinism_and_seed_sensitivity():
    a = simulate("official", 4, 30, seed=7)
    b = simulate("official", 4, 30, seed=7)
    c = simulate("official", 4, 30, seed=8)
    assert a == b and a != c


# ---------------------------------------------------------------------------
# Setup (RULES.md 3): one test per kind of first card, max_turns = 0 stops after setup
# ---------------------------------------------------------------------------

FOUR = ["blue 1, blue 2", "green 3, green 4", "yellow 6, yellow 7", "green 8, green 9"]


def setup_row(turn_up, n=4, hands=FOUR, rules="official", draw_top=()):
    rnd = scripted(rules, n, hands[:n], turn_up, draw_top, max_turns=0)
    return rnd, rnd.play()


def test_setup_number():
    rnd, row = setup_row("red 5")
    assert row["first_player"] == 0 and rnd.colour == "red" and rnd.direction == 1
    assert row["truncated"] and row["turns"] == 0 and row["winner"] == -1 and row["points"] == 0


def test_setup_skip():
    assert setup_row("red skip")[1]["first_player"] == 1
    assert setup_row("red skip", n=2)[1]["first_player"] == 1


def test_setup_reverse():
    rnd, row = setup_row("red reverse")
    assert row["first_player"] == 3 and rnd.direction == -1  # dealer, counter-clockwise
    rnd, row = setup_row("red reverse", n=2)
    assert row["first_player"] == 1  # acts as Skip: the dealer plays first


def test_setup_draw_two():
    _, row = setup_row("red draw2")
    # seat 0 draws 2 at once (2 + 2 = 4 cards) and is skipped; counted in cards_drawn/max_stack
    assert row["first_player"] == 1 and row["hand_size_0"] == 4
    assert row["cards_drawn"] == 2 and row["max_stack"] == 2 and row["turns"] == 0


@pytest.mark.parametrize(
    "wild",
    ["wild", "shuffle_hands", "customizable", "snorlax", "greninja", "grayskull"],
)
def test_setup_wild_types_only_name_a_colour(wild):
    home = {
        "shuffle_hands": "official-2018",
        "customizable": "official-2018",
        "snorlax": "pokemon",
        "greninja": "pokemon",
        "grayskull": "motu",
    }
    preset = home.get(wild, "official")
    rnd, row = setup_row(wild, rules={**PRESETS[preset], "blank_card": "swap_hands"})
    assert row["first_player"] == 0 and rnd.colour in COLOURS
    assert [row[f"hand_size_{s}"] for s in range(4)] == [2, 2, 2, 2]
    assert row["cards_drawn"] == 0 and rnd.pending_special is None and rnd.pending_draw == 0
    assert [rnd.hands[s] for s in range(4)] == [cards(h) for h in FOUR]  # no swap / shuffle


def test_setup_wild_draw_four_goes_back_into_the_pile():
    for seed in range(20):
        rnd = scripted("official", 4, FOUR, "wild4", ["red 5"], seed=seed, max_turns=0)
        row = rnd.play()
        assert rnd.discard == [card("red 5")] and row["first_player"] == 0
        assert rnd.draw_pile.count(card("wild4")) == 4


# ---------------------------------------------------------------------------
# End of round and points (RULES.md 5)
# ---------------------------------------------------------------------------


def test_last_card_draw_two_is_drawn_and_scored():
    rnd = scripted("official", 2, ["red draw2", "blue 5"], "red 3", ["wild", "red skip"])
    row = rnd.play()
    # seat 1 draws the wild and the red skip: 5 + 50 + 20 = 75 points
    assert row["winner"] == 0 and row["points"] == 75 and row["hand_points_1"] == 75
    assert row["cards_drawn"] == 2 and row["max_stack"] == 2 and row["hand_size_1"] == 3
    assert row["turns"] == 1 and row["cards_played"] == 1 and not row["truncated"]


def test_last_card_wild_draw_four_cannot_be_challenged():
    rnd = scripted(
        "official",
        2,
        ["wild4", "blue 5"],
        "red 3",
        ["red 9", "red 8", "red 7", "red 6"],
        params=[{}, {"challenge": 1.0}],
    )
    row = rnd.play()
    assert row["points"] == 5 + 9 + 8 + 7 + 6 and row["challenges"] == 0 and row["max_stack"] == 4


def test_last_card_seven_does_not_swap():
    rnd = scripted("seven-zero", 3, ["red 7", "blue 5", "green 5"], "red 3")
    row = rnd.play()
    assert row["winner"] == 0 and row["points"] == 10 and not events(rnd, "swap")


def test_max_turns_zero_truncates_immediately():
    row = play_round({"max_turns": 0}, 4, random.Random(3))
    assert row["truncated"] and row["winner"] == -1 and row["turns"] == 0 and row["points"] == 0


# ---------------------------------------------------------------------------
# Stacking (8.1)
# ---------------------------------------------------------------------------


def test_draw_two_stack_chain_ends_in_a_draw_of_six():
    rnd = scripted(
        "stacking",
        3,
        ["red draw2, blue 1", "blue draw2, green 9", "green draw2, yellow 8"],
        "red 5",
        max_turns=3,
    )
    row = rnd.play()
    # seat 0 +2 (2), seat 1 stacks +2 (4), seat 2 stacks +2 (6); seat 0 draws 6 (no turn)
    assert ("draw", 0, 6, "penalty") in rnd.log
    assert row["max_stack"] == 6 and row["cards_drawn"] == 6 and row["turns"] == 3
    assert [row[f"hand_size_{s}"] for s in range(3)] == [1 + 6, 1, 1]
    assert row["truncated"]  # stopped before seat 1's next turn


def test_no_stacking_without_the_house_rule():
    rnd = scripted(
        "official",
        3,
        ["red draw2, blue 1", "blue draw2, green 9", "green draw2, yellow 8"],
        "red 5",
        max_turns=1,
    )
    row = rnd.play()
    # seat 1 draws 2 and is skipped; seat 2 would play next
    assert row["hand_size_1"] == 4 and rnd.current == 2 and row["max_stack"] == 2


def test_stacked_wild_draw_four_is_exempt_and_not_challengeable():
    # seat 1 holds green (the named colour) yet may stack its +4; seat 2 may not challenge it
    rnd = scripted(
        "stacking",
        3,
        ["wild4, blue 1", "wild4, green 2", "yellow 3, yellow 4"],
        "red 5",
        params=[{}, {}, {"challenge": 1.0}],
        cls=FixedColour,
        max_turns=2,
    )
    rnd.NAMED = "green"
    row = rnd.play()
    assert row["challenges"] == 0 and row["max_stack"] == 8 and row["hand_size_2"] == 2 + 8


def test_progressive_stackable_cards():
    rnd = scripted("progressive", 2, ["blue 1", "green 2"], "red 5")
    rnd.setup()
    rnd.discard.append(card("red draw2"))
    rnd.colour = "red"
    assert rnd.is_stackable(card("blue draw2")) and rnd.is_stackable(card("wild4"))
    rnd.discard.append(card("wild4"))
    rnd.colour = "green"  # just named
    assert rnd.is_stackable(card("wild4")) and rnd.is_stackable(card("green draw2"))
    assert not rnd.is_stackable(card("blue draw2")) and not rnd.is_stackable(card("green 7"))
    rnd.rules["stacking"] = "same"
    assert not rnd.is_stackable(card("green draw2"))


def test_challenge_instead_of_stack():
    rnd = scripted(
        "stacking",
        3,
        ["wild4, blue 1", "wild4, green 2", "yellow 3, yellow 4"],
        "red 5",
        params=[{}, {"challenge": 1.0}, {}],
        max_turns=1,
    )
    row = rnd.play()
    # legal +4 challenged: seat 1 draws 4 + 2 = 6 and does not stack
    assert row["challenges"] == 1 and row["hand_size_1"] == 2 + 6 and rnd.current == 2


# ---------------------------------------------------------------------------
# Jump-in (8.3)
# ---------------------------------------------------------------------------


def test_jump_in_draw_two_passes_four_to_the_player_after_the_jumper():
    rnd = scripted(
        "jump-in",
        4,
        [
            "red draw2, blue 1",
            "yellow 3, yellow 4",
            "red draw2, green 7",
            "green 1, green 2",
        ],
        "red 5",
        max_turns=2,
    )
    row = rnd.play()
    # seat 0 +2 (2); seat 2 jumps in with the other red +2 (4); seat 3 draws 4; seat 1 untouched
    assert ("play", 2, card("red draw2"), "jump_in") in rnd.log
    assert [row[f"hand_size_{s}"] for s in range(4)] == [1, 2, 1, 2 + 4]
    assert row["max_stack"] == 4 and row["turns"] == 2 and row["cards_played"] == 2


def test_jump_in_skip_skips_the_player_after_the_jumper():
    rnd = scripted(
        "jump-in",
        4,
        [
            "red skip, blue 1",
            "yellow 3, yellow 4",
            "red skip, green 7",
            "green 1, green 2",
        ],
        "red 5",
        max_turns=2,
    )
    rnd.play()
    assert ("skipped", 3) in rnd.log and ("skipped", 1) not in rnd.log and rnd.current == 0


def test_jump_in_reverse_searches_in_the_new_direction_and_flips_back():
    rnd = scripted(
        "jump-in",
        4,
        [
            "red reverse, blue 1",
            "red reverse, yellow 4",
            "green 3, green 7",
            "green 1, green 2",
        ],
        "red 5",
        max_turns=2,
    )
    rnd.play()
    # seat 0 flips to counter-clockwise; the search goes 3, 2, 1; seat 1 flips back; next is seat 2
    assert ("play", 1, card("red reverse"), "jump_in") in rnd.log
    assert rnd.direction == 1 and rnd.current == 2


def test_no_jump_in_without_the_rule():
    rnd = scripted(
        "official",
        4,
        [
            "red draw2, blue 1",
            "yellow 3, yellow 4",
            "red draw2, green 7",
            "green 1, green 2",
        ],
        "red 5",
        max_turns=1,
    )
    row = rnd.play()
    assert row["hand_size_1"] == 4 and row["hand_size_2"] == 2


# ---------------------------------------------------------------------------
# Challenge, bluff, UNO (4.3, 4.4) and two players (4.5)
# ---------------------------------------------------------------------------


def test_caught_bluff():
    rnd = scripted(
        "official",
        3,
        [
            "wild4, red 1, blue 2",
            "green 3, green 4, green 5",
            "yellow 1, yellow 2, yellow 3",
        ],
        "red 5",
        params=[{"bluff": 1.0}, {"challenge": 1.0}, {}],
        max_turns=1,
    )
    row = rnd.play()
    # seat 0 holds red 1, so the +4 is a bluff; seat 1 challenges; seat 0 draws 4 (2 + 4)
    assert row["bluffs"] == 1 and row["challenges"] == 1 and row["hand_size_0"] == 6
    assert row["hand_size_1"] == 3 and row["cards_drawn"] == 4 and row["max_stack"] == 4
    assert row["truncated"] and rnd.current == 1  # seat 1 would now play on normally


def test_failed_challenge_costs_six():
    rnd = scripted(
        "official",
        3,
        [
            "wild4, blue 1, blue 2",
            "green 3, green 4, green 5",
            "yellow 1, yellow 2, yellow 3",
        ],
        "red 5",
        params=[{"bluff": 1.0}, {"challenge": 1.0}, {}],
        max_turns=1,
    )
    row = rnd.play()
    assert (
        row["bluffs"] == 0
        and row["challenges"] == 1
        and row["hand_size_1"] == 3 + 6
        and rnd.current == 2
    )


def test_no_challenge_when_rule_off():
    rnd = scripted(
        "portugal",
        3,
        [
            "wild4, red 1, blue 2",
            "green 3, green 4, green 5",
            "yellow 1, yellow 2, yellow 3",
        ],
        "red 5",
        params=[{"bluff": 1.0}, {"challenge": 1.0}, {}],
        max_turns=1,
    )
    row = rnd.play()
    assert row["bluffs"] == 1 and row["challenges"] == 0 and row["hand_size_1"] == 3 + 4


@pytest.mark.parametrize(
    "preset, catch, drawn",
    [("official", 1.0, 2), ("portugal", 1.0, 1), ("official", 0.0, 0)],
)
def test_forgotten_uno(preset, catch, drawn):
    rnd = scripted(
        preset,
        2,
        ["red 1, blue 9", "green 3, green 4"],
        "red 5",
        params=[{"forget_uno": 1.0}, {}],
        catch_uno=catch,
        max_turns=1,
    )
    row = rnd.play()
    assert (
        row["uno_penalties"] == (drawn > 0)
        and row["hand_size_0"] == 1 + drawn
        and row["cards_drawn"] == drawn
    )


def test_two_player_reverse_acts_as_skip():
    rnd = scripted(
        "official",
        2,
        ["red reverse, blue 1, blue reverse", "green 3, green 4, green 5"],
        "red 5",
        max_turns=2,
    )
    row = rnd.play()
    assert (
        ("skipped", 1) in rnd.log
        and row["hand_size_0"] == 1
        and row["hand_size_1"] == 3
        and row["turns"] == 2
    )


# ---------------------------------------------------------------------------
# Drawing (4.2, 8.4)
# ---------------------------------------------------------------------------


def test_draw_one_not_playable_ends_turn():
    row = scripted(
        "official",
        2,
        ["blue 1, blue 2", "green 3, green 4"],
        "red 5",
        ["green 9"],
        max_turns=1,
    ).play()
    assert row["hand_size_0"] == 3 and row["cards_played"] == 0 and row["cards_drawn"] == 1


def test_draw_one_playable_is_played():
    row = scripted(
        "official",
        2,
        ["blue 1, blue 2", "green 3, green 4"],
        "red 5",
        ["red 9"],
        max_turns=1,
    ).play()
    assert row["hand_size_0"] == 2 and row["cards_played"] == 1 and row["turns"] == 1


def test_draw_until_playable():
    rnd = scripted(
        "draw-until-playable",
        2,
        ["blue 1, blue 2", "green 3, green 4"],
        "red 5",
        ["green 9", "yellow 4", "red 9"],
        max_turns=1,
    )
    row = rnd.play()
    assert row["cards_drawn"] == 3 and row["hand_size_0"] == 4 and rnd.top == card("red 9")


# ---------------------------------------------------------------------------
# Seven-Zero (8.2) and special cards (2)
# ---------------------------------------------------------------------------


def test_seven_swaps_after_uno_check():
    rnd = scripted(
        "seven-zero",
        3,
        ["red 7, blue 1", "green 3, green 4", "yellow 6, yellow 8"],
        "red 5",
        max_turns=1,
    )
    rnd.play()
    ((_, a, b),) = events(rnd, "swap")
    assert a == 0 and b in (1, 2)
    assert rnd.hands[b] == [card("blue 1")] and len(rnd.hands[0]) == 2


def test_zero_passes_hands_in_direction_of_play():
    rnd = scripted(
        "seven-zero",
        3,
        ["red 0, blue 1", "green 3, green 4", "yellow 6, yellow 8"],
        "red 5",
        max_turns=1,
    )
    rnd.play()
    assert rnd.hands == [
        cards("yellow 6, yellow 8"),
        cards("blue 1"),
        cards("green 3, green 4"),
    ]


def test_snorlax():
    rnd = scripted(
        "pokemon",
        2,
        ["snorlax, blue 1, blue 2", "red 1, red 2, green 3"],
        "yellow 5",
        ["red 9", "blue 9", "yellow 9"],
        cls=FixedColour,
        max_turns=2,
    )
    row = rnd.play()
    # seat 1 draws 3 (6 cards) and discards its 3 reds: green 3, blue 9, yellow 9 stay
    assert sorted(map(repr, rnd.hands[1])) == ["blue 9", "green 3", "yellow 9"]
    assert row["cards_played"] == 1 + 3 and row["turns"] == 2 and rnd.colour == "red"
    assert rnd.top.colour == "red" and rnd.current == 0


def test_snorlax_victim_can_win():
    rnd = scripted(
        "pokemon",
        2,
        ["snorlax, blue 1, blue 2", "red 1, red 2, red 3"],
        "yellow 5",
        ["red 4", "red 6", "red 7"],
        cls=FixedColour,
    )
    row = rnd.play()
    assert row["winner"] == 1 and row["points"] == 1 + 2 and row["cards_played"] == 7


def test_greninja():
    rnd = scripted(
        "pokemon",
        2,
        ["greninja, blue 1, blue 2", "green 3, green 4, green 5"],
        "yellow 5",
        ["blue 9", "wild", "red 9", "yellow 1"],
        cls=FixedColour,
        max_turns=2,
    )
    row = rnd.play()
    # named red: seat 1 draws blue 9, wild, red 9 and stops; seat 0 names again and plays next
    assert (
        row["hand_size_1"] == 6
        and row["cards_drawn"] == 3
        and rnd.current == 0
        and row["turns"] == 2
    )


def test_grayskull():
    rnd = scripted(
        "motu",
        3,
        ["grayskull, blue 1", "green 3, green 4", "yellow 6, yellow 8"],
        "red 5",
        max_turns=1,
    )
    row = rnd.play()
    assert [row[f"hand_size_{s}"] for s in range(3)] == [1, 5, 5] and rnd.current == 1


def test_shuffle_hands():
    rnd = scripted(
        "official-2018",
        3,
        ["shuffle_hands, blue 1", "green 3, green 4", "yellow 6, yellow 8"],
        "red 5",
        max_turns=1,
    )
    row = rnd.play()
    # 5 cards dealt one at a time from seat 1: seats 1, 2, 0, 1, 2
    assert [row[f"hand_size_{s}"] for s in range(3)] == [1, 2, 2]


def test_customizable_swap_hands():
    rnd = scripted(
        "official-2018",
        3,
        ["customizable, blue 1", "green 3, green 4", "yellow 6, yellow 8"],
        "red 5",
        blank_card="swap_hands",
        max_turns=1,
    )
    rnd.play()
    assert len(events(rnd, "swap")) == 1 and len(rnd.hands[0]) == 2


# ---------------------------------------------------------------------------
# Random play: invariants after every step, every preset and house rule, 2..10 players
# ---------------------------------------------------------------------------

VARIANTS = dict(PRESETS)
VARIANTS.update(
    {
        "all-house-rules": {
            **PRESETS["official"],
            "stacking": "progressive",
            "seven_zero": True,
            "jump_in": True,
        },
        "swap-blanks": {
            **PRESETS["official-2018"],
            "blank_card": "swap_hands",
            "seven_zero": True,
        },
        "pokemon-until-playable": {
            **PRESETS["pokemon"],
            "draw_rule": "until_playable",
            "jump_in": True,
        },
        "motu-progressive": {**PRESETS["motu"], "stacking": "progressive"},
        "big-hands": {**PRESETS["official"], "hand_size": 10, "stacking": "same"},
    }
)
PARAMS = {"bluff": 0.3, "challenge": 0.5, "forget_uno": 0.3}


def check_row(rnd, row, n):
    hs = rnd.rules["hand_size"]
    sizes = [row[f"hand_size_{s}"] for s in range(n)]
    # cards in hands = dealt + drawn - played (swaps and shuffles move cards between hands)
    assert sum(sizes) == n * hs + row["cards_drawn"] - row["cards_played"]
    assert row["turns"] <= rnd.rules["max_turns"]
    if row["truncated"]:
        assert row["winner"] == -1 and row["points"] == 0
    else:
        w = row["winner"]
        assert sizes[w] == 0 and sum(1 for x in sizes if x == 0) == 1
        assert row["points"] == sum(row[f"hand_points_{s}"] for s in range(n))
    if rnd.rules["wd4_restriction"] == "none" or not rnd.rules["challenge"]:
        assert row["challenges"] == 0


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_cards_conserved_and_rows_consistent(name):
    rules = VARIANTS[name]
    for n in range(2, 11):
        for i in range(8):
            params = [PARAMS] * n if i % 2 else None
            if rules["hand_size"] * n + 1 > len(make_deck(rules)):
                continue
            rnd = Round(rules, n, game_rng(n, i), params, checks=True)
            row = rnd.play()
            rnd.check_invariants()
            check_row(rnd, row, n)


def test_params_are_exercised():
    rows = simulate("official", 4, 200, seed=3, params=[PARAMS] * 4)
    s = summarise(rows)
    assert s["mean_bluffs"] > 0 and s["mean_challenges"] > 0 and s["mean_uno_penalties"] > 0
    assert summarise(simulate("copag", 4, 100, 3, params=[PARAMS] * 4))["mean_bluffs"] == 0


def test_portugal_equals_official_for_random_play():
    # uno_penalty and challenge never matter when nobody forgets or challenges
    assert simulate("portugal", 4, 50, seed=11) == simulate("official", 4, 50, seed=11)


def test_summary_win_rates_add_up():
    s = summarise(simulate("official", 3, 100, seed=2))
    assert abs(sum(s["win_rate"]) + s["truncated"] / 100 - 1.0) < 1e-12
    assert DEFAULT_RULES["max_turns"] == 5000


# ---------------------------------------------------------------------------
# RULES.md 8.8-8.10 in the reference engine
# ---------------------------------------------------------------------------


def test_last_card_number_lone_action_card_draws_then_plays_the_drawn_card():
    # first red 5: seat 0's red skip is its last card, not a number -> draws red 7 and
    # plays it (two cards in hand); seat 1's yellow 7 (rank) goes out. points = skip 20
    rnd = scripted("official", 2, ["red skip", "yellow 7"], "red 5", ["red 7"], last_card="number")
    row = rnd.play()
    assert row["winner"] == 1 and row["points"] == 20 and row["cards_drawn"] == 1


def test_after_draw_pass_keeps_the_legal_drawn_card():
    # first red 5: seat 0's green 1 is not legal -> draws red 9 (legal), keeps it
    rnd = scripted(
        "official",
        2,
        ["green 1", "blue 9"],
        "red 5",
        ["red 9", "yellow 3"],
        after_draw="pass",
        max_turns=2,
    )
    row = rnd.play()
    assert row["truncated"] and row["cards_played"] == 0
    assert sorted(map(repr, rnd.hands[0])) == ["green 1", "red 9"]


def test_after_draw_pass_with_until_playable_is_refused():
    with pytest.raises(ValueError, match="after_draw"):
        Round({**PRESETS["draw-until-playable"], "after_draw": "pass"}, 2, random.Random(0))


@pytest.mark.parametrize(
    "hand,legal",
    [
        ("wild4, yellow 5", False),
        ("wild4, wild", False),
        ("wild4, blue 1", True),
        ("wild4, wild4", True),
    ],
)
def test_strict_wild_draw_four_needs_no_other_legal_card(hand, legal):
    rnd = scripted("official", 2, [hand, "blue 2, blue 3"], "green 5", wd4_restriction="strict")
    rnd.setup()
    assert rnd.is_legal(0, card("wild4")) is legal
