"""Chunked, streaming runs on one of three executors.

A run is split into chunks of games keyed by their first game index. Each chunk is
played in blocks of at most ``block`` games (the kernel's raw records of one block are
the only large array alive), reduced to an exact :class:`~unosim.sim.summary.Aggregate`,
and, for a dataset folder, written as one Parquet part (``unosim.sim.dataset``). Since a
game depends only on (seed, game index), the rows and the aggregates are the same for
any executor, number of workers or threads, chunk or block size.

Executors
---------
``serial``
    This process, one numba thread.
``threads``
    This process, ``threads`` numba threads (default: every core) sharing each block.
``dask``
    One Dask task per chunk. ``scheduler="tcp://HOST:PORT"`` uses a running cluster
    (``dask scheduler`` plus ``dask worker ... --nthreads 1`` with
    ``NUMBA_NUM_THREADS=1``); without it a ``LocalCluster`` of ``threads`` one-thread
    worker processes is started on this machine. Workers write their own chunk files
    (``out`` must be on a filesystem every worker sees) and send back only the
    chunk's aggregate. A worker that dies mid-run has its chunks recomputed elsewhere.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np

from . import dataset as ds
from .interrupt import kernel_call
from .results import check_path_name, probe_writable, remove_stale, rounds_frame
from .simulate import MAX_BLOCK, Job, check_progress, make_job, run_block, thread_count
from .summary import Aggregate

EXECUTORS = ("serial", "threads", "dask")
BLOCK = 1 << 18  # games per kernel call: ~45 MB of raw records, whatever the chunk
CHUNK_ROWS = 1 << 20  # default games per Parquet part
CHUNK_SUMMARY = 1 << 22  # default games per chunk with summary_only: few, small files
CONNECT_TIMEOUT = "10s"  # to reach a running Dask scheduler

# tasks of an in-process Dask cluster take turns through this lock: each already uses
# every core it is given (numba's workqueue layer also aborts if two Python threads
# launch parallel kernels at once, should a kernel use one again).
_KERNEL_LOCK = threading.Lock()


@dataclass
class RunResult:
    """What a run did.

    Attributes
    ----------
    manifest : the run's manifest (the dataset's ``_manifest.json`` for a folder).
    total : Aggregate of every game of the run (chunks found on disk included).
    computed : Aggregate of the games computed by this call.
    chunks, chunks_computed : chunks in the run, and chunks this call computed.
    seconds : wall time of the computing.
    out : the output folder or file, or None.
    """

    manifest: dict
    total: Aggregate
    computed: Aggregate
    chunks: int
    chunks_computed: int
    seconds: float
    out: Path | None


# ------------------------------------------------------------------------ one chunk


def compute_chunk(
    job: Job,
    first: int,
    count: int,
    block: int = BLOCK,
    writer: ds.PartWriter | None = None,
    on_block: Callable[[int], None] | None = None,
) -> Aggregate:
    """Play games ``first .. first + count - 1`` in blocks; rows go to ``writer``.

    Returns the chunk's :class:`Aggregate`. Memory is bounded by one block.
    """
    agg = Aggregate(job.n_players)
    end = first + count
    for b in range(first, end, block):
        n = min(block, end - b)
        with kernel_call():  # Ctrl-C or SIGTERM during the call: the interrupt itself
            raw = run_block(job, b, n)
        agg.add(Aggregate.from_records(raw, job.n_players))
        if writer is not None:
            writer.write(rounds_frame(raw, job.n_players, b))
        del raw
        if on_block is not None:
            on_block(n)
    return agg


def part_manifest(manifest: dict, first: int, count: int) -> dict:
    """A part's own manifest: the run's, for the games it holds (its identity)."""
    own = {k: v for k, v in manifest.items() if k != "checksum"}
    return {**own, "first_game": first, "games": count}


def write_chunk(
    job: Job,
    manifest: dict,
    root: Path | None,
    first: int,
    count: int,
    block: int = BLOCK,
    on_block: Callable[[int], None] | None = None,
) -> Aggregate:
    """Compute one chunk; with a folder ``root``, write its files (part, then summary)."""
    if root is None:
        return compute_chunk(job, first, count, block, None, on_block)
    sha = None
    if manifest["summary_only"]:
        agg = compute_chunk(job, first, count, block, None, on_block)
    else:
        with ds.PartWriter(ds.part_path(root, first), part_manifest(manifest, first, count)) as w:
            agg = compute_chunk(job, first, count, block, w, on_block)
        sha = w.sha256
    ds.write_summary(root, manifest, first, count, agg, sha)
    return agg


def dask_chunk(
    job: Job, manifest: dict, root: str | None, first: int, count: int, block: int
) -> dict:
    """A Dask task: one chunk on one numba thread; returns its aggregate as a small dict."""
    numba.set_num_threads(1)
    with _KERNEL_LOCK:
        agg = write_chunk(job, manifest, Path(root) if root else None, first, count, block)
    return agg.to_dict()


# ------------------------------------------------------------------------ executors


def _run_local(
    job, manifest, root, todo, block, threads, on_chunk, on_games, single: ds.PartWriter | None
):
    with thread_count(threads):
        for first, count in todo:
            if single is not None:
                agg = compute_chunk(job, first, count, block, single, on_games)
            else:
                agg = write_chunk(job, manifest, root, first, count, block, on_games)
            on_chunk(first, count, agg)


def local_cluster(workers: int | None = None, processes: bool = True):
    """A ``LocalCluster`` of ``workers`` (default: every core) one-thread workers."""
    from distributed import LocalCluster

    n = workers or numba.config.NUMBA_NUM_THREADS
    kw = {"env": {"NUMBA_NUM_THREADS": "1"}} if processes else {}
    # no dashboard; the scheduler's small HTTP server (health, metrics) on any free port
    return LocalCluster(
        n_workers=n,
        threads_per_worker=1,
        processes=processes,
        dashboard_address=None,
        scheduler_kwargs={"dashboard_address": ":0"},
        **kw,
    )


def _connect(scheduler: str | None, client, workers: int | None, processes: bool):
    """(client, things to close afterwards)."""
    from distributed import Client

    if client is not None:
        return client, []
    if scheduler is not None:
        try:
            c = Client(scheduler, timeout=CONNECT_TIMEOUT)
        except Exception as e:  # OSError, TimeoutError, or what distributed raises
            first = (str(e).strip().splitlines() or [e.__class__.__name__])[0]
            raise ConnectionError(
                f"cannot reach the Dask scheduler at {scheduler}: {first}"
            ) from None
        try:
            c.wait_for_workers(1, timeout=120)
        except TimeoutError:
            c.close()
            raise ConnectionError(
                f"the Dask scheduler at {scheduler} has no workers (start some with `dask worker`)"
            ) from None
        return c, [c]
    cluster = local_cluster(workers, processes)
    c = Client(cluster)
    return c, [c, cluster]


def _run_dask(
    job,
    manifest,
    root,
    todo,
    block,
    on_chunk,
    *,
    scheduler=None,
    client=None,
    workers=None,
    processes=True,
    on_connected=None,
):
    from distributed import as_completed

    c, to_close = _connect(scheduler, client, workers, processes)
    if on_connected is not None:
        on_connected()
    token = uuid.uuid4().hex[:8]
    futures = {}
    try:
        for first, count in todo:
            fut = c.submit(
                dask_chunk,
                job,
                manifest,
                str(root) if root else None,
                first,
                count,
                block,
                key=f"unosim-chunk-{first:012d}-{token}",
                pure=False,
            )
            futures[fut] = (first, count)
        for fut in as_completed(list(futures)):
            first, count = futures.pop(fut)
            agg = Aggregate.from_dict(fut.result())
            fut.release()
            if root is not None and not ds.summary_path(root, first).exists():
                raise ds.DatasetError(
                    f"a Dask worker wrote chunk {first} where this machine cannot see it: "
                    f"--out {root} must be on a filesystem shared by every worker"
                )
            on_chunk(first, count, agg)
    finally:
        for fut in futures:
            fut.cancel()
        for thing in to_close:
            thing.close()


# ------------------------------------------------------------------------ the run


def is_file_out(out: str | Path) -> bool:
    """``--out X.parquet`` (any case) is one file; anything else a dataset folder."""
    return Path(out).suffix.lower() == ".parquet"


def max_workers() -> int:
    """Local Dask workers this machine can run: one per core."""
    import os

    return max(1, os.cpu_count() or 1)


def check_scheduler(address: str) -> None:
    """``ValueError`` unless ``address`` reads as a Dask scheduler address."""
    from urllib.parse import urlsplit

    try:
        u = urlsplit(address)
        port = u.port
    except ValueError:
        port = None
        u = None
    why = {
        "tls": "a TLS scheduler needs certificates, which unosim does not take",
        "wss": "a TLS scheduler needs certificates, which unosim does not take",
        "inproc": "an inproc:// scheduler lives inside one process; unosim reaches "
        "schedulers over the network",
        "ws": "unosim reaches schedulers over TCP",
        "ucx": "unosim reaches schedulers over TCP",
    }.get(u.scheme if u is not None else "")
    if why:
        raise ValueError(f"--scheduler {address!r}: {why}; give tcp://HOST:PORT")
    if u is None or u.scheme != "tcp" or not u.hostname or port is None:
        raise ValueError(
            f"--scheduler {address!r} is not a scheduler address; give tcp://HOST:PORT"
        )


@dataclass
class Plan:
    """A validated run, its output opened: what :func:`execute` will compute."""

    job: Job
    manifest: dict
    root: Path | None  # dataset folder
    single: Path | None  # single Parquet file
    executor: str
    threads: int | None
    scheduler: str | None
    client: object
    processes: bool
    block: int
    chunks: ds.Chunks
    todo: ds.Chunks
    done: Aggregate  # the chunks found finished on disk
    new: bool = False  # the folder is created when the run starts
    damaged: tuple[str, ...] = ()  # finished-looking chunk files that failed their check
    strays: tuple[str, ...] = ()  # files in the folder that are not the run's

    @property
    def games_todo(self) -> int:
        return self.todo.games


def prepare(
    job: Job,
    out: str | Path | None = None,
    *,
    executor: str = "threads",
    threads: int | None = None,
    scheduler: str | None = None,
    client=None,
    processes: bool = True,
    chunk_games: int | None = None,
    block: int = BLOCK,
    summary_only: bool = False,
    resume: bool = False,
) -> Plan:
    """Check every option and open the output (``ValueError`` with a one-line message)."""
    if executor not in EXECUTORS:
        raise ValueError(f"executor must be one of {', '.join(EXECUTORS)}, got {executor!r}")
    if threads is not None and (
        isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 1
    ):
        raise ValueError(f"threads must be a whole number >= 1, got {threads!r}")
    threads = None if threads is None else int(threads)  # numpy scalars too
    if executor == "serial":
        if threads not in (None, 1):
            raise ValueError("the serial executor uses one thread; use --executor threads")
        threads = 1
    if (scheduler is not None or client is not None) and executor != "dask":
        raise ValueError("a Dask scheduler needs --executor dask")
    if (scheduler is not None or client is not None) and threads is not None:
        raise ValueError(
            "--threads sets the workers of a local cluster; a running "
            "scheduler's workers are started with `dask worker`"
        )
    if (
        isinstance(block, bool)
        or not isinstance(block, (int, np.integer))
        or not 1 <= block <= MAX_BLOCK
    ):
        raise ValueError(f"block must be a whole number from 1 to {MAX_BLOCK:,}, got {block!r}")
    block = int(block)
    if out is not None:
        check_path_name(out)  # before the path is looked at
    single = Path(out) if out is not None and is_file_out(out) else None
    if single is not None and (summary_only or resume or executor == "dask"):
        raise ValueError(
            "--out FILE.parquet is one file written by this process; use "
            "--out DIR (a dataset folder) with --summary-only, --resume or "
            "--executor dask"
        )
    root = Path(out).resolve() if out is not None and single is None else None
    if resume and root is None:
        raise ValueError("--resume needs --out DIR, the folder of the run to continue")

    if chunk_games is None and resume and root is not None and (root / ds.MANIFEST).exists():
        chunk_games = ds.read_dataset_manifest(root).get("chunk_games")
    if chunk_games is None:
        chunk_games = CHUNK_SUMMARY if summary_only else CHUNK_ROWS
    if (
        isinstance(chunk_games, bool)
        or not isinstance(chunk_games, (int, np.integer))
        or chunk_games < 1
    ):
        raise ValueError(f"chunk_games must be a whole number >= 1, got {chunk_games!r}")
    chunk_games = int(chunk_games)

    if executor == "dask" and scheduler is not None:
        check_scheduler(scheduler)
    if executor == "dask" and threads is not None and threads > max_workers():
        raise ValueError(
            f"--threads {threads}: this machine runs at most "
            f"{max_workers()} local Dask workers (its cores)"
        )
    manifest = ds.dataset_manifest(job.manifest(), chunk_games, summary_only)
    all_chunks = ds.chunks(job.first_game, job.n_games, chunk_games)
    done = Aggregate(job.n_players)
    finished: set[int] | None = None
    damaged: list[str] = []
    strays: tuple[str, ...] = ()
    if root is not None:
        try:
            finished = ds.open_dataset(root, manifest, resume, damaged)
            if finished is None:
                probe_writable(root)
        except OSError as e:
            raise ValueError(f"--out {out}: {e.strerror or e}") from None
        if finished is not None:
            manifest = ds.read_dataset_manifest(root)  # the folder's own
            for f in sorted(finished):
                done.add(ds.read_chunk_summary(root, f))
            strays = tuple(ds.strays(root, manifest))
    else:
        if single is not None:
            probe_writable(single)
            remove_stale(single)
        manifest = job.manifest()  # a single file's, or nothing written
    return Plan(
        job,
        manifest,
        root,
        single,
        executor,
        threads,
        scheduler,
        client,
        processes,
        block,
        all_chunks,
        all_chunks.without(finished or ()),
        done,
        new=root is not None and finished is None,
        damaged=tuple(damaged),
        strays=strays,
    )


def execute(plan: Plan, progress: Callable[[int], None] | None = None) -> RunResult:
    """Compute the plan's missing chunks; ``progress`` is called with games finished."""
    check_progress(progress)
    job, root = plan.job, plan.root
    computed = Aggregate(job.n_players)
    dask = plan.executor == "dask"

    def on_chunk(first: int, count: int, agg: Aggregate) -> None:
        if agg.games != count:
            raise RuntimeError(f"chunk {first} returned {agg.games} games, not {count}")
        computed.add(agg)
        if dask and progress is not None:
            progress(count)

    t0 = [time.perf_counter()]
    made_dir: Path | None = None  # the highest folder made by this call
    made_manifest = False  # the manifest written by this call

    def connected() -> None:  # the speed leaves out starting a local cluster
        nonlocal made_dir, made_manifest
        if plan.new and root is not None:  # nothing is written before the run can start
            made_dir = ds.first_missing(root)
            ds.create_dataset(root, plan.manifest)
            made_manifest = True
        t0[0] = time.perf_counter()

    try:
        if dask:
            if plan.todo:
                _run_dask(
                    job,
                    plan.manifest,
                    root,
                    plan.todo,
                    plan.block,
                    on_chunk,
                    scheduler=plan.scheduler,
                    client=plan.client,
                    workers=plan.threads,
                    processes=plan.processes,
                    on_connected=connected,
                )
        elif plan.single is not None:
            connected()
            with ds.PartWriter(plan.single, plan.manifest) as w:
                _run_local(
                    job,
                    plan.manifest,
                    None,
                    plan.todo,
                    plan.block,
                    plan.threads,
                    on_chunk,
                    progress,
                    w,
                )
        else:
            connected()
            _run_local(
                job,
                plan.manifest,
                root,
                plan.todo,
                plan.block,
                plan.threads,
                on_chunk,
                progress,
                None,
            )
    except BaseException:
        # a new run that fails or is stopped before any chunk is written (a full disk,
        # Ctrl-C) leaves no folder: only what this call created is removed
        if plan.new and root is not None and (made_dir is not None or made_manifest):
            ds.undo_create(root, made_dir)
        raise
    finally:
        # Also on Ctrl-C or SIGTERM: the signal can land between a temporary file's
        # creation and the ``with`` that would remove it, so sweep the folder here.
        if root is not None and root.is_dir():
            ds.remove_temporaries(root)
        elif plan.single is not None:
            remove_stale(plan.single)
    seconds = time.perf_counter() - t0[0]
    total = Aggregate(job.n_players).add(plan.done).add(computed)
    return RunResult(
        plan.manifest,
        total,
        computed,
        len(plan.chunks),
        len(plan.todo),
        seconds,
        root or plan.single,
    )


