"""Every chunk of a dataset folder proves it belongs to its run.

A part and summary from another seed or rule set, a part copied over another chunk, an
edited manifest or summary, a flipped bit, stray files: each is named (readers refuse
it, ``--resume`` computes it again) and never silently used. The runs are small (3
chunks of 500 games), so the file takes seconds once the kernel is compiled.
"""

from __future__ import annotations

import json
import shutil
import warnings

import pandas as pd
import pytest
from typer.testing import CliRunner

import unosim
from unosim.cli.app import app
from unosim.sim import dataset as ds

runner = CliRunner()
GAMES, CHUNK = 1500, 500
SEED = 2


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def one_line_error(r, *words: str) -> str:
    assert r.exit_code == 2, (r.exit_code, r.output, r.exception)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    err = r.stderr
    assert err.startswith("unosim: error: ") and err.count("\n") == 1, err
    for w in words:
        assert w in err, (w, err)
    return err


def _make(root, seed=SEED, rules="official", summary_only=False):
    unosim.run(
        rules,
        GAMES,
        4,
        "random",
        seed=seed,
        out=root,
        chunk_games=CHUNK,
        executor="serial",
        summary_only=summary_only,
    )
    return root


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("runs")
    made = {
        name: _make(base / name, **kw)
        for name, kw in {
            "this": {},
            "seed3": {"seed": 3},
            "stacking": {"rules": "stacking"},
            "this_s": {"summary_only": True},
            "seed3_s": {"seed": 3, "summary_only": True},
        }.items()
    }
    want = ds.read_dataset(made["this"])
    return made, want, ds.read_summary(made["this"])


@pytest.fixture
def folder(runs, tmp_path):
    """A fresh copy of the run under test, and a function to copy others' files in."""
    made, _, _ = runs

    def copy(name="this"):
        dst = tmp_path / name
        shutil.copytree(made[name], dst)
        return dst

    return copy


def _resume(root, *extra):
    return invoke(
        "simulate",
        "--games",
        GAMES,
        "--seed",
        SEED,
        "--executor",
        "serial",
        "--out",
        root,
        "--resume",
        "--no-progress",
        *extra,
    )


def _readers_refuse(root, *words, summary_only=False):
    """read_dataset, read_summary and replay --from each name the file."""
    readers = [ds.read_summary] + ([] if summary_only else [ds.read_dataset])
    for read in readers:
        for incomplete in (False, True):
            with pytest.raises(ds.DatasetError) as e:
                read(root, allow_incomplete=incomplete)
            for w in words:
                assert w in str(e.value), (read.__name__, str(e.value))
            assert "\n" not in str(e.value)
    if not summary_only:
        one_line_error(invoke("replay", "--from", root), *words)


def _resume_recomputes(root, runs, *named, summary_only=False):
    _, want, total = runs
    r = _resume(root, *(["--summary-only"] if summary_only else []))
    assert r.exit_code == 0, r.output
    for w in named:
        assert w in r.stderr, (w, r.stderr)
    assert "2 of 3 chunks already" in r.stderr and "(500 run now)" in r.stdout, r.output
    assert ds.read_summary(root) == total
    if not summary_only:
        pd.testing.assert_frame_equal(ds.read_dataset(root), want)
    assert not list(root.glob(".*"))


def _copy_chunk(src, dst, first, to=None, part=True, summary=True):
    to = first if to is None else to
    if part:
        shutil.copyfile(ds.part_path(src, first), ds.part_path(dst, to))
    if summary:
        shutil.copyfile(ds.summary_path(src, first), ds.summary_path(dst, to))


P1, S1 = "part-000000000500.parquet", "_summary-000000000500.json"


# ------------------------------------------------------------------ another run's chunk
@pytest.mark.parametrize("other,words", [("seed3", "seed 3, the run's 2"), ("stacking", "rules ")])
def test_a_chunk_of_another_run_is_named_and_recomputed(runs, folder, other, words):
    root, src = folder(), runs[0][other]
    _copy_chunk(src, root, CHUNK)
    _readers_refuse(root, S1, "from another run", words)
    _resume_recomputes(root, runs, S1, words)


