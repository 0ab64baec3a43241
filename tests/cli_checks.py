"""What the command-line tests of bad input share: run a command in-process, and check
that it failed with one `unosim: error:` line and exit code 2."""

from __future__ import annotations

from pathlib import Path

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


def write_file(path: Path, text: str | bytes) -> Path:
    """``text`` written at ``path`` (its folders made), as bytes or text."""
    path.parent.mkdir(parents=True, exist_ok=True)
    (path.write_bytes if isinstance(text, bytes) else path.write_text)(text)
    return path
