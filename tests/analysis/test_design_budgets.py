"""`unosim design` past its bounds (budgets, search space, targets): one line before any
work; candidates of many rules are not file names; the design plays in pieces."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from unosim.cli.app import app

runner = CliRunner()


def _one_line_error(r, *words: str) -> str:
    assert r.exit_code == 2, (r.exit_code, r.output, r.exception)
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("unosim: error: "), r.output
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


@pytest.mark.parametrize(
    "option, value, bound",
    [
        ("--budget", str(10**15), "100,000,000"),
        ("--budget", str(10**11), "100,000,000"),
        ("--confirm-games", str(10**13), "10,000,000"),
        ("--finalists", str(10**6), "100"),
    ],
)
def test_design_budgets_are_bounded_before_any_work(option, value, bound, tmp_path):
    out = tmp_path / "d"
    r = runner.invoke(
        app,
        ["design", "--target", "turns=30..40", option, value, "--out", str(out), "--no-progress"],
    )
    _one_line_error(r, option, bound)
    assert not out.exists()


def test_design_space_past_its_bound(tmp_path):
    from unosim.analysis import design as ds

    # about 4e18 rule sets: more than 2^63, which numpy's sampling cannot count
    wide = (
        "hand_size=1..1000,uno_penalty=0..100,challenge_penalty=0..100,deck.skip=0..127,"
        "deck.wild=0..127,deck.reverse=0..127,deck.draw_two=0..127,"
        "deck.wild_draw_four=0..127,stacking,draw_rule,after_draw"
    )
    with pytest.raises(ValueError, match=r"--vary: the space holds about 4.2e\+18 .*10\^18"):
        ds.parse_vary(wide)
    out = tmp_path / "d"
    r = runner.invoke(
        app,
        ["design", "--target", "turns=30..40", "--vary", wide, "--out", str(out), "--no-progress"],
    )
    _one_line_error(r, "--vary", "10^18")
    assert not out.exists()


@pytest.mark.parametrize("target", ["turns<=1" + "0" * 400, "points=-1" + "0" * 13 + "..5"])
def test_design_target_past_its_bound(target):
    from unosim.analysis import design as ds

    with pytest.raises(ValueError, match=r"past the bound of a target, \+-10\^12"):
        ds.parse_target(target)
    r = runner.invoke(app, ["design", "--target", target, "--out", "never", "--no-progress"])
    _one_line_error(r, "target", "10^12")


def test_design_candidates_of_many_rules_are_not_file_names():
    """A candidate changing every searchable rule is spelt in more than 255 characters:
    its rule set is built from its switches, never by trying the text as a file."""
    from unosim.analysis import design as ds
    from unosim.analysis.compare import parse_spec
    from unosim.game.rules import resolve

    every = (
        "stacking=progressive,seven_zero=true,jump_in=true,draw_rule=until_playable,"
        "multi_play=true,last_card=number,wd4_restriction=strict,after_draw=play,"
        "challenge=false,hand_size=9,uno_penalty=3,challenge_penalty=3,deck.skip=3,"
        "deck.reverse=3,deck.draw_two=3,deck.wild=6,deck.wild_draw_four=6"
    )
    vary = ds.parse_vary(every)
    assert len(vary) == 17
    cands, total, invalid, _ = ds.candidates("official", {}, vary, 4, 60_000, 2, 0)
    long = [c for c in cands if len(c.spec) > 255]
    assert long and total == 1 and invalid == 0
    for c in cands:
        assert c.rules.name == c.spec
        assert c.rules.hash() == resolve("official", c.spec.partition("+")[2] or None).hash()
    # the same text given to compare is read as a spec too (it used to be tried as a
    # file name first: "File name too long")
    assert parse_spec(long[0].spec).hash() == long[0].rules.hash()


def test_design_plays_in_pieces(monkeypatch):
    """The rounds of a rung are played a piece at a time (the kernel's records of one
    piece held at once): the same columns as in one go."""
    from unosim.analysis import design as ds
    from unosim.game.rules import resolve

    player = ds.Rounds(4, "random", 1, None)
    job = player.job(resolve("official"), 7)
    whole = player.play(job, 10, 2500)
    monkeypatch.setattr(ds, "PLAY_PIECE", 1000)
    pieces = player.play(job, 10, 2500)
    for c in ds.COLUMNS:
        assert (whole[c] == pieces[c]).all()
    assert player.played == 5000
