"""A declared card and a rule file's house switches appear, in words, wherever a rule
appears: ``unosim report``'s rules table, the design page and the printable
house-rules card; minutes beside turns in ``unosim report``."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from unosim.analysis import design as ds
from unosim.cli.app import app
from unosim.game.rules import resolve
from unosim.report.design_page import card_html, write_design
from unosim.report.pace import first_player_sentence, minutes_text
from unosim.report.rule_words import card_sentence, rules_in_words

runner = CliRunner()

HOUSE = """preset = "official"
name = "our-house"
seven_zero = true

[cards.wild_draw_six]
colours = "wild"
copies = 2
points = 50
stack = true
effect = ["name_colour", "draw 6 next"]
"""
CARD_WORDS = "Add 2 Wild Draw Six wild cards: when one is played, you name a colour, then "
CARD_EFFECT = "the next player draws 6 cards"
SEVEN_ZERO = "Seven-Zero"


@pytest.fixture(scope="module")
def house(tmp_path_factory):
    path = tmp_path_factory.mktemp("rules") / "our-house.toml"
    path.write_text(HOUSE)
    return path


def test_rules_in_words_name_the_switch_and_the_card(house):
    lines = rules_in_words(resolve(str(house)))
    assert lines[0].startswith(SEVEN_ZERO)
    assert lines[1].startswith(CARD_WORDS) and CARD_EFFECT in lines[1]
    assert "it can be stacked" in lines[1] and "50 points" in lines[1]
    assert rules_in_words(resolve("official")) == []


def test_every_step_has_words():
    from unosim.game.declare import parse_card
    from unosim.report.rule_words import STEP_WORDS

    spec = parse_card("x", {"effect": ["draw 1 chosen", "reverse", "swap chosen"]})
    text = card_sentence(spec)
    assert "a player you choose draws 1 card, then the direction" in text
    assert "_" not in text
    assert all("{" not in v or "{n}" in v for v in STEP_WORDS.values())


def test_minutes_and_first_player_words():
    assert minutes_text(50, 6) == "about 5.0 minutes (50.0 turns)"
    s = first_player_sentence(0.3414, 3)
    assert s == (
        "Going first helps a little: out of 100 rounds the player who goes first wins "
        "about 34, where a fair share is 33."
    )
    assert first_player_sentence(0.2502, 4).startswith("Going first does not really matter")
    assert first_player_sentence(0.36, 3, (0.30, 0.42)).startswith("These rounds cannot tell")


def test_report_names_the_declared_card_and_seven_zero(house, tmp_path):
    out = tmp_path / "rep"
    r = runner.invoke(
        app,
        [
            "report",
            str(house),
            "--players",
            "3",
            "--games",
            "200",
            "--out",
            str(out),
            "--no-progress",
            "--seconds-per-turn",
            "10",
        ],
    )
    assert r.exit_code == 0, r.output
    md = (out / "report.md").read_text()
    table = md.split("## The rules played", 1)[1]
    assert SEVEN_ZERO in table and "Wild Draw Six" in table and CARD_EFFECT in table
    table_talk = [ln for ln in r.stdout.splitlines() if ln.startswith("at the table ")]
    assert len(table_talk) == 2, r.stdout
    assert "minutes" in table_talk[0] and "at 10 seconds a turn" in table_talk[0]
    assert "going first" in table_talk[1].lower()
    html = (out / "report.html").read_text()
    assert "Wild Draw Six" in html and SEVEN_ZERO in html


def test_report_refuses_a_pace_no_table_has(tmp_path):
    r = runner.invoke(
        app, ["report", "official", "--seconds-per-turn", "0", "--out", str(tmp_path / "x")]
    )
    assert r.exit_code == 2 and "--seconds-per-turn" in r.stderr


def test_design_card_names_the_declared_card_and_seven_zero(house, tmp_path):
    d = ds.design(
        ["turns<=200"],
        n_players=3,
        base=str(house),
        vary="jump_in",
        budget=2000,
        finalists=1,
        confirm_games=500,
        seed=3,
        threads=1,
    )
    card = card_html(d)
    rules = card.split("What to expect", 1)[0]
    assert "Play Official UNO with these changes" in rules
    assert SEVEN_ZERO in rules and "Wild Draw Six" in rules and CARD_EFFECT in rules
    write_design(d, tmp_path / "d", command="unosim design")
    page = (tmp_path / "d" / "design.md").read_text()
    assert "Wild Draw Six" in page and SEVEN_ZERO in page
