"""Strategy weights and strategy files past their bounds: one line naming what is wrong
(exit code 2), and extreme legal weights that still leave every legal card playable."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tests.cli_checks import invoke, one_line_error
from tests.cli_checks import write_file as _write

runner = CliRunner()


# ------------------------------------------------------------------ strategies
@pytest.mark.parametrize(
    "spec,word",
    [
        ("weighted:points=-1e300", "'points'"),
        ("weighted:colour=1e7", "'colour'"),
        ("colour-counter:scarce=nan", "'scarce'"),
    ],
)
def test_weights_are_bounded(spec, word, out):
    one_line_error(
        invoke("simulate", "--strategies", spec, "--games", 10, "--out", out), word, "1e+06"
    )


def test_extreme_legal_weights_keep_every_legal_card_playable():
    from unosim.sim.replay import replay

    spec = "weighted:points=-1e6;colour=1e6;wild=-1e6;action=-1e6;attack=1e6;scarce=-1e6"
    for game in range(5):
        rp = replay("official", 3, spec, 1, game)
        assert rp.violations == []
        assert not rp.row["truncated"]


@pytest.mark.parametrize(
    "body,word",
    [
        ("weights = 3\n", "'weights' must be a table"),
        ("[weights]\npoints = 1e300\n", "'points'"),
        (b"\xff\xfe\x00binary\x00", "not UTF-8"),
        ("params = [1, 2]\n", "'params' must be a table"),
    ],
)
def test_bad_strategy_files(body, word, tmp_path, out):
    f = _write(tmp_path / "w.toml", body)
    err = one_line_error(
        invoke("simulate", "--strategies", f"weighted:{f}", "--games", 10, "--out", out), word
    )
    assert str(f) in err
