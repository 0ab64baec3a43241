"""Inputs from outside and the failures around runs: TOML files bounded before they are
parsed (size, nesting, dotted keys, FIFOs and devices, a byte-order mark), numpy scalars
in the API, scheduler schemes, ``progress``, ``replay --limit`` streaming, SIGTERM in
``unosim match`` and a full disk under a dataset. Each gives a one-line error (exit 2,
130 for a signal) or the right result, and leaves nothing behind."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import unosim
from unosim.cli.app import app
from unosim.game import tomlfile
from unosim.game.rules import RuleError, load_toml

runner = CliRunner()
UNOSIM = str(Path(sys.executable).with_name("unosim"))


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


def _within(seconds: float, fn, *args):
    """``fn(*args)`` in a thread; fails (instead of hanging) if it blocks."""
    box = {}

    def go():
        try:
            box["value"] = fn(*args)
        except BaseException as e:  # noqa: BLE001 - handed back to the test
            box["error"] = e

    t = threading.Thread(target=go, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), f"{fn.__name__} blocked"
    if "error" in box:
        raise box["error"]
    return box.get("value")


# ------------------------------------------------------------------ TOML files
HOSTILE_TOML = {
    "nested 50,000 deep": ("a = " + "[" * 50_000 + "]" * 50_000 + "\n", "nested more"),
    "inline tables 40 deep": ("a = " + "{b = " * 40 + "1" + "}" * 40 + "\n", "nested more"),
    "40 kB dotted key": ("a" + ".a" * 20_000 + " = 1\n", "dotted key"),
    "dotted table header": ("[" + ".".join(["t"] * 100) + "]\nx = 1\n", "dotted key"),
}


@pytest.mark.parametrize("case", list(HOSTILE_TOML))
def test_hostile_toml_is_refused_before_parsing(tmp_path, case):
    text, words = HOSTILE_TOML[case]
    path = tmp_path / "r.toml"
    path.write_text(text)
    t = time.perf_counter()
    one_line_error(invoke("rules", "show", path), words)
    assert time.perf_counter() - t < 5
    strat = tmp_path / "w.toml"
    strat.write_text(text)
    one_line_error(
        invoke("simulate", "--games", 3, "--strategies", f"weighted:{strat}"),
        "strategy file",
        words,
    )


def test_strings_and_comments_do_not_count(tmp_path):
    """Brackets, braces and dots inside strings and comments are not structure."""
    path = tmp_path / "ok.toml"
    path.write_text(
        'name = "' + "[{." * 200 + '"\n'
        "# " + "[" * 200 + "\n"
        "x1 = '''" + "." * 100 + "'''\n"
        'x2 = """a\\"""" \n'
        "[deck]\nwild = 4 # " + "{" * 50 + "\n"
    )
    assert tomlfile.check_shape(path.read_text()) is None
    with pytest.raises(RuleError, match="unknown rule 'x1'"):  # parsed, then judged
        load_toml(path)


def test_a_huge_rules_file_is_not_read(tmp_path):
    path = tmp_path / "big.toml"
    with open(path, "wb") as f:
        f.truncate(3 << 30)  # 3 GB, sparse: costs no disk
    one_line_error(invoke("rules", "show", path), "3,221,225,472 bytes", "at most")
    strat = tmp_path / "w.toml"
    os.link(path, strat)
    one_line_error(
        invoke("simulate", "--games", 3, "--strategies", f"weighted:{strat}"),
        "strategy file",
        "at most",
    )


def test_fifo_and_devices_are_refused_without_blocking(tmp_path):
    fifo = tmp_path / "r.toml"
    os.mkfifo(fifo)
    with pytest.raises(RuleError, match="FIFO"):
        _within(10, load_toml, fifo)
    r = _within(30, invoke, "simulate", "--games", 3, "--rules", fifo)
    one_line_error(r, "FIFO", "not a file")
    r = _within(30, invoke, "simulate", "--games", 3, "--strategies", f"weighted:{fifo}")
    one_line_error(r, "strategy file", "FIFO")
    dev = tmp_path / "zero.toml"
    dev.symlink_to("/dev/zero")
    one_line_error(_within(30, invoke, "rules", "show", dev), "character device")
    folder = tmp_path / "x.toml"
    folder.mkdir()
    one_line_error(invoke("rules", "show", folder), "a folder")


def test_a_fifo_swapped_in_after_the_check_does_not_block(tmp_path, monkeypatch):
    """``stat`` said regular file, then the path became a FIFO: the O_NONBLOCK open
    returns at once and ``fstat`` refuses it."""
    fifo = tmp_path / "r.toml"
    os.mkfifo(fifo)
    real = os.stat

    class Regular:
        st_mode = 0o100644
        st_size = 10

    monkeypatch.setattr(
        tomlfile.os,
        "stat",
        lambda p, *a, **k: Regular() if str(p) == str(fifo) else real(p, *a, **k),
    )
    with pytest.raises(RuleError, match="FIFO"):
        _within(10, load_toml, fifo)


def test_a_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.toml"
    path.write_bytes("\ufeffname = 'bom'\nstacking = 'same'\n".encode())
    rs = load_toml(path)
    assert (rs.name, rs.stacking) == ("bom", "same")
    strat = tmp_path / "w.toml"
    strat.write_bytes(b"\xef\xbb\xbfstrategy = 'weighted'\n[weights]\n")
    r = invoke(
        "simulate",
        "--games",
        3,
        "--players",
        2,
        "--threads",
        1,
        "--no-progress",
        "--strategies",
        f"weighted:{strat}",
    )
    assert r.exit_code == 0, r.output


def test_binary_and_not_utf8_are_one_line(tmp_path):
    path = tmp_path / "bin.toml"
    path.write_bytes(b"name = '\xff\xfe'\n")
    one_line_error(invoke("rules", "show", path), "not UTF-8")


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


# ------------------------------------------------------------------ replay --limit
@pytest.fixture(scope="module")
def results_file(tmp_path_factory):
    from unosim.sim.results import write_parquet

    df = unosim.simulate("official", 60, 3, "random", seed=5, threads=1)
    path = tmp_path_factory.mktemp("r") / "r.parquet"
    write_parquet(df, path, df.attrs["manifest"])
    return path


def test_replay_limit_streams_one_replay_at_a_time(results_file, monkeypatch):
    from unosim.sim import replay as R

    made = []
    real = R.replay_job
    monkeypatch.setattr(R, "replay_job", lambda job, g: (made.append(g), real(job, g))[1])
    reps, note = R.stream_replays(source=results_file, limit=50)
    assert made == [] and "60 games; replaying the first 50" in note
    first = next(reps)
    assert made == [first.game] == [0]  # made when taken, not before
    assert next(reps).game == 1 and len(made) == 2


def test_replay_limit_is_bounded(results_file):
    from unosim.sim.replay import MAX_LIMIT

    for n in (2**63, MAX_LIMIT + 1, 0, -1):
        one_line_error(
            invoke("replay", "--from", results_file, "--limit", n), "--limit", f"{MAX_LIMIT:,}"
        )
    r = invoke("replay", "--from", results_file, "--limit", MAX_LIMIT, "--json")
    assert r.exit_code == 0 and len(r.stdout.splitlines()) == 60


# ------------------------------------------------------------------ signals, full disk
def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.parametrize("threads", ["1", "2"])
def test_sigterm_during_match_is_exit_130(tmp_path, threads):
    """Before: SystemError: CPUDispatcher(run_matches) returned a result with an
    exception set (the handler ran inside the compiled call)."""
    out = tmp_path / "m.parquet"
    cmd = [
        UNOSIM,
        "match",
        "--matches",
        "5000000",
        "--threads",
        threads,
        "--no-progress",
        "--out",
        str(out),
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    start = None
    while proc.poll() is None:  # past the imports: playing matches for a second
        assert time.monotonic() < deadline
        cpu = _cpu_seconds(proc.pid)
        start = start if start is not None or cpu < 3 else cpu
        if start is not None and cpu > start + 1.0:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert err == "unosim: interrupted; nothing was written\n", err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("where", ["part", "manifest"])
def test_disk_full_under_a_dataset_leaves_no_folder(tmp_path, monkeypatch, where):
    import pyarrow.parquet as pq

    from unosim.sim import dataset as ds

    def full(*a, **k):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    if where == "part":
        monkeypatch.setattr(pq.ParquetWriter, "write_table", full)
    else:
        monkeypatch.setattr(ds, "_write_text", full)
    out = tmp_path / "new" / "run"
    one_line_error(invoke("simulate", "--games", 10, "--threads", 1, "--out", out), "No space left")
    assert list(tmp_path.iterdir()) == []
    empty = tmp_path / "mine"  # an empty folder the user made is kept, still empty
    empty.mkdir()
    one_line_error(
        invoke("simulate", "--games", 10, "--threads", 1, "--out", empty), "No space left"
    )
    assert empty.is_dir() and list(empty.iterdir()) == []
