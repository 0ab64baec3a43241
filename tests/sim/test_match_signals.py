"""SIGTERM during `unosim match` ends with exit code 130, and a full disk under a dataset
leaves no folder."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from unosim.cli.app import app

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