@pytest.mark.parametrize("other", ["seed3", "stacking"])
def test_a_part_of_another_run_alone_is_named(runs, folder, other):
    root, src = folder(), runs[0][other]
    _copy_chunk(src, root, CHUNK, summary=False)
    _readers_refuse(root, P1, "from another run")
    _resume_recomputes(root, runs, P1)


def test_summary_only_chunk_of_another_seed(runs, folder):
    root = folder("this_s")
    _copy_chunk(runs[0]["seed3_s"], root, CHUNK, part=False)
    _readers_refuse(root, S1, "seed 3, the run's 2", summary_only=True)
    _resume_recomputes(root, runs, S1, summary_only=True)


def test_every_chunk_of_another_run_refuses_the_manifest(runs, folder):
    """All chunks from seed 3 under seed 2's manifest: the folder is refused, nothing is
    overwritten."""
    root = folder()
    for f in range(0, GAMES, CHUNK):
        _copy_chunk(runs[0]["seed3"], root, f)
    before = {p.name: p.read_bytes() for p in root.iterdir()}
    _readers_refuse(root, "_manifest.json disagrees with every chunk", "seed 3")
    one_line_error(_resume(root), "disagrees with every chunk", "new folder")
    assert {p.name: p.read_bytes() for p in root.iterdir()} == before


# ------------------------------------------------------------------ duplicated chunk
@pytest.mark.parametrize("with_summary", [False, True])
def test_a_chunk_copied_over_another_is_named(runs, folder, with_summary):
    root = folder()
    _copy_chunk(root, root, 0, to=CHUNK, summary=with_summary)
    name = S1 if with_summary else P1
    _readers_refuse(root, name, "games 0..499, not 500..999")
    _resume_recomputes(root, runs, name)


# ------------------------------------------------------------------ edited files
def _edit_json(path, **changes):
    d = json.loads(path.read_text())
    d.update(changes)
    path.write_text(json.dumps(d))
    return d


@pytest.mark.parametrize(
    "change", [{"seed": 3}, {"rules_name": "stacking"}, {"strategies": ["heuristic"] * 4}]
)
def test_an_edited_manifest_is_refused(runs, folder, change):
    root = folder()
    _edit_json(root / ds.MANIFEST, **change)
    before = {p.name: p.read_bytes() for p in root.iterdir()}
    _readers_refuse(root, "_manifest.json was edited or damaged")
    seed = change.get("seed", SEED)
    err = one_line_error(
        invoke("simulate", "--games", GAMES, "--seed", seed, "--out", root, "--resume"),
        "_manifest.json was edited",
    )
    assert "Traceback" not in err
    assert {p.name: p.read_bytes() for p in root.iterdir()} == before


def test_a_manifest_of_another_run_with_a_good_checksum_is_refused(runs, folder):
    """Another run's manifest (its checksum good) over this run's chunks."""
    root = folder()
    shutil.copyfile(runs[0]["seed3"] / ds.MANIFEST, root / ds.MANIFEST)
    _readers_refuse(root, "disagrees with every chunk")
    one_line_error(
        invoke("simulate", "--games", GAMES, "--seed", 3, "--out", root, "--resume"),
        "disagrees with every chunk",
    )


@pytest.mark.parametrize("summary_only", [False, True])
def test_an_edited_summary_is_named_and_recomputed(runs, folder, summary_only):
    root = folder("this_s" if summary_only else "this")
    d = json.loads(ds.summary_path(root, CHUNK).read_text())
    d["wins"][0] += 100
    d["wins"][1] -= 100
    ds.summary_path(root, CHUNK).write_text(json.dumps(d))
    _readers_refuse(root, S1, "edited or damaged", summary_only=summary_only)
    _resume_recomputes(root, runs, S1, summary_only=summary_only)


# ------------------------------------------------------------------ flipped bits
@pytest.mark.parametrize("where", [0.1, 0.5, 0.9, -30])
def test_a_flipped_bit_in_a_part_is_named_and_recomputed(runs, folder, where):
    root = folder()
    p = ds.part_path(root, CHUNK)
    data = bytearray(p.read_bytes())
    i = int(len(data) * where) if where > 0 else len(data) + where
    data[i] ^= 0x10
    p.write_bytes(bytes(data))
    with pytest.raises(ds.DatasetError, match=P1):
        ds.read_dataset(root)
    one_line_error(invoke("replay", "--from", root, "--where", "game == 700"), P1)
    _resume_recomputes(root, runs, P1)


