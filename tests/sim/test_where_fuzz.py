"""Fuzzing ``--where``: its arithmetic on every column type equals pandas' on 64-bit
columns. Derandomized, bounded example counts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fuzz_inputs import FUZZ


# ------------------------------------------------------------------ --where arithmetic
@pytest.fixture(scope="module")
def rounds():
    """Real rounds in their stored types, plus float and unsigned columns."""
    import numpy as np

    import unosim

    df = unosim.simulate("official", 300, 3, "random", seed=9, threads=1)
    df["f32"] = (df["turns"] / 7).astype(np.float32)
    df["u8"] = df["hand_size_1"].clip(0, 255).astype(np.uint8)
    return df


WHERE_COLUMNS = [
    "winner",
    "first_player",
    "turns",
    "points",
    "max_stack",
    "hand_size_0",
    "hand_points_1",
    "game",
    "f32",
    "u8",
    "cards_drawn",
]
TERM = st.one_of(
    st.sampled_from(WHERE_COLUMNS),
    st.integers(-300, 300).map(str),
    st.sampled_from(["10000", "70000", "2147483647", "32768", "128", "0.5"]),
)
EXPR = st.recursive(
    TERM,
    lambda inner: st.tuples(inner, st.sampled_from(["+", "-", "*", "//", "%"]), inner).map(
        lambda t: f"({t[0]} {t[1]} {t[2]})"
    ),
    max_leaves=4,
)


@settings(FUZZ, max_examples=80)
@given(EXPR, st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), EXPR)
def test_where_computes_as_pandas_on_64_bit_columns(rounds, left, op, right):
    """Whatever the stored types, a condition matches what pandas finds on the frame
    with every integer column as int64 and every float column as float64."""
    import numpy as np
    import pandas as pd

    from unosim.sim.where import WhereError, condition

    text = f"{left} {op} {right}"
    wide = rounds.astype(
        {
            c: (np.float64 if rounds[c].dtype.kind == "f" else np.int64)
            for c in rounds.columns
            if rounds[c].dtype != bool
        }
    )
    try:
        want = wide.eval(text, engine="python")
    except (ArithmeticError, ValueError, TypeError):
        want = None
    if not isinstance(want, pd.Series):
        want = None if want is None else pd.Series(bool(want), index=rounds.index)
    try:
        got = condition(rounds, text)
    except WhereError:
        assert want is None, text
        return
    assert want is not None, text
    pd.testing.assert_series_equal(got, want, check_names=False)
