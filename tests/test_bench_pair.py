"""``benchmarks/pair.py`` (``make bench-pair``): bad input ends with a one-line message
before anything is compiled."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PAIR = Path(__file__).resolve().parent.parent / "benchmarks" / "pair.py"


def _run(*args):
    return subprocess.run(
        [sys.executable, str(PAIR), *args], capture_output=True, text=True, timeout=60
    )


@pytest.mark.skipif(shutil.which("git") is None, reason="exports commits with git")
def test_unknown_commit_is_refused():
    out = _run("--base", "no-such-commit-xyz")
    assert out.returncode == 1
    assert (
        out.stderr.strip() == "bench-pair: 'no-such-commit-xyz' is not a commit of this repository"
    )


def test_too_few_games_is_refused():
    out = _run("--base", "HEAD", "--games", "10")
    assert out.returncode == 1
    assert out.stderr.strip() == "bench-pair: --pairs must be >= 1 and --games >= 1000"


def test_unknown_rule_set_is_refused():
    out = _run("--base", "HEAD", "--rules", "official;no-such-rules")
    assert out.returncode == 1
    assert out.stderr.startswith("bench-pair: 'no-such-rules': ")
    assert len(out.stderr.strip().splitlines()) == 1