def run_job(
    job: Job,
    out: str | Path | None = None,
    *,
    progress: Callable[[int], None] | None = None,
    **options,
) -> RunResult:
    """Run ``job`` chunk by chunk; see :func:`run` for the options."""
    return execute(prepare(job, out, **options), progress)


def run(
    rules="official",
    n_games: int = 1000,
    n_players: int = 4,
    strategies: str | list[str] = "random",
    seed: int = 0,
    house: str | dict | None = None,
    out: str | Path | None = None,
    *,
    executor: str = "threads",
    threads: int | None = None,
    scheduler: str | None = None,
    client=None,
    processes: bool = True,
    chunk_games: int | None = None,
    block: int = BLOCK,
    summary_only: bool = False,
    resume: bool = False,
    progress: Callable[[int], None] | None = None,
) -> RunResult:
    """Simulate ``n_games`` rounds chunk by chunk, streaming them to ``out``.

    Parameters
    ----------
    rules, n_games, n_players, strategies, seed, house : as :func:`unosim.simulate`.
    out : a folder (a dataset: ``_manifest.json``, and ``part-<first_game>.parquet`` and
        ``_summary-<first_game>.json`` per chunk), a ``.parquet`` file (one file, local
        executors only), or None (aggregates only, nothing written).
    executor : ``"serial"``, ``"threads"`` (default) or ``"dask"``.
    threads : numba threads for ``threads`` (default: every core); the number of local
        workers for ``dask`` without ``scheduler``/``client``.
    scheduler : address ``tcp://HOST:PORT`` of a running Dask scheduler.
    client : a ``distributed.Client`` to use instead (it is not closed).
    processes : local Dask workers in processes (default) or threads of this process.
    chunk_games : games per chunk (default 2**20, or 2**22 with ``summary_only``);
        a resumed run keeps the folder's.
    block : games per kernel call inside a chunk; bounds memory, not results.
    summary_only : keep each chunk's aggregates, not its rows.
    resume : continue the run in ``out``, computing only its missing chunks; raises
        :class:`unosim.sim.dataset.DatasetError` if its rules, seed, strategies, players,
        games or split differ.
    progress : called with a number of games each time some finish.

    Returns
    -------
    RunResult : the run's manifest and exact aggregates; read the rows back with
    :func:`unosim.read_dataset` (folder) or :func:`unosim.sim.results.read_results` (file).
    """
    check_progress(progress)
    job = make_job(rules, n_games, n_players, strategies, seed, house)
    return run_job(
        job,
        out,
        executor=executor,
        threads=threads,
        scheduler=scheduler,
        client=client,
        processes=processes,
        chunk_games=chunk_games,
        block=block,
        summary_only=summary_only,
        resume=resume,
        progress=progress,
    )
