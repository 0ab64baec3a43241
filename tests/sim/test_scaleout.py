"""Chunked, streaming runs: executors, dataset folders, resume, faults, aggregates, memory.

Every executor must give the rows of ``unosim.simulate`` for the same seed, and the same
exact aggregates, whatever the chunk and block sizes; the Dask tests use real
LocalClusters (in-process, and worker processes, one of them killed mid-run).
"""

from __future__ import annotations

import json
import os
import re
import shutil
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
from unosim.kernel.core import layout as L
from unosim.sim import dataset as ds
from unosim.sim.results import read_manifest, read_results
from unosim.sim.runner import local_cluster
from unosim.sim.summary import TURNS_BINS, Aggregate, hist_quantile_ci
from unosim.stats import quantile_ci, summary_table
from unosim.versions import KERNEL_BEHAVIOUR_VERSION

ARGS = dict(
    rules="official",
    n_players=4,
    strategies="random,heuristic,random,heuristic",
    seed=7,
    house="stacking=progressive,jump_in=true",
)
N = 24_000  # games of most runs: 7 chunks of 3,500 (the last one short)
CHUNK, BLOCK = 3_500, 1_500  # chunks not a multiple of blocks, on purpose
UNOSIM = str(Path(sys.executable).with_name("unosim"))
runner = CliRunner()


@pytest.fixture(scope="module")
def ref() -> pd.DataFrame:
    """The rows of ``unosim.simulate`` for ARGS: what every executor must reproduce."""
    return unosim.simulate(n_games=N, **ARGS)


def _run(out, **kw):
    opts = dict(chunk_games=CHUNK, block=BLOCK)
    opts.update(kw)
    return unosim.run(n_games=opts.pop("n_games", N), out=out, **ARGS, **opts)


def _same_rows(got: pd.DataFrame, ref: pd.DataFrame) -> None:
    got = got.copy()
    got.attrs = {}
    want = ref.copy()
    want.attrs = {}
    pd.testing.assert_frame_equal(got, want)


# ------------------------------------------------------------------------ executors


@pytest.fixture(scope="module")
def serial_run(ref, tmp_path_factory):
    out = tmp_path_factory.mktemp("serial") / "run"
    return out, _run(out, executor="serial")


def test_serial_dataset_is_the_simulate_frame(serial_run, ref):
    out, res = serial_run
    _same_rows(ds.read_dataset(out), ref)
    assert res.chunks == res.chunks_computed == 7
    names = sorted(p.name for p in out.iterdir())
    firsts = range(0, N, CHUNK)
    assert names == sorted(
        [
            "_manifest.json",
            *(f"part-{f:012d}.parquet" for f in firsts),
            *(f"_summary-{f:012d}.json" for f in firsts),
        ]
    )
    m = json.loads((out / "_manifest.json").read_text())
    assert m["games"] == N and m["seed"] == 7 and m["chunk_games"] == CHUNK
    assert m["summary_only"] is False and m["rules_hash"] == ref.attrs["manifest"]["rules_hash"]
    # each part carries its own manifest, for the games it holds
    part = read_results(out / "part-000000021000.parquet")
    assert part.attrs["manifest"]["first_game"] == 21_000
    assert part.attrs["manifest"]["games"] == N - 21_000 == len(part)
    assert part["game"].iloc[0] == 21_000


def test_summary_from_aggregates_equals_summary_from_rows(serial_run, ref):
    _, res = serial_run
    want, got = summary_table(ref, 4), res.total.summary_table()
    pd.testing.assert_frame_equal(got.pop("seats"), want.pop("seats"))
    assert got.keys() == want.keys()
    for k in want:
        assert got[k] == pytest.approx(want[k], rel=1e-12), k
    assert ds.read_summary(serial_run[0]) == res.total
    assert res.total.totals["turns"] == ref["turns"].sum()
    assert res.total.totals["cards_drawn"] == ref["cards_drawn"].sum()
    assert res.total.max_stack == ref["max_stack"].max()


