"""Fuzzing strategy specs on the command line: a valid run or one clean error line (exit
code 2), never a traceback. Derandomized, bounded example counts."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from unosim.cli.app import app
from unosim.game.rules import CHOICES
from unosim.players.strategies import FEATURES, NAMES, PARAM_NAMES

runner = CliRunner()
FUZZ = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)


def check(args: list[str]) -> bool:
    """A clean run (True) or one `unosim: error:` line with exit code 2 (False)."""
    r = runner.invoke(app, args)
    if r.exit_code == 0:
        assert r.exception is None, (args, repr(r.exception))
        return True
    assert isinstance(r.exception, SystemExit) and r.exit_code == 2, (
        args,
        r.exit_code,
        repr(r.exception),
        r.output,
    )
    assert r.stderr.startswith("unosim: error: ") and r.stderr.count("\n") == 1, (args, r.stderr)
    assert r.stdout == ""
    return False


def run(args: list[str]) -> None:
    check(["simulate", "--games", "3", "--players", "2", "--threads", "1", "--no-progress", *args])


# values a careless or hostile user types
NUMBERS = st.one_of(
    st.integers(-3, 12),
    st.integers(-(2**70), 2**70),
    st.sampled_from(
        [0, 1, 7, 127, 128, 32767, 32768, 1000, 10**6 + 1, 2**31, 2**63 - 1, 2**63, 2**64]
    ),
)
JUNK = st.one_of(
    st.sampled_from(
        [
            "true",
            "false",
            "on",
            "off",
            "yes",
            "1e3",
            "nan",
            "inf",
            "-inf",
            "0.5",
            "1.5",
            "٣",
            "７",
            "0x10",
            "1_000",
            " ",
            "",
            "none",
            "same",
            "progressive",
            "until_playable",
            "swap_hands",
            "winner",
        ]
        + [c for v in CHOICES.values() for c in v]
    ),
    NUMBERS.map(str),
    st.text(max_size=6),
)


def strategy_value(key: str):
    if key in FEATURES:
        good = st.floats(-20, 20).map(lambda v: f"{v:.3g}")
    elif key == "challenge":
        good = st.sampled_from(["smart", "never", "always", "0.3"])
    else:
        good = st.floats(0, 1).map(lambda v: f"{v:.3g}")
    return st.one_of(
        good, good, JUNK, st.floats().map(repr), st.sampled_from(["1e6", "-1e6", "1e300", "-1e7"])
    )


PARAM = st.one_of(
    st.sampled_from(PARAM_NAMES).flatmap(lambda k: st.tuples(st.just(k), strategy_value(k))),
    st.tuples(st.text(max_size=5), JUNK),
)
STRATEGY = st.tuples(
    st.one_of(st.sampled_from(NAMES), st.sampled_from(NAMES), st.text(max_size=6)),
    st.lists(PARAM, max_size=3),
    st.sampled_from([";", ","]),
)


@FUZZ
@given(st.lists(STRATEGY, min_size=1, max_size=2))
def test_strategy_specs(seats):
    spec = ",".join(
        name + (":" + sep.join(f"{k}={v}" for k, v in params) if params else "")
        for name, params, sep in seats
    )
    run(["--strategies", spec])
