"""Hostile or careless input gives a one-line error (exit code 2, nothing
written) or the documented behaviour; no traceback, no wrong result, nothing lost."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import unosim
from unosim.cli.app import app
from unosim.kernel import layout as L
from unosim.sim import dataset as ds

runner = CliRunner()
UNOSIM = str(Path(sys.executable).with_name("unosim"))


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def one_line_error(r, *words: str) -> str:
    """Exit code 2, exactly one `unosim: error:` line on stderr, nothing on stdout."""
    assert r.exit_code == 2, (r.exit_code, r.output, r.exception)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    err = r.stderr
    assert err.startswith("unosim: error: ") and err.count("\n") == 1, err
    assert r.stdout == ""
    for w in words:
        assert w in err, (w, err)
    return err


def _write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    (path.write_bytes if isinstance(text, bytes) else path.write_text)(text)
    return path


@pytest.fixture
def out(tmp_path):
    """Where a failing run is told to write: nothing may appear there."""
    d = tmp_path / "out"
    yield d
    assert not d.exists(), list(d.iterdir())


# ------------------------------------------------------------------ rule values
RULE_FILES = {
    "deck count 40000": ("[deck]\nwild = 40000\n", "deck.wild"),
    "deck count 2**70": ("[deck]\n7 = 1180591620717411303424\n", "deck.7"),
    "target_score 2**63": ("target_score = 9223372036854775807\n", "target_score"),
    "max_rounds 2**63-1": ("max_rounds = 9223372036854775807\n", "max_rounds"),
    "elimination_score": ("elimination_score = 9223372036854775807\n", "elimination_score"),
    "name with a newline": ('name = "x\\nunosim: error: fake"\n', "name"),
}


@pytest.mark.parametrize("case", list(RULE_FILES))
def test_rule_values_out_of_range(case, tmp_path, out):
    text, word = RULE_FILES[case]
    rules = _write(tmp_path / "r.toml", text)
    one_line_error(invoke("simulate", "--rules", rules, "--games", 10, "--out", out / "x"), word)
    one_line_error(invoke("rules", "show", rules), word)


@pytest.mark.parametrize(
    "house,word",
    [
        ("target_score=9223372036854775808", "target_score"),
        ("max_rounds=99999999999999999999", "max_rounds"),
        ("stacking=same,stacking=none", "given twice"),
        ("hand_size=٣", "hand_size"),
        ("catch_uno=٠.٥", "catch_uno"),
        ("jump_in=true,\nunosim: error: fake", "NAME=VALUE"),
    ],
)
def test_house_values_out_of_range(house, word, out):
    one_line_error(invoke("simulate", "--house", house, "--games", 10, "--out", out / "x"), word)


def test_match_max_rounds_bound(out):
    one_line_error(
        invoke(
            "match",
            "--house",
            "penalty_elimination=true,max_rounds=1000000000",
            "--matches",
            10,
            "--out",
            out / "m.parquet",
        ),
        "max_rounds",
    )


def test_match_memory_bound(monkeypatch):
    from unosim.sim import match as M

    monkeypatch.setattr(M, "MAX_ROUNDS_KEPT", 500)
    job = M.make_match_job(
        "official", 50, 4, "random", 0, "penalty_elimination=true,max_rounds=100"
    )
    with pytest.raises(ValueError, match="more than the 500 a run keeps"):
        M.run_matches(job, threads=2, chunk=4)


# ------------------------------------------------------------------ numbers
def test_huge_games_is_an_error_and_no_chunk_list_is_built(out):
    one_line_error(invoke("simulate", "--games", 10**30, "--out", out), "games")
    from unosim.sim.runner import prepare
    from unosim.sim.simulate import MAX_GAMES, make_job

    t0 = time.perf_counter()
    plan = prepare(make_job("official", MAX_GAMES, 4, "random", 0), None, chunk_games=1)
    assert len(plan.chunks) == MAX_GAMES and plan.games_todo == MAX_GAMES
    assert next(iter(plan.todo)) == (0, 1)
    assert time.perf_counter() - t0 < 5


def test_compare_boot_bound(out):
    one_line_error(
        invoke(
            "compare",
            "official",
            "stacking",
            "--games",
            10,
            "--boot",
            10**12,
            "--out",
            out / "c.csv",
        ),
        "--boot",
    )


def test_dask_workers_bound(out):
    one_line_error(
        invoke("simulate", "--executor", "dask", "--threads", 1000, "--games", 10, "--out", out),
        "--threads 1000",
    )


def test_replay_game_bound():
    one_line_error(invoke("replay", "--game", 9223372036854775808), "game")
    one_line_error(invoke("replay", "--game", -1), "game")


@pytest.mark.parametrize("address", ["not a url", "tcp://", "http://x:1", "tcp://h:99999"])
def test_scheduler_address(address, out):
    one_line_error(
        invoke("simulate", "--scheduler", address, "--games", 10, "--out", out), "--scheduler"
    )


def test_unreachable_scheduler_leaves_nothing(out):
    one_line_error(
        invoke("simulate", "--scheduler", "tcp://127.0.0.1:1", "--games", 10, "--out", out),
        "cannot reach",
    )


# ------------------------------------------------------------------ strategies
@pytest.mark.parametrize(
    "spec,word",
    [
        ("weighted:points=-1e300", "'points'"),
        ("weighted:colour=1e7", "'colour'"),
        ("colour-counter:scarce=nan", "'scarce'"),
    ],
)
def test_weights_are_bounded(spec, word, out):
    one_line_error(
        invoke("simulate", "--strategies", spec, "--games", 10, "--out", out), word, "1e+06"
    )


def test_extreme_legal_weights_keep_every_legal_card_playable():
    from unosim.sim.replay import replay

    spec = "weighted:points=-1e6;colour=1e6;wild=-1e6;action=-1e6;attack=1e6;scarce=-1e6"
    for game in range(5):
        rp = replay("official", 3, spec, 1, game)
        assert rp.violations == []
        assert not rp.row["truncated"]


@pytest.mark.parametrize(
    "body,word",
    [
        ("weights = 3\n", "'weights' must be a table"),
        ("[weights]\npoints = 1e300\n", "'points'"),
        (b"\xff\xfe\x00binary\x00", "not UTF-8"),
        ("params = [1, 2]\n", "'params' must be a table"),
    ],
)
def test_bad_strategy_files(body, word, tmp_path, out):
    f = _write(tmp_path / "w.toml", body)
    err = one_line_error(
        invoke("simulate", "--strategies", f"weighted:{f}", "--games", 10, "--out", out), word
    )
    assert str(f) in err


def test_tune_opponents_message(tmp_path):
    one_line_error(
        invoke("tune", "--opponents", "random,heuristic", "--out", tmp_path / "w.toml"),
        "one strategy",
        "every opponent",
    )
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------ the Python API
@pytest.mark.parametrize(
    "kw,exc,word",
    [
        ({"chunk": -1}, ValueError, "chunk"),
        ({"chunk": 0}, ValueError, "chunk"),
        ({"block": 0}, ValueError, "block"),
        ({"block": 2.5}, TypeError, "block"),
        ({"threads": 0}, ValueError, "threads"),
        ({"threads": True}, TypeError, "threads"),
        ({"seed": True}, TypeError, "seed"),
        ({"seed": -1}, ValueError, "seed"),
        ({"strategies": None}, TypeError, "strategies"),
        ({"strategies": ["random", 3]}, TypeError, "strategies"),
        ({"house": 5}, TypeError, "house"),
        ({"n_games": 2**60}, ValueError, "games"),
    ],
)
def test_api_arguments(kw, exc, word):
    with pytest.raises(exc, match=word):
        unosim.simulate("official", **{"n_games": 10, **kw})


# ------------------------------------------------------------------ trace
def test_trace_turns_are_wide_enough():
    from unosim.kernel.state import new_round
    from unosim.kernel.trace import _write_event

    rd = new_round(np.int64(108), np.int64(2))
    assert rd.trace.dtype == np.int32
    rd.g[L.G_N] = 2
    for turns in (32_767, 1_000_000):
        rd.count[L.K_TURNS] = turns
        rd.tr[L.TR_EVENTS] = 0
        _write_event(rd, np.int64(L.E_PLAY), np.int64(0), np.int64(3), np.int64(0), np.int64(0))
        assert rd.trace[0, L.EV_TURN] == turns


def test_trace_memory_is_bounded(monkeypatch):
    from unosim.sim import engine

    monkeypatch.setattr(engine, "TRACE_MAX_BYTES", 20 * L.EV_W * 4)
    one_line_error(invoke("replay", "--game", 0), "events", "GiB")


# ------------------------------------------------------------------ outputs
def test_out_parquet_in_any_case_is_a_file(tmp_path):
    r = invoke("simulate", "--games", 50, "--out", tmp_path / "x.PARQUET")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "x.PARQUET").is_file()
    assert len(pd.read_parquet(tmp_path / "x.PARQUET")) == 50


@pytest.mark.parametrize(
    "where", ["/proc/unosim-x.parquet", "/proc/unosim-dir", "/proc/self/unosim/x.parquet"]
)
def test_out_on_an_unwritable_filesystem(where):
    one_line_error(invoke("simulate", "--games", 10, "--out", where), "--out")
    assert not Path(where).exists()


def test_disk_full_while_writing(tmp_path, monkeypatch):
    import pyarrow.parquet as pq

    def full(self, *a, **k):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(pq.ParquetWriter, "write_table", full)
    one_line_error(
        invoke("simulate", "--games", 10, "--out", tmp_path / "x.parquet"), "No space left"
    )
    assert list(tmp_path.iterdir()) == []


def test_stale_temporaries_of_the_same_output_are_removed(tmp_path):
    stale = _write(tmp_path / ".x.parquet.abc123.tmp", b"half a file")
    other = _write(tmp_path / ".y.parquet.abc123.tmp", b"someone else's")
    r = invoke("simulate", "--games", 20, "--out", tmp_path / "x.parquet")
    assert r.exit_code == 0, r.output
    assert not stale.exists() and other.exists()


def test_renames_are_fsynced(tmp_path, monkeypatch):
    from unosim.sim import results

    synced = []
    real = os.fsync
    monkeypatch.setattr(
        results.os,
        "fsync",
        lambda fd: (synced.append(os.readlink(f"/proc/self/fd/{fd}")), real(fd))[1],
    )
    df = unosim.simulate("official", 20, 4, seed=1)
    results.write_parquet(df, tmp_path / "a.parquet", df.attrs["manifest"])
    assert any(s.endswith(".tmp") for s in synced)  # the file, before the rename
    assert str(tmp_path) in synced  # the folder, after it


def _dataset(tmp_path, **kw):
    root = tmp_path / "run"
    unosim.run(
        "official", 3000, 4, "random", seed=2, out=root, chunk_games=1000, executor="serial", **kw
    )
    return root


def test_zero_length_part_is_recomputed_on_resume(tmp_path):
    root = _dataset(tmp_path)
    want = ds.read_dataset(root)
    ds.part_path(root, 1000).write_bytes(b"")
    with pytest.raises(ds.DatasetError, match="part-000000001000.parquet: not a readable"):
        ds.read_dataset(root)
    r = invoke(
        "simulate",
        "--games",
        3000,
        "--seed",
        2,
        "--executor",
        "serial",
        "--out",
        root,
        "--resume",
        "--no-progress",
    )
    assert r.exit_code == 0, r.output
    assert "part-000000001000.parquet: not a readable Parquet file" in r.stderr
    assert "2 of 3 chunks already" in r.stderr and "(1,000 run now)" in r.stdout
    got = ds.read_dataset(root)
    pd.testing.assert_frame_equal(got, want)


@pytest.mark.parametrize("damage", [b"", b'{"first_game": 0, "games": 1', b"[]"])
def test_damaged_summary_is_named_and_recomputed(tmp_path, damage):
    root = _dataset(tmp_path, summary_only=True)
    total = ds.read_summary(root)
    ds.summary_path(root, 2000).write_bytes(damage)
    r = invoke(
        "simulate",
        "--games",
        3000,
        "--seed",
        2,
        "--summary-only",
        "--out",
        root,
        "--resume",
        "--no-progress",
    )
    assert r.exit_code == 0, r.output
    assert "_summary-000000002000.json" in r.stderr
    assert ds.read_summary(root) == total


def test_zero_length_manifest_names_the_file(tmp_path):
    root = _dataset(tmp_path)
    (root / ds.MANIFEST).write_bytes(b"")
    one_line_error(
        invoke("simulate", "--games", 3000, "--seed", 2, "--out", root, "--resume"),
        "_manifest.json",
    )


def test_resume_with_nothing_to_do_prints_no_rates(tmp_path):
    root = _dataset(tmp_path)
    r = invoke(
        "simulate",
        "--games",
        3000,
        "--seed",
        2,
        "--chunk-games",
        1000,
        "--out",
        root,
        "--resume",
        "--no-progress",
    )
    assert r.exit_code == 0, r.output
    line = next(ln for ln in r.stdout.splitlines() if ln.startswith("games"))
    assert line == "games            3,000 (none run now: all were done)"


def test_sigterm_is_handled_like_ctrl_c(tmp_path):
    out = tmp_path / "run"
    # far more games than the run plays before the signal, so that it cannot end first
    # on a fast machine (400,000 once did, between two polls of a loaded test process)
    cmd = [
        UNOSIM,
        "simulate",
        "--games",
        "20000000",
        "--chunk-games",
        "2000",
        "--executor",
        "serial",
        "--no-progress",
        "--out",
        str(out),
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while len(list(out.glob("_summary-*"))) < 2 and proc.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    assert not list(out.glob(".*"))  # no temporary file left
    for p in out.glob("part-*.parquet"):
        assert len(pd.read_parquet(p)) == 2000


@pytest.mark.parametrize("single", [False, True])
def test_interrupt_before_a_writer_takes_over_its_temporary(tmp_path, monkeypatch, single):
    """A signal can land after a part's temporary file is created but before the
    ``with`` that removes it is entered (CI once left one behind); the run still
    leaves no temporary file."""

    def interrupted(self):
        raise KeyboardInterrupt

    monkeypatch.setattr(ds.PartWriter, "__enter__", interrupted)
    out = tmp_path / ("o.parquet" if single else "run")
    with pytest.raises(KeyboardInterrupt):
        unosim.run(n_games=2000, chunk_games=1000, executor="serial", out=out)
    assert not [p for p in tmp_path.rglob(".*") if p.name.endswith(".tmp")]


def test_single_file_sigterm_leaves_no_temporary(tmp_path):
    target = tmp_path / "o.parquet"
    cmd = [
        UNOSIM,
        "simulate",
        "--games",
        "3000000",
        "--threads",
        "1",
        "--no-progress",
        "--out",
        str(target),
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not list(tmp_path.glob(".o.parquet.*.tmp")) and proc.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    time.sleep(0.5)
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------ numba's cache
def test_read_only_package_caches_elsewhere(tmp_path):
    """The package folder unwritable (simulated: its kernel/__pycache__ is a file)."""
    import shutil

    pkg = tmp_path / "site" / "unosim"
    shutil.copytree(Path(unosim.__file__).parent, pkg, ignore=shutil.ignore_patterns("__pycache__"))
    (pkg / "kernel" / "__pycache__").write_text("not a folder")
    env = {**os.environ, "PYTHONPATH": str(pkg.parent), "XDG_CACHE_HOME": str(tmp_path / "c")}
    env.pop("NUMBA_CACHE_DIR", None)
    code = (
        "import numba, unosim.kernel, unosim.kernel.rng as k; from unosim.kernel import jit; "
        "print(unosim.kernel.CACHE_ROOT); "
        "print(repr(numba.config.CACHE_DIR)); print(jit._Cache(k.seed_streams.py_func).cache_path)"
    )
    r = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert r.returncode == 0, r.stderr
    root, numbas, path = r.stdout.splitlines()
    assert Path(root).parent == tmp_path / "c" / "numba"  # numba's per-user cache folder
    assert numbas == "''"  # numba's own setting is left alone
    assert Path(path) == Path(root)


# ------------------------------------------------------------------ error lines
def test_error_lines_escape_control_characters():
    from unosim.cli.app import one_line

    assert one_line("a\nb\r\x1b[31m") == "a\\nb\\r\\x1b[31m"
    err = one_line_error(invoke("simulate", "--rules", "x\nunosim: error: fake"), "unknown")
    assert "\\n" in err


# ------------------------------------------------------------------ plain readers
def test_dataset_folder_opens_with_plain_readers(tmp_path):
    """pandas, pyarrow and DuckDB read every row of a dataset folder
    and nothing else (the manifest and summaries start with `_`), without unosim."""
    import pyarrow.dataset as pads
    import pyarrow.parquet as pq

    from unosim.sim.results import MANIFEST_KEY

    root = _dataset(tmp_path)
    _write(root / ".part-000000009000.parquet.abc.tmp", b"a crashed writer's file")
    want = ds.read_dataset(root)
    want.attrs = {}
    by_pandas = pd.read_parquet(root).sort_values("game", ignore_index=True)
    pd.testing.assert_frame_equal(by_pandas, want)
    by_arrow = pads.dataset(root, format="parquet").to_table().to_pandas()
    pd.testing.assert_frame_equal(by_arrow.sort_values("game", ignore_index=True), want)
    part = ds.part_path(root, 1000)
    m = json.loads(pq.read_schema(part).metadata[MANIFEST_KEY])
    assert (m["first_game"], m["games"], m["seed"]) == (1000, 1000, 2)
    duckdb = pytest.importorskip("duckdb")
    got = duckdb.sql(f"SELECT * FROM '{root}/*.parquet' ORDER BY game").df()
    assert len(got) == 3000 and list(got.columns) == list(want.columns)
    assert (got["turns"].to_numpy() == want["turns"].to_numpy()).all()


def test_old_layout_folder_is_refused_with_a_way_out(tmp_path):
    root = _dataset(tmp_path)
    (root / ds.MANIFEST).rename(root / "manifest.json")
    with pytest.raises(ds.DatasetError, match="older unosim.*rename manifest.json"):
        ds.read_dataset(root)


@pytest.mark.parametrize(
    "args,word",
    [
        (["simulate", "--games", "1e30"], "--games"),
        (["simulat"], "No such command"),
        (["simulate", "--bogus"], "--bogus"),
        (["replay", "--game", "x"], "--game"),
        (["rules", "show", "a", "b"], "unexpected extra argument"),
    ],
)
def test_usage_errors_are_one_line(args, word):
    one_line_error(runner.invoke(app, args), word)


def test_console_script_usage_error_is_one_line():
    r = subprocess.run(
        [UNOSIM, "simulate", "--games", "1e30"], capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("unosim: error: ") and r.stderr.count("\n") == 1, r.stderr


def test_no_writable_cache_folder_runs_uncached(tmp_path):
    """Nothing writable (simulated: every candidate lies under a file): a one-line
    notice at the first compile, and unosim's kernels compile without caching; a user's
    own cache=True function is numba's as ever (here numba refuses it, a lambda having no
    file)."""
    import shutil

    pkg = tmp_path / "site" / "unosim"
    shutil.copytree(Path(unosim.__file__).parent, pkg, ignore=shutil.ignore_patterns("__pycache__"))
    (pkg / "kernel" / "__pycache__").write_text("not a folder")
    afile = _write(tmp_path / "afile", "x")
    env = {**os.environ, "PYTHONPATH": str(pkg.parent), "XDG_CACHE_HOME": str(afile / "c")}
    env.pop("NUMBA_CACHE_DIR", None)
    code = (
        "import numpy as np\n"
        "from unosim.kernel.batch import deck_order\n"
        "from unosim.kernel.kinds import N_KINDS\n"
        "print(deck_order(np.ones(N_KINDS, np.int16)).size)\n"
        "from numba import njit\n"
        "try:\n"
        "    njit(cache=True)(lambda x: x + 1)(2)\n"
        "except RuntimeError as e:\n"
        "    print('numba:', 'no locator' in str(e))\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert r.returncode == 0, r.stderr
    from unosim.kernel.kinds import N_KINDS

    assert r.stdout.split() == [str(N_KINDS), "numba:", "True"], r.stdout
    assert r.stderr.startswith("unosim: note: ") and r.stderr.count("\n") == 1, r.stderr


def test_memory_bounds_of_compare_match_and_blocks(out):
    one_line_error(
        invoke("compare", "official", "stacking", "--games", 2**28, "--out", out / "c.csv"),
        "games",
        "in memory",
    )
    one_line_error(
        invoke("match", "--matches", 2**40, "--out", out / "m.parquet"), "matches must be at most"
    )
    with pytest.raises(ValueError, match="block"):
        unosim.run(n_games=10, block=2**40)
    with pytest.raises(ValueError, match="block"):
        unosim.simulate(n_games=10, block=2**40)
