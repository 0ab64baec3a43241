"""Fuzzing strategy specs on the command line: a valid run or one clean error line (exit
code 2), never a traceback. Derandomized, bounded example counts."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz_inputs import FUZZ, JUNK, run
from unosim.players.strategies import FEATURES, NAMES, PARAM_NAMES


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
