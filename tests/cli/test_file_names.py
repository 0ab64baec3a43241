"""Names the file system refuses (too long, not UTF-8, NUL) given to ``--out`` and
``--from``, and rule texts too long to be file names: one ``unosim: error:`` line naming
the option and the problem, exit code 2, nothing written."""

from __future__ import annotations

import os
from pathlib import Path

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


# ------------------------------------------------------------ names the file system takes

LONG_NAME = "a" * 300
NOT_UTF8 = os.fsdecode(b"x\xffy")  # the surrogate-escaped name a non-UTF-8 argv byte gives

WRITERS = {
    "simulate": ["simulate", "--games", "10", "--no-progress", "--out"],
    "match": ["match", "--matches", "2", "--no-progress", "--out"],
    "compare": ["compare", "official", "stacking", "--games", "10", "--out"],
    "tournament": [
        "tournament",
        "--strategies",
        "random,heuristic",
        "--players",
        "2",
        "--games",
        "10",
        "--out",
    ],
    "tune": ["tune", "--budget", "1000", "--out"],
    "report": ["report", "official", "--games", "10", "--no-progress", "--out"],
    "design": ["design", "--target", "turns=30..40", "--budget", "1000", "--no-progress", "--out"],
    "evaluate": ["evaluate", "random", "--games", "8", "--expert-games", "4", "--out"],
}


def _bad_names(tmp: Path) -> dict[str, tuple[str, str]]:
    deep = tmp.joinpath(*["b" * 200] * 25)  # 5,000 bytes and more
    return {
        "long name": (LONG_NAME + ".parquet", "too long"),
        "long folder": (LONG_NAME, "too long"),
        "long path": (str(deep) + ".parquet", "4,095"),
        "not UTF-8": (NOT_UTF8 + ".parquet", "not UTF-8"),
        "not UTF-8 folder": (NOT_UTF8, "not UTF-8"),
    }


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_bad_out_names_are_one_line_errors(command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for label, (name, why) in _bad_names(tmp_path).items():
        r = runner.invoke(app, WRITERS[command] + [name])
        _one_line_error(r, "--out", why)
        assert not list(tmp_path.iterdir()), (command, label, list(tmp_path.iterdir()))


def test_bad_from_names_are_one_line_errors(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name, why in [(LONG_NAME + ".parquet", "too long"), (NOT_UTF8, "not UTF-8")]:
        r = runner.invoke(app, ["replay", "--from", name])
        _one_line_error(r, "--from", why)


def test_check_path_name_accepts_ordinary_names(tmp_path):
    from unosim.sim.results import check_path_name

    check_path_name(tmp_path / "results.parquet")
    check_path_name(tmp_path / ("é" * 120))  # 240 bytes of UTF-8
    with pytest.raises(ValueError, match="too long"):
        check_path_name(tmp_path / ("é" * 128))  # 256 bytes
    with pytest.raises(ValueError, match="NUL"):
        check_path_name("a\0b")


def test_long_rule_texts_are_not_tried_as_file_names():
    """A rule-set spec or a preset name longer than a file name may be is an unknown
    preset (one line), or a rule set spelt in switches: never an OSError."""
    from unosim.analysis.compare import parse_spec

    every = (
        "official+stacking=progressive,seven_zero=true,jump_in=true,draw_rule=until_playable,"
        "multi_play=true,last_card=number,wd4_restriction=strict,challenge=false,hand_size=9,"
        "uno_penalty=3,challenge_penalty=3,deck.skip=3,deck.reverse=3,deck.draw_two=3,"
        "deck.wild=6,deck.wild_draw_four=6"
    )
    assert len(every) > 255 and parse_spec(every).name == every
    r = runner.invoke(app, ["rules", "show", LONG_NAME])
    _one_line_error(r, "unknown preset")
    r = runner.invoke(app, ["rules", "show", LONG_NAME + ".toml"])
    _one_line_error(r, "rule file")
