"""`unosim compare` and `unosim tune` past their bounds: one line naming the option (exit
code 2), nothing written."""

from __future__ import annotations

from typer.testing import CliRunner

from tests.cli_checks import invoke, one_line_error

runner = CliRunner()


def test_compare_boot_bound(out):
    one_line_error(
        invoke(
            "compare",
            "official",
            "stacking",
            "--games",
            10,
            "--boot",
            10**12,
            "--out",
            out / "c.csv",
        ),
        "--boot",
    )


def test_tune_opponents_message(tmp_path):
    one_line_error(
        invoke("tune", "--opponents", "random,heuristic", "--out", tmp_path / "w.toml"),
        "one strategy",
        "every opponent",
    )
    assert list(tmp_path.iterdir()) == []
