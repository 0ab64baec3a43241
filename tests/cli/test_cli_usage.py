"""Usage errors of the command line are one line (exit code 2), in process and from the
installed console script, with control characters escaped."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.cli_checks import invoke, one_line_error
from unosim.cli.app import app

runner = CliRunner()
UNOSIM = str(Path(sys.executable).with_name("unosim"))


# ------------------------------------------------------------------ error lines
def test_error_lines_escape_control_characters():
    from unosim.cli.app import one_line

    assert one_line("a\nb\r\x1b[31m") == "a\\nb\\r\\x1b[31m"
    err = one_line_error(invoke("simulate", "--rules", "x\nunosim: error: fake"), "unknown")
    assert "\\n" in err


@pytest.mark.parametrize(
    "args,word",
    [
        (["simulate", "--games", "1e30"], "--games"),
        (["simulat"], "No such command"),
        (["simulate", "--bogus"], "--bogus"),
        (["replay", "--game", "x"], "--game"),
        (["rules", "show", "a", "b"], "unexpected extra argument"),
    ],
)
def test_usage_errors_are_one_line(args, word):
    one_line_error(runner.invoke(app, args), word)


def test_console_script_usage_error_is_one_line():
    r = subprocess.run(
        [UNOSIM, "simulate", "--games", "1e30"], capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("unosim: error: ") and r.stderr.count("\n") == 1, r.stderr