@pytest.mark.parametrize("executor,threads", [("threads", 2), ("threads", 1)])
def test_threads_executor_identical(executor, threads, serial_run, ref, tmp_path):
    res = _run(tmp_path / "run", executor=executor, threads=threads)
    _same_rows(ds.read_dataset(tmp_path / "run"), ref)
    assert res.total == serial_run[1].total


@pytest.mark.parametrize("chunk,block", [(1, 1), (997, 10_000), (5_000, 333), (N, N)])
def test_chunk_and_block_sizes_do_not_change_results(chunk, block, serial_run, ref, tmp_path):
    n = 3_000 if chunk == 1 else N  # 3,000 one-game chunks is plenty
    res = _run(tmp_path / "run", n_games=n, chunk_games=chunk, block=block, summary_only=chunk == 1)
    if chunk != 1:
        _same_rows(ds.read_dataset(tmp_path / "run"), ref)
        assert res.total == serial_run[1].total
    else:
        assert res.total == Aggregate.from_records(_records(ref.iloc[:n]), 4)


@pytest.fixture(scope="module")
def inprocess_client():
    from distributed import Client

    cluster = local_cluster(2, processes=False)
    client = Client(cluster)
    yield client
    client.close()
    cluster.close()


@pytest.fixture(scope="module")
def process_client():
    from distributed import Client

    cluster = local_cluster(2, processes=True)
    client = Client(cluster)
    yield client
    client.close()
    cluster.close()


@pytest.mark.parametrize("cluster", ["inprocess_client", "process_client"])
def test_dask_local_cluster_identical(cluster, request, serial_run, ref, tmp_path):
    client = request.getfixturevalue(cluster)
    done = []
    res = _run(tmp_path / "run", executor="dask", client=client, progress=done.append)
    _same_rows(ds.read_dataset(tmp_path / "run"), ref)
    assert res.total == serial_run[1].total
    assert sorted(done) == sorted(c for _, c in ds.chunks(0, N, CHUNK))  # one per chunk
    if cluster == "process_client":  # the workers run numba on one thread
        assert set(client.run(lambda: os.environ.get("NUMBA_NUM_THREADS")).values()) == {"1"}


def test_dask_summary_only_identical(process_client, serial_run, tmp_path):
    res = _run(
        tmp_path / "run",
        executor="dask",
        client=process_client,
        summary_only=True,
        chunk_games=5_000,
    )
    assert res.total == serial_run[1].total
    assert not list((tmp_path / "run").glob("part-*"))
    assert ds.read_summary(tmp_path / "run") == res.total


def test_worker_killed_mid_run_gives_the_same_result(ref, serial_run, tmp_path):
    """A LocalCluster of two worker processes; one is SIGKILLed after 3 chunks finish.
    Its chunks are recomputed elsewhere (its nanny restarts it) and nothing changes."""
    from distributed import Client

    cluster = local_cluster(2, processes=True)
    client = Client(cluster)
    try:
        pids = client.run(os.getpid)
        victim = sorted(pids.values())[0]
        finished = []

        def progress(n):
            finished.append(n)
            if len(finished) == 3:
                os.kill(victim, signal.SIGKILL)

        res = _run(
            tmp_path / "run", executor="dask", client=client, progress=progress, chunk_games=800
        )
        assert len(finished) == res.chunks == 30  # every chunk reported once
        assert victim not in client.run(os.getpid).values()  # it was indeed killed
    finally:
        client.close()
        cluster.close()
    _same_rows(ds.read_dataset(tmp_path / "run"), ref)
    assert res.total == serial_run[1].total
    assert not list((tmp_path / "run").glob(".*"))  # no temporary file left


# ------------------------------------------------------------------------ resume


class Interrupt(Exception):
    pass


