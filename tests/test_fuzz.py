"""Fuzzing the command line: random ``--house`` strings, TOML rule files and strategy
specs give a valid run or one clean error line (exit code 2), never a traceback;
``--where`` arithmetic on every column type equals pandas' on 64-bit columns; a dataset
folder with random damage is read right or refused in one line, never silently used.

In-process through typer's CliRunner, a few games per run, derandomized (the same
examples every time), bounded example counts: the file takes well under a minute once
the kernel is compiled.
"""

from __future__ import annotations

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from unosim.cli.app import app
from unosim.game.rules import CHOICES, DECK_KEYS, OFFICIAL, RULE_NAMES
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
DEFAULTS = OFFICIAL.to_dict()
# tables are not switches: deck and points take KEY=N forms, cards only a rule file
SWITCHES = [k for k in RULE_NAMES if k not in ("deck", "points", "cards")]


def plausible(key: str):
    """Values of the rule's own type, mostly in range: runs, not only errors."""
    v = DEFAULTS[key]
    if key in CHOICES:
        return st.sampled_from(CHOICES[key])
    if isinstance(v, bool):
        return st.booleans()
    if isinstance(v, float):
        return st.floats(0, 1)
    return st.integers(0, 2 * v + 2) if v < 100 else st.integers(1, 3 * v)


def house_value(key: str):
    good = plausible(key).map(lambda v: str(v).lower())
    return st.one_of(good, good, good, JUNK)


GOOD_ITEM = st.sampled_from(SWITCHES).flatmap(
    lambda k: st.tuples(st.just(k), st.just("="), house_value(k))
)
HOUSE_ITEM = st.one_of(
    GOOD_ITEM,
    GOOD_ITEM,
    GOOD_ITEM,
    st.tuples(
        st.one_of(st.sampled_from(RULE_NAMES + ("name", "preset")), st.text(max_size=8)),
        st.sampled_from(["=", "==", "", " = "]),
        JUNK,
    ),
)


@FUZZ
@given(
    st.lists(HOUSE_ITEM, min_size=1, max_size=3), st.sampled_from([",", ",", ",", ", ", ",,", ";"])
)
def test_house_strings(items, sep):
    house = sep.join(f"{k}{eq}{v}" for k, eq, v in items)
    if check(["rules", "show", "official", "--house", house]):
        run(["--house", house])


TABLE = st.dictionaries(
    st.one_of(st.sampled_from(DECK_KEYS), st.text(max_size=5)),
    st.one_of(st.integers(0, 12), NUMBERS, st.booleans(), JUNK),
    max_size=3,
)
TOML_ITEM = st.one_of(
    st.sampled_from(SWITCHES).flatmap(lambda k: st.tuples(st.just(k), plausible(k))),
    st.tuples(st.sampled_from(["deck", "points"]), TABLE),
    st.tuples(
        st.sampled_from(["name", "preset"]),
        st.one_of(st.sampled_from(["pokemon", "copag", "x\ny"]), st.text(max_size=5)),
    ),
    st.tuples(
        st.one_of(st.sampled_from(SWITCHES), st.text(max_size=6)),
        st.one_of(
            NUMBERS, st.booleans(), st.floats(), JUNK, st.lists(st.integers(-5, 5), max_size=3)
        ),
    ),
)


@FUZZ
@given(
    data=st.lists(TOML_ITEM, max_size=4).map(dict),
    junk=st.one_of(st.none(), st.none(), st.binary(max_size=40)),
)
def test_toml_rule_files(tmp_path_factory, data, junk):
    path = tmp_path_factory.mktemp("toml") / "r.toml"
    if junk is None:
        path.write_text(tomli_w.dumps(data))
    else:
        path.write_bytes(junk)
    if check(["rules", "show", str(path)]):
        run(["--rules", str(path)])


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


# ------------------------------------------------------------------ dataset tampering
@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    import unosim
    from unosim.sim import dataset as ds

    root = tmp_path_factory.mktemp("tamper") / "run"
    unosim.run("official", 300, 3, "random", seed=4, out=root, chunk_games=100, executor="serial")
    return root, ds.read_dataset(root), ds.read_summary(root)


FILES = ["_manifest.json"] + [
    f"{k}-{f:012d}.{e}"
    for f in (0, 100, 200)
    for k, e in (("part", "parquet"), ("_summary", "json"))
]
TAMPER = st.one_of(
    st.tuples(st.just("flip"), st.sampled_from(FILES), st.floats(0, 1), st.integers(0, 7)),
    st.tuples(st.just("cut"), st.sampled_from(FILES), st.floats(0, 1)),
    st.tuples(st.just("copy"), st.sampled_from(FILES[1:]), st.sampled_from(FILES[1:])),
    st.tuples(
        st.just("json"),
        st.sampled_from([FILES[0], *FILES[2::2]]),
        st.sampled_from(
            ["seed", "games", "first_game", "wins", "rules_hash", "players", "truncated"]
        ),
        st.sampled_from([0, 1, 7, -1, "x", None]),
    ),
)


def _tamper(root, how) -> None:
    import json

    kind, name = how[0], how[1]
    p = root / name
    data = bytearray(p.read_bytes())
    if kind == "flip":
        data[min(int(how[2] * len(data)), len(data) - 1)] ^= 1 << how[3]
        p.write_bytes(bytes(data))
    elif kind == "cut":
        p.write_bytes(bytes(data[: int(how[2] * len(data))]))
    elif kind == "copy":
        (root / how[2]).write_bytes(bytes(data))
    else:
        try:
            d = json.loads(data)
        except ValueError:  # damaged by an earlier step: nothing to edit
            return
        if isinstance(d, dict):
            d[how[2]] = how[3]
            p.write_text(json.dumps(d))


@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
@given(st.lists(TAMPER, min_size=1, max_size=2))
def test_a_tampered_dataset_is_never_silently_used(small_run, tmp_path_factory, hows):
    """Any flipped bit, cut, copied file or edited field: the readers give the run's own
    rows and figures or a one-line DatasetError, and --resume restores the run (or
    refuses in one line)."""
    import shutil

    import pandas as pd

    from unosim.sim import dataset as ds

    src, want, total = small_run
    root = tmp_path_factory.mktemp("t") / "run"
    shutil.copytree(src, root)
    for how in hows:
        _tamper(root, how)
    for read in (ds.read_dataset, ds.read_summary):
        try:
            got = read(root)
        except ds.DatasetError as e:
            assert "\n" not in str(e)
            continue
        if read is ds.read_dataset:
            pd.testing.assert_frame_equal(got, want)
        else:
            assert got == total
    r = runner.invoke(
        app,
        [
            "simulate",
            "--games",
            "300",
            "--players",
            "3",
            "--seed",
            "4",
            "--executor",
            "serial",
            "--out",
            str(root),
            "--resume",
            "--no-progress",
        ],
    )
    if r.exit_code == 0:
        pd.testing.assert_frame_equal(ds.read_dataset(root), want)
    else:
        assert r.exit_code == 2 and r.stderr.startswith("unosim: error: "), r.output
        assert r.stderr.count("\n") == 1, r.stderr
