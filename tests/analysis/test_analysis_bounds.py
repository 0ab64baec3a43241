"""`unosim compare` and `unosim tune` past their bounds: one line naming the option (exit
code 2), nothing written."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from unosim.cli.app import app

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def one_line_error(r, *words: str) -> str:
    """Exit code 2, exactly one `unosim: error:` line on stderr, nothing on stdout."""
    assert r.exit_code == 2, (r.exit_code, r.output, r.exception)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    err = r.stderr
    assert err.startswith("unosim: error: ") and err.count("\n") == 1, err
    assert r.stdout == ""
    for w in words:
        assert w in err, (w, err)
    return err


@pytest.fixture
def out(tmp_path):
    """Where a failing run is told to write: nothing may appear there."""
    d = tmp_path / "out"
    yield d
    assert not d.exists(), list(d.iterdir())


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
