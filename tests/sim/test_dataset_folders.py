"""Dataset folders (unosim.sim.dataset): damaged parts, summaries and manifests are named
or computed again on resume, plain readers open the folder, an old layout is refused
with a way out."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from typer.testing import CliRunner

import unosim
from tests.cli_checks import invoke, one_line_error
from tests.cli_checks import write_file as _write
from unosim.sim import dataset as ds

runner = CliRunner()


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