def test_resume_after_an_interruption_computes_only_missing_chunks(ref, serial_run, tmp_path):
    out = tmp_path / "run"
    seen = []

    def stop_in_chunk_4(n):  # called after every block; chunk 4 stops half-way
        seen.append(n)
        if sum(seen) > 3 * CHUNK + BLOCK:
            raise Interrupt

    with pytest.raises(Interrupt):
        _run(out, executor="serial", progress=stop_in_chunk_4)
    parts = sorted(p.name for p in out.glob("part-*"))
    assert parts == [f"part-{f:012d}.parquet" for f in (0, 3500, 7000)]  # never half
    assert not list(out.glob(".*"))  # the half-written part was removed
    with pytest.raises(ds.DatasetError, match="incomplete: 4 of 7"):
        ds.read_dataset(out)
    assert len(ds.read_dataset(out, allow_incomplete=True)) == 3 * CHUNK
    # a crashed writer's temporary file is cleaned up by the resume
    (out / ".part-000000010500.parquet.abc.tmp").write_bytes(b"half")
    res = _run(out, executor="threads", resume=True)
    assert (res.chunks, res.chunks_computed) == (7, 4)
    assert res.computed.games == N - 3 * CHUNK
    assert res.total == serial_run[1].total
    _same_rows(ds.read_dataset(out), ref)
    assert not list(out.glob(".*"))
    again = _run(out, resume=True)  # nothing left to do
    assert again.chunks_computed == 0 and again.total == res.total


def test_resume_recomputes_a_part_without_its_summary(ref, serial_run, tmp_path):
    out = tmp_path / "run"
    _run(out, executor="serial", n_games=N)
    (out / "_summary-000000007000.json").unlink()  # killed between part and summary
    res = _run(out, resume=True)
    assert res.chunks_computed == 1
    _same_rows(ds.read_dataset(out), ref)


MISMATCH = {
    "seed": (["--seed", 8], "seed 7 here, 8 now"),
    "rules": (["--house", "stacking=same"], "rules"),
    "strategies": (["--strategies", "random"], "strategies random,heuristic"),
    "players": (["--players", 3, "--strategies", "random"], "players 4 here, 3 now"),
    "games": (["--games", 2 * N], "games"),
    "chunk": (["--chunk-games", 1000], "chunk size"),
    "summary-only": (["--summary-only"], "--summary-only off here, on now"),
}
CLI_ARGS = [
    "--rules",
    "official",
    "--players",
    4,
    "--strategies",
    "random,heuristic,random,heuristic",
    "--seed",
    7,
    "--house",
    "stacking=progressive,jump_in=true",
    "--games",
    N,
    "--no-progress",
]


def _cli(*args):
    return runner.invoke(app, ["simulate", *map(str, args)])


def _with(args: list, changes: list) -> list:
    out = list(args)
    for i in range(0, len(changes), 2):
        if changes[i] in out:
            out[out.index(changes[i]) + 1] = changes[i + 1]
        else:
            out += changes[i : i + 2] if i + 1 < len(changes) else changes[i:]
    return out


@pytest.fixture(scope="module")
def cli_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("cli") / "run"
    r = _cli(*CLI_ARGS, "--chunk-games", CHUNK, "--executor", "serial", "--out", out)
    assert r.exit_code == 0, r.output
    return out, r


@pytest.mark.parametrize("case", list(MISMATCH))
def test_resume_refuses_another_run(case, cli_run):
    out, _ = cli_run
    before = {p.name: p.stat().st_mtime_ns for p in out.iterdir()}
    changes, words = MISMATCH[case]
    args = _with(CLI_ARGS, changes) if case != "summary-only" else CLI_ARGS + changes
    r = _cli(*args, "--out", out, "--resume")
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith("unosim: error: --resume: ") and r.stderr.count("\n") == 1
    assert words in r.stderr, r.stderr
    assert r.stdout == ""
    assert {p.name: p.stat().st_mtime_ns for p in out.iterdir()} == before


