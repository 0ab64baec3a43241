"""The Python API's inputs: numpy scalars are their Python values, a progress that is
not a function is named, and unsupported scheduler schemes are one line."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

import unosim
from unosim.cli.app import app

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def one_line_error(r, *words: str) -> str:
    assert r.exit_code == 2, (r.exit_code, r.output, r.exception)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    err = r.stderr
    assert err.startswith("unosim: error: ") and err.count("\n") == 1, err
    assert r.stdout == ""
    for w in words:
        assert w in err, (w, err)
    return err


# ------------------------------------------------------------------ numpy scalars
def test_numpy_scalars_are_their_python_values():
    plain = unosim.simulate(
        "official", 30, 3, "random", seed=4, threads=1, house={"hand_size": 5, "stacking": "same"}
    )
    df = unosim.simulate(
        "official",
        np.int64(30),
        np.int8(3),
        "random",
        seed=np.uint64(4),
        threads=np.int32(1),
        house={"hand_size": np.int64(5), "stacking": np.str_("same")},
    )
    assert df.equals(plain)
    assert df.attrs["manifest"] == plain.attrs["manifest"]
    rs = unosim.resolve(
        "official",
        {
            "hand_size": np.int16(5),
            "jump_in": np.True_,
            "catch_uno": np.float32(0.5),
            "deck": {"wild": np.int64(6)},
        },
    )
    assert type(rs.hand_size) is int and rs.jump_in is True
    assert type(rs.catch_uno) is float and rs.deck_dict["wild"] == 6
    rs.to_toml()  # serialisable, as every manifest must be
    res = unosim.run(
        "official",
        np.int64(40),
        2,
        seed=np.int64(1),
        threads=np.int64(1),
        chunk_games=np.int64(20),
        block=np.int64(10),
    )
    assert res.total.games == 40
    m, r = unosim.simulate_matches(
        "official", np.int64(3), 2, seed=1, threads=np.int64(1), chunk=np.int64(2)
    )
    assert len(m) == 3


@pytest.mark.parametrize(
    "call",
    [
        lambda: unosim.simulate(n_games=5, progress="x"),
        lambda: unosim.run(n_games=5, progress="x"),
        lambda: unosim.simulate_matches(n_matches=2, progress="x"),
    ],
)
def test_progress_that_is_not_a_function_is_named(call):
    with pytest.raises(TypeError, match="^progress must be a function"):
        call()


# ------------------------------------------------------------------ schedulers
@pytest.mark.parametrize(
    "address,words",
    [
        ("tls://127.0.0.1:8786", "certificates"),
        ("wss://h:1", "certificates"),
        ("inproc://10.0.0.1/123/1", "inproc"),
        ("ws://h:1", "TCP"),
        ("ucx://h:1", "TCP"),
    ],
)
def test_scheduler_schemes_are_one_line(tmp_path, address, words):
    out = tmp_path / "run"
    one_line_error(
        invoke("simulate", "--scheduler", address, "--games", 10, "--out", out),
        "--scheduler",
        words,
        "tcp://HOST:PORT",
    )
    assert not out.exists()
