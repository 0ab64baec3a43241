"""Rule values past their bounds, in a rule file or a house switch: one line naming the
value (exit code 2), nothing written."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tests.cli_checks import invoke, one_line_error
from tests.cli_checks import write_file as _write

runner = CliRunner()


# ------------------------------------------------------------------ rule values
RULE_FILES = {
    "deck count 40000": ("[deck]\nwild = 40000\n", "deck.wild"),
    "deck count 2**70": ("[deck]\n7 = 1180591620717411303424\n", "deck.7"),
    "target_score 2**63": ("target_score = 9223372036854775807\n", "target_score"),
    "max_rounds 2**63-1": ("max_rounds = 9223372036854775807\n", "max_rounds"),
    "elimination_score": ("elimination_score = 9223372036854775807\n", "elimination_score"),
    "name with a newline": ('name = "x\\nunosim: error: fake"\n', "name"),
}


@pytest.mark.parametrize("case", list(RULE_FILES))
def test_rule_values_out_of_range(case, tmp_path, out):
    text, word = RULE_FILES[case]
    rules = _write(tmp_path / "r.toml", text)
    one_line_error(invoke("simulate", "--rules", rules, "--games", 10, "--out", out / "x"), word)
    one_line_error(invoke("rules", "show", rules), word)


@pytest.mark.parametrize(
    "house,word",
    [
        ("target_score=9223372036854775808", "target_score"),
        ("max_rounds=99999999999999999999", "max_rounds"),
        ("stacking=same,stacking=none", "given twice"),
        ("hand_size=٣", "hand_size"),
        ("catch_uno=٠.٥", "catch_uno"),
        ("jump_in=true,\nunosim: error: fake", "NAME=VALUE"),
    ],
)
def test_house_values_out_of_range(house, word, out):
    one_line_error(invoke("simulate", "--house", house, "--games", 10, "--out", out / "x"), word)