def test_resume_refuses_a_run_of_another_kernel_behaviour(cli_run, tmp_path):
    out, _ = cli_run
    copy = tmp_path / "run"
    shutil.copytree(out, copy)
    m = json.loads((copy / "_manifest.json").read_text())
    assert m["kernel_behaviour"] == KERNEL_BEHAVIOUR_VERSION
    m["kernel_behaviour"] = KERNEL_BEHAVIOUR_VERSION + 1
    (copy / "_manifest.json").write_text(json.dumps(ds.seal(m)))  # as that unosim seals it
    r = _cli(*CLI_ARGS, "--out", copy, "--resume")
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith("unosim: error: --resume: ") and r.stderr.count("\n") == 1
    assert f"kernel behaviour {KERNEL_BEHAVIOUR_VERSION + 1}" in r.stderr, r.stderr


def test_new_run_refuses_a_used_folder_and_resume_of_a_done_run(cli_run):
    out, first = cli_run
    r = _cli(*CLI_ARGS, "--out", out)
    assert r.exit_code == 2 and "already exists" in r.stderr and "--resume" in r.stderr
    r = _cli(*CLI_ARGS, "--out", out, "--resume")  # the manifest's chunk size is kept
    assert r.exit_code == 0, r.output
    assert "none run now" in r.stdout
    seats = [ln for ln in r.stdout.splitlines() if re.match(r"\s+seat", ln)]
    assert seats == [ln for ln in first.stdout.splitlines() if re.match(r"\s+seat", ln)]


