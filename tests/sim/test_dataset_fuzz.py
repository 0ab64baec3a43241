"""Fuzzing dataset folders: a folder with random damage is read right or refused in one
line, never silently used. Derandomized, bounded example counts."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz_inputs import runner
from unosim.cli.app import app


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
