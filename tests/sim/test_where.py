"""``--where`` (unosim.sim.where): a whitelisted grammar evaluated on the frame; nothing in a
condition is ever run as code, and anything outside the grammar is a one-line error."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from unosim.cli.app import app
from unosim.sim.where import WhereError, condition

runner = CliRunner()


@pytest.fixture(scope="module")
def df():
    rng = np.random.default_rng(0)
    n = 200
    return pd.DataFrame(
        {
            "game": np.arange(n, dtype=np.int64),
            "winner": rng.integers(0, 4, n).astype(np.int8),
            "turns": rng.integers(5, 300, n).astype(np.int32),
            "max_stack": rng.integers(0, 20, n).astype(np.int16),
            "truncated": rng.random(n) < 0.1,
        }
    )


GOOD = {
    "max_stack >= 12": lambda d: d.max_stack >= 12,
    "winner == 2 and turns < 20": lambda d: (d.winner == 2) & (d.turns < 20),
    "winner == 2 or not truncated": lambda d: (d.winner == 2) | ~d.truncated,
    "(winner == 2) & (turns < 100) | truncated": lambda d: (
        ((d.winner == 2) & (d.turns < 100)) | d.truncated
    ),
    "~truncated": lambda d: ~d.truncated,
    "truncated": lambda d: d.truncated,
    "truncated == True": lambda d: d.truncated,
    "game in [4, 8, 15]": lambda d: d.game.isin([4, 8, 15]),
    "game not in (4, 8)": lambda d: ~d.game.isin([4, 8]),
    "10 < turns <= 50": lambda d: (d.turns > 10) & (d.turns <= 50),
    "turns - 2 * max_stack > -5": lambda d: d.turns - 2 * d.max_stack > -5,
    "turns / 2 >= 30.5 and turns % 7 == 0": lambda d: (d.turns / 2 >= 30.5) & (d.turns % 7 == 0),
    "turns // 10 == 3": lambda d: d.turns // 10 == 3,
    "-turns < -100": lambda d: -d.turns < -100,
    "True": lambda d: pd.Series(True, index=d.index),
    "1 > 2": lambda d: pd.Series(False, index=d.index),
}


@pytest.mark.parametrize("text", list(GOOD))
def test_conditions_of_the_grammar(df, text):
    pd.testing.assert_series_equal(condition(df, text), GOOD[text](df), check_names=False)


BAD = {
    # the injection first reported, and the ways code could be reached
    "turns > @pd.io.common.os.system('id > /tmp/x')": "syntax",
    "@pd": "syntax",
    "turns @ winner": "MatMult",
    "turns.__class__": "attribute",
    "__import__('os').system('id')": "function calls",
    "__builtins__ == 1": "unknown column '__builtins__'",
    "len(turns) > 0": "function calls",
    "(lambda: 1)() == 1": "function calls",
    "lambda: 1": "lambda",
    "[x for x in turns] == 1": "comprehensions",
    "{x for x in turns}": "comprehensions",
    "(x for x in turns)": "comprehensions",
    "turns[0] == 1": "subscripts",
    "f'{turns}' == 'a'": "f-strings",
    "(x := 1) == 1": "assignments",
    "game in [*turns]": "starred",
    "turns if truncated else game": "if-else",
    "{'a': 1} == 1": "dicts",
    "turns ** 99999999 > 0": "Pow",
    "'a' * 100000000 == 'a'": "arithmetic",
    "turns is None": "`is`",
    "b'x' == turns": "not a number",
    "game in turns": "`in` takes a list",
    "game in [turns]": "values, not columns",
    "turns and winner": "`and` joins conditions",
    "not turns": "`not` applies",
    "turns": "not a condition",
    "turns +": "syntax",
    "import os": "syntax",
    "turns > 1; turns < 3": "syntax",
    "nosuch > 1": "unknown column 'nosuch'",
    "turns < 'a'": "cannot evaluate",
    "a\x00b": "null bytes",
    "(" * 500 + "1" + ")" * 500: "",
    "turns > 1 and " * 400 + "True": "characters long",
}


@pytest.mark.parametrize("text", list(BAD))
def test_everything_else_is_a_one_line_error(df, text):
    with pytest.raises(WhereError) as e:
        condition(df, text)
    msg = str(e.value)
    assert "\n" not in msg
    assert BAD[text] in msg, msg


def test_cli_where_never_runs_code(tmp_path):
    import unosim
    from unosim.sim.results import write_parquet

    data = unosim.simulate("official", 50, 4, "random", seed=1, threads=1)
    path = tmp_path / "r.parquet"
    write_parquet(data, path, data.attrs["manifest"])
    marker = tmp_path / "pwned"
    for text in (
        f"turns > @pd.io.common.os.system('touch {marker}')",
        f"turns > __import__('os').system('touch {marker}')",
        f"turns.__class__.__init__.__globals__['os'].system('touch {marker}')",
    ):
        r = runner.invoke(app, ["replay", "--from", str(path), "--where", text])
        assert r.exit_code == 2, r.output
        assert r.stderr.startswith("unosim: error: --where") and r.stderr.count("\n") == 1
        assert r.stdout == ""
        assert not marker.exists()


# ------------------------------------------------------------------ 64-bit arithmetic
@pytest.fixture(scope="module")
def rounds():
    """Real rounds in their compact stored types (winner int8, hand sizes int16, ...)."""
    import unosim

    return unosim.simulate("official", 4000, 4, "random", seed=3, threads=1)


WIDE = [
    "winner * 100 == 300",
    "hand_size_0 * 10000 < 0",
    "first_player - 200 < -190",
    "hand_size_1 * hand_size_2 * 1000 > 40000",
    "-winner * 1000 < -2500",
    "max_stack * 4000 >= 30000",
    "points * 100000 > 2147483648",
    "hand_points_0 * 70000 > 2147483647",
    "turns * turns * turns > 100000000",
    "cards_drawn // 3 * 40000 > 200000",
    "winner % 3 - 128 == -127",
    "turns / 3 * winner > 10",
    "truncated == False and winner * 64 == 128",
]


@pytest.mark.parametrize("text", WIDE)
def test_arithmetic_is_64_bit_whatever_the_column_types(rounds, text):
    """The count of matching rounds equals pandas' on the same frame cast to int64."""
    wide = rounds.astype({c: np.int64 for c in rounds.columns if c != "truncated"})
    want = wide.eval(text, engine="python")
    got = condition(rounds, text)
    pd.testing.assert_series_equal(got, want, check_names=False)


def test_the_wrapping_reproducers(rounds):
    """In int8/int16 these wrapped (or raised OverflowError): the right counts now."""
    assert condition(rounds, "winner * 100 == 300").sum() == (rounds.winner == 3).sum() > 0
    assert condition(rounds, "hand_size_0 * 10000 < 0").sum() == 0
    assert int(rounds.hand_size_0.max()) * 10000 > 32767  # would have wrapped in int16
    assert condition(rounds, "first_player - 200 < -190").sum() == len(rounds)


@pytest.mark.parametrize(
    "dtype",
    [
        np.int8,
        np.int16,
        np.int32,
        np.int64,
        np.uint8,
        np.uint16,
        np.uint32,
        np.float32,
        np.float64,
        "Int16",
    ],
)
def test_every_column_type_computes_wide(dtype):
    vals = np.array([0, 1, 2, 100, 127], dtype=np.int64)
    d = pd.DataFrame(
        {"x": pd.array(vals).astype(dtype) if dtype == "Int16" else vals.astype(dtype)}
    )
    got = condition(d, "x * 1000 > 100000").tolist()
    assert got == [False, False, False, False, True]
    assert condition(d, "x - 300 < -250").tolist() == [True, True, True, False, False]