def test_a_flipped_bit_in_a_single_results_file_is_refused(tmp_path):
    """A single file has no summary; its pages' checksums catch a flipped data bit."""
    out = tmp_path / "r.parquet"
    r = invoke("simulate", "--games", 2000, "--threads", 1, "--out", out, "--no-progress")
    assert r.exit_code == 0, r.output
    data = bytearray(out.read_bytes())
    data[200] ^= 0x01  # inside the first column's data page
    out.write_bytes(bytes(data))
    one_line_error(invoke("replay", "--from", out), "cannot read it")


# ------------------------------------------------------------------ stray files
def test_stray_files_are_named_and_never_read(runs, folder):
    _, want, total = runs
    root = folder()
    shutil.copyfile(ds.part_path(runs[0]["seed3"], 0), root / "extra.parquet")
    shutil.copyfile(ds.part_path(root, 0), root / "part-000000000250.parquet")
    (root / "notes").mkdir()
    (root / "_mine.txt").write_text("underscore names are skipped by every reader")
    with pytest.warns(ds.DatasetWarning, match="3 file") as rec:
        got = ds.read_dataset(root)
    msg = str(rec[0].message)
    assert "extra.parquet" in msg and "part-000000000250.parquet" in msg and "notes/" in msg
    assert "pandas.read_parquet" in msg and "_mine.txt" not in msg
    pd.testing.assert_frame_equal(got, want)
    with pytest.warns(ds.DatasetWarning):
        assert ds.read_summary(root) == total
    r = invoke("replay", "--from", root, "--where", "game == 3")
    assert r.exit_code == 0, r.output
    assert r.stderr.startswith("unosim: note: ") and "extra.parquet" in r.stderr
    r = _resume(root)
    assert r.exit_code == 0 and "unosim: note: " in r.stderr and "extra.parquet" in r.stderr
    assert (root / "extra.parquet").exists()  # named, not deleted: not unosim's to remove


def test_a_clean_folder_reads_without_a_warning(runs):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ds.read_dataset(runs[0]["this"])
        ds.read_summary(runs[0]["this_s"])


# ------------------------------------------------------------------ older datasets
def _as_format_2(root):
    """The folder as unosim wrote it before chunks carried identities and checksums."""
    m = json.loads((root / ds.MANIFEST).read_text())
    m.pop("checksum")
    m["dataset_format"] = 2
    (root / ds.MANIFEST).write_text(json.dumps(m))
    for s in root.glob("_summary-*.json"):
        d = json.loads(s.read_text())
        old = {
            k: v
            for k, v in d.items()
            if k not in ("checksum", "chunk", "part_sha256", "rules_name")
        }
        s.write_text(json.dumps(old))


def test_a_format_2_folder_is_still_read_and_not_resumed(runs, folder):
    _, want, total = runs
    root = folder()
    _as_format_2(root)
    pd.testing.assert_frame_equal(ds.read_dataset(root), want)
    assert ds.read_summary(root) == total
    one_line_error(_resume(root), "older unosim", "dataset format 2")
    _copy_chunk(runs[0]["seed3"], root, CHUNK, summary=False)  # its parts still check
    _readers_refuse(root, P1, "seed 3, the run's 2")


def test_replay_from_a_folder_reads_it_part_by_part(runs, monkeypatch):
    """``replay --from DIR`` matches part by part (never the whole folder in memory) and
    counts the matches of every part."""
    from unosim.sim import replay as R

    _, want, _ = runs
    monkeypatch.setattr(ds, "read_dataset", lambda *a, **k: pytest.fail("read whole"))
    reps, matched, taken = R.replays_from(runs[0]["this"], "game % 499 == 1", limit=3)
    assert matched == int((want["game"] % 499 == 1).sum()) == 4 and taken == 3
    assert [rp.game for rp in reps] == [1, 500, 999]
