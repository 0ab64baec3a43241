"""Tests of unosim.game.rules (RuleSet, presets, TOML, hash, house switches, player counts)
and of unosim.players.strategies.parse (the Python side of strategy selection).

The expected values are written out from RULES.md (sections 2-9), not read from the
code under test, so a change of a default or of a preset shows up here.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys

import numpy as np
import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

from unosim.game.cards import N_BUILTIN_KINDS, N_COLOURED, N_COLOURS, N_KINDS
from unosim.game.rules import (
    CHOICES,
    OFFICIAL,
    PRESETS,
    RULE_NAMES,
    RuleError,
    RuleSet,
    apply,
    load_toml,
    parse_house,
    resolve,
)
from unosim.players import strategies as strat
from unosim.players.seats import parse as parse_seats

# ---------------------------------------------------------------------- RULES.md values

# RULES.md section 2: per colour one 0, two each of 1-9, two Skip, two Reverse, two Draw
# Two; 4 Wild, 4 Wild Draw Four; the edition cards are absent from the standard deck.
STANDARD_DECK = {
    "0": 1,
    **{str(r): 2 for r in range(1, 10)},
    "skip": 2,
    "reverse": 2,
    "draw_two": 2,
    "wild": 4,
    "wild_draw_four": 4,
    "shuffle_hands": 0,
    "customizable": 0,
    "snorlax": 0,
    "greninja": 0,
    "grayskull": 0,
}
# RULES.md section 2: numbers face value (-1 in rule files), actions 20, wild-type 50.
STANDARD_POINTS = {
    "number": -1,
    "skip": 20,
    "reverse": 20,
    "draw_two": 20,
    "wild": 50,
    "wild_draw_four": 50,
    "shuffle_hands": 50,
    "customizable": 50,
    "snorlax": 50,
    "greninja": 50,
    "grayskull": 50,
}
# Every rule with its RULES.md default (section in the comment).
RULES_MD_DEFAULTS = {
    "hand_size": 7,  # 3.1
    "deck": STANDARD_DECK,  # 2
    "points": STANDARD_POINTS,  # 2
    "blank_card": "wild",  # 2
    "voluntary_draw": True,  # 4.2
    "draw_rule": "one",  # 4.2
    "wd4_restriction": "colour",  # 4.3
    "challenge": True,  # 4.3
    "challenge_penalty": 2,  # 4.3, 8.7
    "catch_uno": 1.0,  # 4.4
    "uno_penalty": 2,  # 4.4, 8.7
    "scoring": "winner_takes_all",  # 5
    "max_turns": 5000,  # 5
    "target_score": 500,  # 7
    "next_dealer": "rotate",  # 7
    "penalty_elimination": False,  # 7
    "elimination_score": 500,  # 7
    "max_rounds": 1000,  # project's safety stop for matches (not in RULES.md)
    "stacking": "none",  # 8.1
    "seven_zero": False,  # 8.2
    "jump_in": False,  # 8.3
    "multi_play": False,  # 8.6
    "last_card": "any",  # 8.8
    "after_draw": "play",  # 8.9
    "cards": (),  # 2: no declared cards (docs/cards.md)
}
# RULES.md section 8: the allowed values of the enumerated rules.
RULES_MD_CHOICES = {
    "stacking": {"none", "same", "progressive"},
    "draw_rule": {"one", "until_playable"},
    "wd4_restriction": {"colour", "none", "strict"},  # 4.3, 8.5, 8.10
    "blank_card": {"wild", "swap_hands"},
    "scoring": {"winner_takes_all", "each_own_negative"},
    "next_dealer": {"rotate", "winner"},
    "last_card": {"any", "number"},  # 8.8
    "after_draw": {"play", "pass"},  # 8.9
}
# RULES.md section 9: each preset's deck size and its exact differences from official.
PRESET_SPEC = {
    "official": (108, {}),
    "official-2018": (112, {"deck": {"shuffle_hands": 1, "customizable": 3}}),
    "pokemon": (112, {"deck": {"snorlax": 2, "greninja": 2}, "next_dealer": "winner"}),
    "motu": (112, {"deck": {"grayskull": 4}}),
    "copag": (108, {"wd4_restriction": "none", "challenge": False, "multi_play": True}),
    "portugal": (108, {"uno_penalty": 1, "challenge": False}),
    "stacking": (108, {"stacking": "same"}),
    "progressive": (108, {"stacking": "progressive"}),
    "seven-zero": (108, {"seven_zero": True}),
    "jump-in": (108, {"jump_in": True}),
    "draw-until-playable": (108, {"draw_rule": "until_playable"}),
}

# The hash of `official`, computed once: it names result files, so it must not change
# by accident (changing a default, the field order, or the serialisation changes it).
OFFICIAL_HASH = "f66448c0bb972b16"


def write(tmp_path, text: str, name: str = "rules.toml"):
    p = tmp_path / name
    p.write_text(text)
    return p


def diff(rs: RuleSet, base: RuleSet = OFFICIAL) -> dict:
    """The rules where ``rs`` differs from ``base``; deck/points as changed entries."""
    a, b = rs.to_dict(with_name=False), base.to_dict(with_name=False)
    out = {}
    for k in a:
        if k in ("deck", "points"):
            changed = {e: v for e, v in a[k].items() if b[k][e] != v}
            if changed:
                out[k] = changed
        elif a[k] != b[k] or type(a[k]) is not type(b[k]):
            out[k] = a[k]
    return out


# -------------------------------------------------------------------------- defaults


def test_rule_names_are_exactly_the_documented_ones():
    assert set(RULE_NAMES) == set(RULES_MD_DEFAULTS)
    assert [f.name for f in dataclasses.fields(RuleSet)][0] == "name"


def test_every_default_equals_rules_md():
    rs = RuleSet()
    d = rs.to_dict(with_name=False)
    for key, want in RULES_MD_DEFAULTS.items():
        if key == "cards":  # none declared: left out of the dict, the TOML and the hash
            assert key not in d and rs.cards == want
            continue
        assert d[key] == want, key
        assert type(d[key]) is type(want), key
    assert rs == OFFICIAL == PRESETS["official"]
    assert rs.name == "official"


def test_choices_are_the_documented_values():
    assert {k: set(v) for k, v in CHOICES.items()} == RULES_MD_CHOICES


def test_standard_deck_composition():
    counts = OFFICIAL.deck_counts()
    assert counts.shape == (N_KINDS,)
    assert OFFICIAL.deck_size() == 108
    assert int(counts[:N_COLOURED].sum()) == 100  # 25 per colour
    for c in range(N_COLOURS):
        assert int(counts[c * 13 : (c + 1) * 13].sum()) == 25
    assert int(counts[N_COLOURED:].sum()) == 8


def test_standard_points_table():
    t = OFFICIAL.points_table()
    for c in range(N_COLOURS):
        assert list(t[c * 13 : c * 13 + 10]) == list(range(10))  # face value
        assert list(t[c * 13 + 10 : c * 13 + 13]) == [20, 20, 20]
    assert set(t[N_COLOURED:N_BUILTIN_KINDS].tolist()) == {50}
    assert not t[N_BUILTIN_KINDS:].any()  # the kinds reserved for declared cards


# --------------------------------------------------------------------------- presets


def test_preset_names_are_exactly_section_9():
    assert list(PRESETS) == list(PRESET_SPEC)


@pytest.mark.parametrize("name", list(PRESET_SPEC))
def test_preset_has_exactly_the_listed_differences(name):
    size, changes = PRESET_SPEC[name]
    rs = PRESETS[name]
    assert rs.name == name
    assert rs.deck_size() == size
    assert diff(rs) == changes


def test_official_2018_cards():
    d = PRESETS["official-2018"].deck_dict
    assert (d["shuffle_hands"], d["customizable"]) == (1, 3)
    assert PRESETS["official-2018"].blank_card == "wild"


def test_pokemon_cards_and_dealer():
    rs = PRESETS["pokemon"]
    assert (rs.deck_dict["snorlax"], rs.deck_dict["greninja"]) == (2, 2)
    assert rs.next_dealer == "winner"


def test_motu_cards():
    assert PRESETS["motu"].deck_dict["grayskull"] == 4


def test_presets_all_have_distinct_hashes():
    hashes = [rs.hash() for rs in PRESETS.values()]
    assert len(set(hashes)) == len(hashes)


@pytest.mark.parametrize("name", list(PRESET_SPEC))
def test_resolve_preset_by_name(name):
    assert resolve(name) is PRESETS[name]


# ------------------------------------------------------------------------------ hash


def test_official_hash_is_the_recorded_literal():
    assert OFFICIAL.hash() == OFFICIAL_HASH
    assert RuleSet().hash() == OFFICIAL_HASH


def test_hash_is_stable_across_processes():
    code = (
        "from unosim.game.rules import PRESETS; print(' '.join(r.hash() for r in PRESETS.values()))"
    )
    env_runs = []
    for seed in ("0", "12345"):  # hash randomisation must not matter
        out = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )
        env_runs.append(out.stdout.split())
    assert env_runs[0] == env_runs[1] == [r.hash() for r in PRESETS.values()]


def test_hash_ignores_the_name():
    assert OFFICIAL.replace(name="something else").hash() == OFFICIAL_HASH
    assert PRESETS["stacking"].hash() == OFFICIAL.replace(stacking="same", name="x").hash()


def _one_change_each() -> list[tuple[str, dict]]:
    """A valid change of every rule (and of every deck and points entry)."""
    out = []
    for key in RULE_NAMES:
        v = getattr(OFFICIAL, key)
        if key == "deck":
            for entry, n in OFFICIAL.deck_dict.items():
                out.append((f"deck.{entry}", {"deck": {entry: n + 1}}))
        elif key == "points":
            for entry, n in OFFICIAL.points_dict.items():
                out.append((f"points.{entry}", {"points": {entry: n + 7}}))
        elif key == "cards":
            wild = {"colours": "wild", "effect": ["name_colour", "skip next"]}
            out.append(("cards", {"cards": {"wild_skip": wild}}))
        elif isinstance(v, bool):
            out.append((key, {key: not v}))
        elif isinstance(v, str):
            for other in CHOICES[key]:
                if other != v:
                    out.append((f"{key}={other}", {key: other}))
        elif isinstance(v, float):
            out.append((key, {key: 0.5}))
        else:
            out.append((key, {key: v + 1}))
    return out


CHANGES = _one_change_each()


@pytest.mark.parametrize("label,change", CHANGES, ids=[c[0] for c in CHANGES])
def test_hash_changes_with_every_rule(label, change):
    rs = apply(OFFICIAL, change, name="official")
    assert rs != OFFICIAL
    assert rs.hash() != OFFICIAL_HASH


def test_hashes_of_single_changes_are_all_distinct():
    hashes = {apply(OFFICIAL, c).hash() for _, c in CHANGES}
    assert len(hashes) == len(CHANGES)


def test_all_rules_are_covered_by_the_change_list():
    covered = {label.split(".")[0].split("=")[0] for label, _ in CHANGES}
    assert covered == set(RULE_NAMES)


def test_equal_rulesets_have_equal_hashes_int_probability(tmp_path):
    rs = load_toml(write(tmp_path, "catch_uno = 1\n", "official.toml"))
    assert rs == OFFICIAL
    assert rs.hash() == OFFICIAL_HASH


# ------------------------------------------------------------------------------ TOML


def _roundtrip_cases():
    cases = dict(PRESETS)
    cases["custom"] = apply(
        OFFICIAL,
        {
            "deck": {"skip": 0, "reverse": 3, "wild": 0, "grayskull": 2},
            "points": {"number": 5, "grayskull": 75},
            "catch_uno": 0.25,
            "stacking": "progressive",
            "hand_size": 5,
            "scoring": "each_own_negative",
            "blank_card": "swap_hands",
            "penalty_elimination": True,
            "voluntary_draw": False,
            "cards": {
                "wild_draw_six": {"colours": "wild", "effect": ["name_colour", "draw 6 next"]},
                "swapper": {"copies": 1, "matches": "colour", "effect": ["swap chosen"]},
            },
        },
        name="my custom rules",
    )
    return cases


ROUNDTRIP = _roundtrip_cases()


@pytest.mark.parametrize("name", list(ROUNDTRIP))
def test_toml_round_trip(tmp_path, name):
    rs = ROUNDTRIP[name]
    text = rs.to_toml()
    tomllib.loads(text)  # valid TOML
    back = load_toml(write(tmp_path, text))
    assert back == rs
    assert back.name == rs.name
    assert back.hash() == rs.hash()
    assert back.to_toml() == text
    assert np.array_equal(back.to_array(), rs.to_array())
    assert np.array_equal(back.deck_counts(), rs.deck_counts())
    assert np.array_equal(back.points_table(), rs.points_table())


def test_toml_name_defaults_to_file_stem(tmp_path):
    rs = load_toml(write(tmp_path, 'stacking = "same"\n', "my-house.toml"))
    assert rs.name == "my-house"
    assert rs.hash() == PRESETS["stacking"].hash()


def test_empty_toml_is_official(tmp_path):
    rs = load_toml(write(tmp_path, "", "official.toml"))
    assert rs == OFFICIAL
    assert rs.hash() == OFFICIAL_HASH


def test_toml_preset_copag_as_base(tmp_path):
    rs = load_toml(write(tmp_path, 'preset = "copag"\nuno_penalty = 1\n', "c.toml"))
    assert rs.wd4_restriction == "none"
    assert rs.challenge is False
    assert rs.multi_play is True
    assert rs.uno_penalty == 1
    assert diff(rs, PRESETS["copag"]) == {"uno_penalty": 1}
    # only the preset key: the preset's hash
    only = load_toml(write(tmp_path, 'preset = "copag"\n', "copag2.toml"))
    assert only.hash() == PRESETS["copag"].hash()


def test_toml_preset_with_deck_table(tmp_path):
    rs = load_toml(write(tmp_path, 'preset = "pokemon"\n[deck]\nsnorlax = 4\n', "p.toml"))
    assert rs.deck_dict["snorlax"] == 4
    assert rs.deck_dict["greninja"] == 2  # untouched entries keep the preset's values
    assert rs.next_dealer == "winner"
    assert rs.deck_size() == 114


def test_custom_numbers_only_deck(tmp_path):
    text = "[deck]\nskip = 0\nreverse = 0\ndraw_two = 0\nwild = 0\nwild_draw_four = 0\n"
    rs = load_toml(write(tmp_path, text, "numbers.toml"))
    counts = rs.deck_counts()
    assert rs.deck_size() == 76  # 4 colours x (one 0 + two each of 1-9)
    assert int(counts[N_COLOURED:].sum()) == 0
    for c in range(N_COLOURS):
        assert counts[c * 13 + 10 : c * 13 + 13].tolist() == [0, 0, 0]
    rs.check_players(4)
    rs.check_players(10)  # 10 * 7 + 1 = 71 <= 76
    # and the kernel plays it
    from unosim.sim.simulate import simulate

    df = simulate(rs, n_games=50, n_players=4, seed=3)
    assert len(df) == 50
    assert (df["max_stack"] == 0).all()
    assert not df["truncated"].any()


# ---------------------------------------------------------------------- TOML errors


def _load_error(tmp_path, text: str) -> str:
    with pytest.raises(RuleError) as e:
        load_toml(write(tmp_path, text))
    msg = str(e.value)
    assert "\n" not in msg
    return msg


@pytest.mark.parametrize(
    "text,key",
    [
        ("hand_sise = 7\n", "hand_sise"),
        ('stacking = "same"\nseven_zeros = true\n', "seven_zeros"),
        ("[decks]\nwild = 2\n", "decks"),
    ],
)
def test_load_rejects_unknown_key(tmp_path, text, key):
    assert key in _load_error(tmp_path, text)


@pytest.mark.parametrize(
    "text,key",
    [
        ("seven_zero = 1\n", "seven_zero"),
        ("stacking = 3\n", "stacking"),
        ("hand_size = 7.5\n", "hand_size"),
        ("max_turns = 5000.0\n", "max_turns"),
        ('challenge = "maybe"\n', "challenge"),
        ("catch_uno = true\n", "catch_uno"),
        ('catch_uno = "high"\n', "catch_uno"),
        ("deck = 3\n", "deck"),
        ('points = "lots"\n', "points"),
        ('[deck]\nwild = "4"\n', "wild"),
        ("[deck]\nwild = true\n", "wild"),
        ("[deck]\nwild = 1.5\n", "wild"),
        ('[points]\nskip = "20"\n', "skip"),
    ],
)
def test_load_rejects_wrong_type(tmp_path, text, key):
    assert key in _load_error(tmp_path, text)


@pytest.mark.parametrize(
    "text,key",
    [
        ('hand_size = "7"\n', "hand_size"),
        ('seven_zero = "true"\n', "seven_zero"),
        ('catch_uno = "0.5"\n', "catch_uno"),
    ],
)
def test_load_rejects_text_for_number_or_bool(tmp_path, text, key):
    assert key in _load_error(tmp_path, text)


@pytest.mark.parametrize(
    "text,key",
    [
        ('stacking = "sometimes"\n', "stacking"),
        ('draw_rule = "two"\n', "draw_rule"),
        ('next_dealer = "loser"\n', "next_dealer"),
        ("hand_size = 0\n", "hand_size"),
        ("hand_size = -3\n", "hand_size"),
        ("max_turns = 0\n", "max_turns"),
        ("max_turns = 2000000\n", "max_turns"),
        ("target_score = 0\n", "target_score"),
        ("catch_uno = 1.5\n", "catch_uno"),
        ("catch_uno = -0.1\n", "catch_uno"),
        ("uno_penalty = -1\n", "uno_penalty"),
        ("challenge_penalty = 101\n", "challenge_penalty"),
        ("[deck]\nwild = -1\n", "deck"),
        ("[deck]\n5 = 200\n", "deck"),
        (
            "[deck]\n"
            + "".join(
                f"{r} = 0\n"
                for r in [
                    "0",
                    "1",
                    "2",
                    "3",
                    "4",
                    "5",
                    "6",
                    "7",
                    "8",
                    "9",
                    "skip",
                    "reverse",
                    "draw_two",
                ]
            ),
            "deck",
        ),
    ],
)
def test_load_rejects_impossible_value(tmp_path, text, key):
    assert key in _load_error(tmp_path, text)


@pytest.mark.parametrize(
    "text,key",
    [
        ("[deck]\npurple = 2\n", "purple"),
        ("[deck]\n10 = 2\n", "10"),
        ("[points]\nwild_draw_two = 50\n", "wild_draw_two"),
        ("[points]\n7 = 7\n", "7"),
    ],
)
def test_load_rejects_unknown_deck_or_points_entry(tmp_path, text, key):
    msg = _load_error(tmp_path, text)
    assert repr(key) in msg


def test_load_rejects_unknown_preset(tmp_path):
    assert "nosuch" in _load_error(tmp_path, 'preset = "nosuch"\n')


def test_load_rejects_bad_toml_syntax(tmp_path):
    assert "rules.toml" in _load_error(tmp_path, "hand_size = = 7\n")


def test_load_missing_file(tmp_path):
    with pytest.raises(RuleError, match="not found"):
        load_toml(tmp_path / "absent.toml")


def test_load_rejects_non_string_preset(tmp_path):
    _load_error(tmp_path, 'preset = ["copag"]\n')


def test_load_rejects_points_out_of_range(tmp_path):
    assert "points" in _load_error(tmp_path, "[points]\nwild = 40000\n")


# ----------------------------------------------------------------- house rules, resolve


def test_parse_house_ok():
    assert parse_house("stacking=same, seven_zero = true,") == {
        "stacking": "same",
        "seven_zero": "true",
    }
    assert parse_house("") == {}


@pytest.mark.parametrize(
    "text,key",
    [
        ("stacking", "stacking"),
        ("stacking=same,jump_in", "jump_in"),
        ("nosuch=1", "nosuch"),
        ("Stacking=same", "Stacking"),
        ("deck=3", "deck"),
        ("points=3", "points"),
        ("name=x", "name"),
    ],
)
def test_parse_house_errors(text, key):
    with pytest.raises(RuleError) as e:
        parse_house(text)
    assert key in str(e.value)


def test_resolve_with_house():
    rs = resolve("official", "stacking=same,seven_zero=on,catch_uno=0.5,hand_size=5")
    assert rs.stacking == "same" and rs.seven_zero is True
    assert rs.catch_uno == 0.5 and rs.hand_size == 5
    assert rs.name == "official+stacking=same,seven_zero=on,catch_uno=0.5,hand_size=5"
    assert resolve("official", "stacking=same").hash() == PRESETS["stacking"].hash()
    assert resolve("copag", {"challenge": True}).challenge is True


@pytest.mark.parametrize(
    "house,key",
    [
        ("stacking=sometimes", "stacking"),
        ("seven_zero=maybe", "seven_zero"),
        ("hand_size=abc", "hand_size"),
        ("hand_size=0", "hand_size"),
        ("catch_uno=2", "catch_uno"),
    ],
)
def test_resolve_house_bad_value(house, key):
    with pytest.raises(RuleError) as e:
        resolve("official", house)
    assert key in str(e.value)


def test_resolve_unknown_preset():
    with pytest.raises(RuleError, match="nosuch"):
        resolve("nosuch")


def test_resolve_toml_path(tmp_path):
    p = write(tmp_path, 'preset = "portugal"\n', "pt.toml")
    assert resolve(str(p)).hash() == PRESETS["portugal"].hash()
    assert resolve(p, "uno_penalty=2").uno_penalty == 2


def test_ruleset_is_frozen_and_validated():
    with pytest.raises(dataclasses.FrozenInstanceError):
        OFFICIAL.hand_size = 8  # type: ignore[misc]
    with pytest.raises(RuleError, match="stacking"):
        RuleSet(stacking="always")
    with pytest.raises(RuleError, match="jump_in"):
        RuleSet(jump_in="yes")  # type: ignore[arg-type]


# ---------------------------------------------------------------------- check_players


@pytest.mark.parametrize("n", [1, 0, -1, 11, 100])
def test_check_players_out_of_range(n):
    with pytest.raises(RuleError, match="players"):
        OFFICIAL.check_players(n)


@pytest.mark.parametrize("name", list(PRESETS))
def test_check_players_every_count_fits_every_preset(name):
    for n in range(2, 11):
        PRESETS[name].check_players(n)


def test_check_players_hand_size_too_big():
    # section 3: the deal plus one card to turn plus the Wild Draw Fours that go back
    ok = OFFICIAL.replace(hand_size=25)  # 4 * 25 + 1 + 4 = 105 <= 108
    ok.check_players(4)
    too_big = OFFICIAL.replace(hand_size=26)  # 109 > 108
    with pytest.raises(RuleError, match="hand_size") as e:
        too_big.check_players(4)
    assert "108" in str(e.value)
    with pytest.raises(RuleError, match="hand_size"):
        OFFICIAL.replace(hand_size=30).check_players(4)
    with pytest.raises(RuleError, match="hand_size"):
        OFFICIAL.replace(hand_size=11).check_players(10)  # 111 > 108
    OFFICIAL.replace(hand_size=10).check_players(10)  # 105
    # a deck exactly as large as needed is enough: 4 * 7 + 1 + 4 = 33
    ranks = [str(r) for r in range(10)] + ["skip", "reverse", "draw_two"]
    small = apply(OFFICIAL, {"deck": {**{r: 0 for r in ranks}, "0": 7, "wild": 0}})
    assert small.deck_size() == 32  # 28 zeros + 4 Wild Draw Fours
    with pytest.raises(RuleError, match="hand_size"):
        small.check_players(4)
    apply(small, {"deck": {"wild": 1}}).check_players(4)  # 33 cards: just enough


# --------------------------------------------------------------------- to_array sanity


def test_to_array_reflects_rules():
    from unosim.kernel.core import layout as L

    a = PRESETS["copag"].to_array()
    assert a[L.R_WD4_RESTRICTION] == L.WD4_NONE and a[L.R_CHALLENGE] == 0
    assert a[L.R_MULTI_PLAY] == 1
    b = OFFICIAL.to_array()
    assert b[L.R_HAND_SIZE] == 7 and b[L.R_WD4_RESTRICTION] == L.WD4_COLOUR
    assert b[L.R_CHALLENGE] == 1
    assert b[L.R_CATCH_UNO] == 2**32
    assert PRESETS["progressive"].to_array()[L.R_STACKING] == L.STACK_PROGRESSIVE
    assert PRESETS["draw-until-playable"].to_array()[L.R_DRAW_RULE] == L.DRAW_UNTIL_PLAYABLE
    assert PRESETS["pokemon"].to_array()[L.R_NEXT_DEALER] == L.DEALER_WINNER


# ------------------------------------------------------------------ strategies.parse

HEUR = strat.NAMES.index("heuristic")
RAND = strat.NAMES.index("random")
P = {name: i for i, name in enumerate(strat.PARAM_NAMES)}


def test_parse_one_name_for_every_seat():
    ids, params, labels = parse_seats("random", 4)
    assert ids.shape == (10,) and params.shape == (10, strat.N_PARAMS)
    assert ids[:4].tolist() == [RAND] * 4
    assert labels == ["random"] * 4
    for s in range(4):
        assert params[s].tolist() == list(strat.DEFAULTS["random"])


def test_random_defaults_are_the_spec():
    # section 10: never bluffs, never challenges, never forgets UNO, always jumps in
    d = dict(zip(strat.PARAM_NAMES, strat.DEFAULTS["random"]))
    assert d["bluff"] == 0 and d["challenge"] == 0 and d["forget_uno"] == 0
    assert d["jump"] == 1


def test_parse_comma_list_one_per_seat():
    ids, params, labels = parse_seats("heuristic, random,random", 3)
    assert ids[:3].tolist() == [HEUR, RAND, RAND]
    assert labels == ["heuristic", "random", "random"]
    assert params[0, P["challenge"]] == strat.CHALLENGE_SMART


def test_parse_list_argument():
    ids, _, labels = parse_seats(["random", "heuristic:bluff=0.1"], 2)
    assert ids[:2].tolist() == [RAND, HEUR]
    assert labels == ["random", "heuristic:bluff=0.1"]


def test_parse_params_with_semicolons():
    ids, params, labels = parse_seats("heuristic:bluff=0.3;challenge=smart", 4)
    assert ids[:4].tolist() == [HEUR] * 4
    for s in range(4):
        assert params[s, P["bluff"]] == pytest.approx(0.3)
        assert params[s, P["challenge"]] == strat.CHALLENGE_SMART
    assert labels == ["heuristic:bluff=0.3"] * 4  # smart is the default: not in the label


def test_parse_params_comma_continuation():
    ids, params, labels = parse_seats("heuristic:bluff=0.3,challenge=0.5,random", 2)
    assert ids[:2].tolist() == [HEUR, RAND]
    assert params[0, P["bluff"]] == pytest.approx(0.3)
    assert params[0, P["challenge"]] == pytest.approx(0.5)
    assert params[1].tolist() == list(strat.DEFAULTS["random"])
    assert labels == ["heuristic:bluff=0.3;challenge=0.5", "random"]


def test_parse_comma_continuation_single_strategy_for_all():
    ids, params, labels = parse_seats("random:bluff=0.2,forget_uno=0.1", 3)
    assert ids[:3].tolist() == [RAND] * 3
    assert labels == ["random:bluff=0.2;forget_uno=0.1"] * 3
    assert params[2, P["forget_uno"]] == pytest.approx(0.1)


def test_parse_continuation_without_colon():
    _, params, labels = parse_seats("random,challenge=always", 1)
    assert labels == ["random:challenge=1"]
    assert params[0, P["challenge"]] == 1.0


def test_parse_named_challenge_values():
    _, params, _ = parse_seats("heuristic:challenge=never,random:challenge=always", 2)
    assert params[0, P["challenge"]] == 0.0 and params[1, P["challenge"]] == 1.0


def test_parse_label_round_trips():
    _, params, labels = parse_seats("heuristic:stack=0.25;jump=0;forget_uno=0.5,random", 2)
    ids2, params2, labels2 = parse_seats(",".join(labels), 2)
    assert labels2 == labels
    assert np.array_equal(params2, params)


@pytest.mark.parametrize(
    "spec,word",
    [
        ("nosuch", "nosuch"),
        ("random,nosuch,random,random", "nosuch"),
        ("Random", "Random"),
    ],
)
def test_parse_unknown_strategy(spec, word):
    with pytest.raises(strat.StrategyError, match="unknown strategy") as e:
        parse_seats(spec, 4)
    assert repr(word) in str(e.value)


@pytest.mark.parametrize(
    "spec,word",
    [
        ("heuristic:blu=0.3", "blu"),
        ("heuristic:bluff", "bluff"),
        ("random:bluff=0.1;speed=2", "speed"),
    ],
)
def test_parse_unknown_param(spec, word):
    with pytest.raises(strat.StrategyError, match="parameter") as e:
        parse_seats(spec, 4)
    assert word in str(e.value)


@pytest.mark.parametrize(
    "spec,word",
    [
        ("heuristic:bluff=1.5", "bluff"),
        ("heuristic:bluff=-0.1", "bluff"),
        ("random:forget_uno=2", "forget_uno"),
        ("heuristic:challenge=-1", "challenge"),
        ("heuristic:stack=nan", "stack"),
        ("heuristic:jump=inf", "jump"),
        ("heuristic:bluff=lots", "bluff"),
        ("heuristic:challenge=sometimes", "challenge"),
    ],
)
def test_parse_bad_probability(spec, word):
    with pytest.raises(strat.StrategyError) as e:
        parse_seats(spec, 4)
    assert word in str(e.value)


@pytest.mark.parametrize(
    "spec,n",
    [
        ("random,random", 4),
        ("random,random,random,random,random", 4),
        ("heuristic:bluff=0.3,challenge=0.5,random", 3),
    ],
)
def test_parse_wrong_number_of_seats(spec, n):
    with pytest.raises(strat.StrategyError, match=f"for {n} players"):
        parse_seats(spec, n)


@pytest.mark.parametrize("spec", ["", "random,,random", "random, ,random"])
def test_parse_empty_strategy(spec):
    with pytest.raises(strat.StrategyError):
        parse_seats(spec, 3)


def test_errors_are_value_errors():
    # the CLI and make_job rely on this to print one-line errors
    assert issubclass(RuleError, ValueError)
    assert issubclass(strat.StrategyError, ValueError)


def test_manifest_rules_toml_loads_back(tmp_path):
    from unosim.sim.simulate import make_job

    job = make_job("pokemon", 10, 3, "heuristic,random,random", seed=7, house="stacking=same")
    m = job.manifest()
    json.dumps(m)  # JSON-serialisable
    back = load_toml(write(tmp_path, m["rules_toml"]))
    assert back == job.rules
    assert back.hash() == m["rules_hash"]