def test_cli_resume_after_sigkill(ref, tmp_path):
    """A real interruption: the process is killed (SIGKILL) after 3 of 20 chunks."""
    out = tmp_path / "run"
    cmd = [
        UNOSIM,
        "simulate",
        *map(str, _with(CLI_ARGS, ["--games", 20_000])),
        "--executor",
        "serial",
        "--chunk-games",
        "1000",
        "--out",
        str(out),
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while len(list(out.glob("_summary-*"))) < 3 and proc.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    proc.kill()
    proc.communicate()
    assert proc.returncode == -signal.SIGKILL, "the run ended before it could be killed"
    done = len(list(out.glob("_summary-*")))
    assert 3 <= done < 20
    for p in out.glob("part-*.parquet"):  # whatever is under a final name is complete
        assert len(read_results(p)) == 1000
    r = subprocess.run(cmd + ["--resume"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert f"({20_000 - 1000 * done:,} run now)" in r.stdout, r.stdout
    _same_rows(ds.read_dataset(out), ref.iloc[:20_000])


# ------------------------------------------------------------------------ CLI modes


def test_cli_executors_print_the_same_summary(tmp_path):
    common = ["--games", 30_000, "--seed", 3, "--no-progress", "--chunk-games", 4_000]
    outs = {}
    for name, extra in {
        "threads": [],
        "serial": ["--executor", "serial"],
        "dask": ["--executor", "dask", "--threads", 2, "--summary-only", "--out", tmp_path / "d"],
    }.items():
        r = _cli(*common, *extra)
        assert r.exit_code == 0, r.output
        outs[name] = [ln for ln in r.stdout.splitlines() if not ln.startswith(("games ", "wrote "))]
    assert outs["threads"] == outs["serial"] == outs["dask"]
    assert len(outs["threads"]) == 1 + 1 + 4 + 3
    assert sorted(p.name for p in (tmp_path / "d").iterdir()) == [
        "_manifest.json",
        *(f"_summary-{f:012d}.json" for f in range(0, 30_000, 4_000)),
    ]


def test_cli_single_file_still_one_file(tmp_path):
    r = _cli(
        "--games", 5_000, "--seed", 3, "--out", tmp_path / "one.parquet", "--chunk-games", 1_000
    )
    assert r.exit_code == 0, r.output
    assert [p.name for p in tmp_path.iterdir()] == ["one.parquet"]
    df = read_results(tmp_path / "one.parquet")
    _same_rows(df, unosim.simulate(n_games=5_000, seed=3))
    assert read_manifest(tmp_path / "one.parquet")["games"] == 5_000


@pytest.mark.parametrize(
    "args,words",
    [
        (["--executor", "cluster"], "--executor must be one of serial, threads, dask"),
        (["--out", "X.parquet", "--summary-only"], "--out DIR"),
        (["--out", "X.parquet", "--executor", "dask"], "--out DIR"),
        (["--resume"], "--resume needs --out DIR"),
        (["--executor", "serial", "--threads", 2], "serial executor uses one thread"),
        (["--executor", "threads", "--scheduler", "tcp://127.0.0.1:1"], "needs --executor dask"),
        (["--scheduler", "tcp://127.0.0.1:1", "--threads", 2], "dask worker"),
        (["--chunk-games", 0], "chunk_games"),
    ],
)
def test_cli_bad_combinations(args, words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = _cli("--games", 100, *args)
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith("unosim: error: ") and words in r.stderr, r.stderr
    assert list(tmp_path.iterdir()) == []


def test_cli_unreachable_scheduler(tmp_path, monkeypatch):
    monkeypatch.setattr("unosim.sim.runner.CONNECT_TIMEOUT", "1s")
    r = _cli("--games", 100, "--scheduler", "tcp://127.0.0.1:9", "--out", tmp_path / "r")
    assert r.exit_code == 2
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in r.stderr


def test_progress_bar_only_on_a_terminal(tmp_path):
    from unosim.cli import progress as pg

    assert not pg.wanted(10**9, no_progress=True)
    assert not pg.wanted(10, no_progress=False)
    with pg.progress_bar(100, 10, enabled=False) as advance:
        assert advance is None
    with pg.progress_bar(100, 10, enabled=True) as advance:  # renders without a terminal
        advance(50)
        advance(40)
    r = _cli("--games", 300_000, "--seed", 1, "--summary-only", "--out", tmp_path / "s")
    assert r.exit_code == 0 and r.stderr == ""  # CliRunner's stderr is no terminal


# ------------------------------------------------------------------------ aggregates


def _records(df: pd.DataFrame) -> np.ndarray:
    """A frame back into raw kernel records (the columns aggregates read)."""
    out = np.zeros((len(df), L.N_COLS), dtype=np.int32)
    for i, name in enumerate(L.FIXED_COLUMNS):
        out[:, i] = df[name].to_numpy()
    return out


def test_aggregates_add_up_and_round_trip(ref):
    raw = _records(ref)
    whole = Aggregate.from_records(raw, 4)
    parts = Aggregate(4)
    for lo in range(0, N, 5_001):
        parts.add(Aggregate.from_records(raw[lo : lo + 5_001], 4))
    assert parts == whole
    back = Aggregate.from_dict(json.loads(json.dumps(whole.to_dict())))
    assert back == whole and np.array_equal(back.turns_hist, whole.turns_hist)
    assert whole.wins.sum() + whole.truncated == whole.games == N
    assert whole.turns_hist.sum() == whole.completed
    assert whole.turns_sum == ref.loc[~ref["truncated"], "turns"].sum()


def test_aggregates_with_truncated_rounds_match_the_rows():
    df = unosim.simulate("official", 3_000, 4, "random", seed=2, house="max_turns=40")
    assert 0 < df["truncated"].sum() < len(df)
    agg = Aggregate.from_records(_records(df), 4)
    want, got = summary_table(df, 4), agg.summary_table()
    pd.testing.assert_frame_equal(got.pop("seats"), want.pop("seats"))
    for k in want:
        assert got[k] == pytest.approx(want[k], rel=1e-12), k


@pytest.mark.parametrize("n", [1, 2, 3, 10, 101, 4_000])
def test_histogram_quantiles_match_quantile_ci(n):
    rng = np.random.default_rng(n)
    x = rng.integers(0, 60, size=n)
    hist = np.bincount(x, minlength=TURNS_BINS + 1)
    for q in (0.1, 0.5, 0.9):
        assert hist_quantile_ci(hist, q) == pytest.approx(quantile_ci(x, q)), q


def test_histogram_overflow_is_reported_as_infinite():
    hist = np.zeros(11, dtype=np.int64)
    hist[3], hist[-1] = 2, 5  # two 3s, five values >= 10
    est, lo, hi = hist_quantile_ci(hist, 0.5)
    assert est == np.inf and hi == np.inf


def test_read_dataset_of_a_summary_only_run(serial_run, tmp_path):
    _run(tmp_path / "s", executor="serial", summary_only=True)
    with pytest.raises(ds.DatasetError, match="no rows"):
        ds.read_dataset(tmp_path / "s")
    assert ds.read_summary(tmp_path / "s") == serial_run[1].total
    with pytest.raises(ds.DatasetError, match="not a unosim dataset"):
        ds.read_dataset(tmp_path)


# ------------------------------------------------------------------------ memory


def peak_rss_mib(*args: str) -> float:
    """Peak resident memory (MiB) of ``unosim simulate ARGS`` run in a fresh process."""
    code = (
        "import resource, subprocess, sys\n"
        "r = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
        "assert r.returncode == 0, r.stderr\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", code, UNOSIM, "simulate", *args],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert r.returncode == 0, r.stderr
    return int(r.stdout.split()[-1]) / 1024


def test_memory_stays_flat_with_rows(tmp_path):
    small = peak_rss_mib("--games", "100000", "--out", str(tmp_path / "a"), "--no-progress")
    big = peak_rss_mib("--games", "1500000", "--out", str(tmp_path / "b"), "--no-progress")
    # all 1.5e6 rows at once would be ~250 MiB of records plus ~80 MiB of frame
    assert big - small < 120, (small, big)


@pytest.mark.slow
@pytest.mark.parametrize("mode", [["--summary-only"], []])
def test_memory_flat_from_1e5_to_1e7_games(mode, tmp_path):
    small = peak_rss_mib("--games", "100000", "--out", str(tmp_path / "a"), *mode)
    big = peak_rss_mib("--games", "10000000", "--out", str(tmp_path / "b"), *mode)
    print(f"peak RSS {mode}: 1e5 games {small:.0f} MiB, 1e7 games {big:.0f} MiB")
    assert big < 1024 and big - small < 120, (small, big)


# ------------------------------------------------------------------------ a real cluster


@pytest.mark.slow
def test_hand_started_scheduler_and_workers(serial_run, tmp_path):
    """`dask scheduler` and two `dask worker --nthreads 1` processes, as in docs/scale-out.md."""
    dask = str(Path(sys.executable).with_name("dask"))
    sched_file = tmp_path / "scheduler.json"
    env = dict(os.environ, NUMBA_NUM_THREADS="1")
    procs = [
        subprocess.Popen(
            [
                dask,
                "scheduler",
                "--scheduler-file",
                str(sched_file),
                "--host",
                "127.0.0.1",
                "--no-dashboard",
            ],
            stderr=subprocess.DEVNULL,
        )
    ]
    try:
        deadline = time.monotonic() + 60
        while not sched_file.exists():
            assert time.monotonic() < deadline
            time.sleep(0.1)
        address = json.loads(sched_file.read_text())["address"]
        for _ in range(2):
            procs.append(
                subprocess.Popen(
                    [dask, "worker", address, "--nthreads", "1", "--no-dashboard"],
                    env=env,
                    stderr=subprocess.DEVNULL,
                )
            )
        r = _cli(
            *_with(CLI_ARGS, []),
            "--chunk-games",
            5_000,
            "--scheduler",
            address,
            "--out",
            tmp_path / "run",
        )
        assert r.exit_code == 0, r.output
        assert ds.read_summary(tmp_path / "run") == serial_run[1].total
    finally:
        for p in reversed(procs):
            p.terminate()
            p.wait(timeout=60)
