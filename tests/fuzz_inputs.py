"""What the command-line fuzz tests share: the run and its check (a valid run or one
clean error line, never a traceback), the example budget and the values a careless or
hostile user types."""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from unosim.cli.app import app
from unosim.game.rules import CHOICES

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
