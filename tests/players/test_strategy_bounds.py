"""Strategy weights and strategy files past their bounds: one line naming what is wrong
(exit code 2), and extreme legal weights that still leave every legal card playable."""

from __future__ import annotations

from pathlib import Path

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


def _write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    (path.write_bytes if isinstance(text, bytes) else path.write_text)(text)
    return path


@pytest.fixture
def out(tmp_path):
    """Where a failing run is told to write: nothing may appear there."""
    d = tmp_path / "out"
    yield d
    assert not d.exists(), list(d.iterdir())


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
