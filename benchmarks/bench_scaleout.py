"""Games per second of whole chunked runs (``unosim.run``), executor by executor.

Unlike ``bench.py``, which times the kernel alone, this times what a study pays: chunks,
blocks, aggregation and, with rows, Parquet parts. Local cluster start-up (and each
worker's first import of unosim) is left out.

    .venv/bin/python benchmarks/bench_scaleout.py [--games 4000000]
"""

from __future__ import annotations

import argparse
import os
import tempfile


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=4_000_000)
    ap.add_argument("--chunk-games", type=int, default=1 << 20)
    args = ap.parse_args()

    import numba

    import unosim

    cores = numba.config.NUMBA_NUM_THREADS
    kw = dict(rules="official", n_games=args.games, seed=12345, chunk_games=args.chunk_games)
    unosim.run(**{**kw, "n_games": 1000})  # compile / load the kernels
    print(
        f"unosim.run, official, 4 random players, {args.games:,} games, "
        f"chunks of {args.chunk_games:,}, {os.cpu_count()} cores"
    )
    from distributed import Client

    from unosim.sim.runner import local_cluster

    cluster = local_cluster(cores)
    client = Client(cluster)
    client.run(unosim.run, n_games=1000, executor="serial")  # workers import and load
    dask = dict(executor="dask", client=client)
    rows = []
    base = unosim.run(**kw, executor="serial", summary_only=True)
    rows.append(("serial, summary-only", base))
    rows.append(
        (
            f"threads ({cores}), summary-only",
            unosim.run(**kw, executor="threads", summary_only=True),
        )
    )
    rows.append(
        (
            f"dask LocalCluster ({cores} workers), summary-only",
            unosim.run(**kw, **dask, summary_only=True),
        )
    )
    with tempfile.TemporaryDirectory() as d:
        rows.append(
            ("serial, rows to Parquet parts", unosim.run(**kw, executor="serial", out=f"{d}/s"))
        )
        rows.append(
            (
                f"threads ({cores}), rows to Parquet parts",
                unosim.run(**kw, executor="threads", out=f"{d}/t"),
            )
        )
        rows.append(
            (
                f"dask LocalCluster ({cores} workers), rows to Parquet parts",
                unosim.run(**kw, **dask, out=f"{d}/d"),
            )
        )
    client.close()
    cluster.close()
    for name, res in rows:
        assert res.total == base.total  # same games, same aggregates
        gps = res.total.games / res.seconds
        print(
            f"  {name:54s} {gps:10,.0f} games/s  "
            f"({gps * base.seconds / base.total.games:.2f}x serial)"
        )


if __name__ == "__main__":
    main()
