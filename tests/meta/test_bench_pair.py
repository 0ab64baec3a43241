"""``benchmarks/pair.py`` (``make bench-pair``): bad input ends with a one-line message
before anything is compiled; the interval of the pairs' mean ratio."""

import importlib.util
import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PAIR = Path(__file__).resolve().parents[2] / "benchmarks" / "pair.py"


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


def test_ratio_interval_is_the_geometric_mean_with_a_t_interval():
    spec = importlib.util.spec_from_file_location("pair", PAIR)
    pair = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pair)
    mean, lo, hi = pair.ratio_interval([0.5, 2.0])
    assert mean == pytest.approx(1.0)
    # logs -ln2, +ln2: sd ln2*sqrt(2), t(0.975, 1) = 12.706, n = 2
    half = 12.7062 * math.log(2) * math.sqrt(2) / math.sqrt(2)
    assert lo == pytest.approx(math.exp(-half), rel=1e-4)
    assert hi == pytest.approx(math.exp(half), rel=1e-4)
    mean, lo, hi = pair.ratio_interval([1.1, 1.1, 1.1])
    assert (mean, lo, hi) == pytest.approx((1.1, 1.1, 1.1))
    mean, lo, hi = pair.ratio_interval([0.9])
    assert mean == pytest.approx(0.9) and math.isnan(lo) and math.isnan(hi)
