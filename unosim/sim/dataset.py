"""A run on disk: a folder of chunk files with the run's manifest beside them.

Layout of ``DIR`` (every file flushed to disk under a temporary name, then renamed)::

    _manifest.json                    the run: Job.manifest() + chunk_games, summary_only
    part-<first_game:012d>.parquet    the rows of games first_game .. (not in summary-only
                                      runs), its own manifest in the key-value metadata
    _summary-<first_game:012d>.json   the chunk's Aggregate (unosim.sim.summary), written
                                      last: a chunk is done when its summary exists

Only the parts are data: the other names start with ``_`` (temporary files with ``.``),
which pyarrow and pandas skip, so ``pandas.read_parquet(DIR)``,
``pyarrow.dataset.dataset(DIR)`` and DuckDB's ``FROM 'DIR/*.parquet'`` read every row
and nothing else, without unosim.

Chunks are keyed by their first game index, so a chunk's content never depends on how
the rest of the run was split, and a resumed run only computes the missing ones. A
finished chunk is checked before it counts (its part's Parquet footer and row count, its
summary's JSON), so a file cut short by a crash is computed again.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np
import pandas as pd

from ..kernel import behaviour_mismatch
from ..kernel import layout as L
from .results import MANIFEST_KEY, atomic_path, publish, rounds_frame
from .summary import Aggregate

MANIFEST = "_manifest.json"
OLD_MANIFEST = "manifest.json"  # dataset format 1
DATASET_FORMAT = 2
_PART = re.compile(r"^part-(\d{12})\.parquet$")
_SUMMARY = re.compile(r"^_summary-(\d{12})\.json$")
# manifest fields a resumed run must agree on, with how to name them in an error
IDENTITY = {
    "rules_hash": "rules", "seed": "seed", "strategies": "strategies",
    "players": "players", "games": "games", "first_game": "first game",
    "rng": "RNG version", "chunk_games": "chunk size (--chunk-games)",
    "summary_only": "--summary-only",
}


class DatasetError(ValueError):
    """A dataset folder that cannot be used as asked; the message says why."""


def part_path(root: Path, first: int) -> Path:
    return root / f"part-{first:012d}.parquet"


def summary_path(root: Path, first: int) -> Path:
    return root / f"_summary-{first:012d}.json"


class Chunks:
    """``(first, count)`` of the chunks of a run in game order, made on demand (a run
    of any size holds no list of them), less those whose first game is in ``skip``."""

    def __init__(self, first_game: int, n_games: int, chunk_games: int,
                 skip: Iterable[int] = ()):
        self.first, self.end, self.size = first_game, first_game + n_games, chunk_games
        self.skip = frozenset(skip)
        self.total = -(-n_games // chunk_games)

    def __len__(self) -> int:
        return self.total - len(self.skip)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        for f in range(self.first, self.end, self.size):
            if f not in self.skip:
                yield f, min(self.size, self.end - f)

    def is_first(self, f: int) -> bool:
        """Is ``f`` the first game of one of the run's chunks?"""
        return self.first <= f < self.end and (f - self.first) % self.size == 0

    def count(self, f: int) -> int:
        return min(self.size, self.end - f)

    @property
    def games(self) -> int:
        return self.end - self.first - sum(self.count(f) for f in self.skip)

    def without(self, done: Iterable[int]) -> "Chunks":
        return Chunks(self.first, self.end - self.first, self.size, self.skip | set(done))


def chunks(first_game: int, n_games: int, chunk_games: int) -> Chunks:
    """Every chunk of a run, ``(first, count)``, in game order."""
    return Chunks(first_game, n_games, chunk_games)


def dataset_manifest(job_manifest: dict, chunk_games: int, summary_only: bool) -> dict:
    """The folder's manifest: the job's plus how it is split and what is kept."""
    return {**job_manifest, "dataset_format": DATASET_FORMAT,
            "chunk_games": int(chunk_games), "summary_only": bool(summary_only)}


def _write_text(final: Path, text: str) -> None:
    tmp = atomic_path(final)
    try:
        tmp.write_text(text)
        publish(tmp, final)
    finally:
        if tmp.exists():
            tmp.unlink()


def read_dataset_manifest(root: str | Path) -> dict:
    path = Path(root) / MANIFEST
    try:
        m = json.loads(path.read_text())
    except FileNotFoundError:
        if (Path(root) / OLD_MANIFEST).exists():
            raise DatasetError(
                f"{root} was written by an older unosim (manifest.json, summary-*.json): "
                f"rename manifest.json to {MANIFEST} and each summary-*.json to "
                "_summary-*.json to use it") from None
        raise DatasetError(f"{root} is not a unosim dataset (no {MANIFEST})") from None
    except (OSError, ValueError) as e:
        raise DatasetError(f"{path}: not a readable manifest ({_first_line(e)})") from None
    if not isinstance(m, dict) or not all(k in m for k in IDENTITY):
        raise DatasetError(f"{path}: not a unosim dataset manifest")
    return m


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else e.__class__.__name__


def _describe(key: str, value) -> str:
    if key == "strategies" and isinstance(value, list):
        return ",".join(value)
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def mismatches(old: dict, new: dict) -> list[str]:
    """What differs between a folder's manifest and a new run, one phrase each."""
    out = []
    for key, name in IDENTITY.items():
        if old.get(key) != new.get(key):
            if key == "rules_hash":
                out.append(f"rules {old.get('rules_name')} ({old.get(key)}) here, "
                           f"{new.get('rules_name')} ({new.get(key)}) now")
            else:
                out.append(f"{name} {_describe(key, old.get(key))} here, "
                           f"{_describe(key, new.get(key))} now")
    return out


def open_dataset(root: str | Path, manifest: dict, resume: bool,
                 damaged: list | None = None) -> set[int] | None:
    """Check ``root`` for a run; return the first games of the chunks already done, or
    None for a new run (then :func:`create_dataset` makes the folder when the run
    starts: nothing is written before).

    A new run needs a missing or empty folder. ``resume`` continues the run recorded in
    the folder's manifest and refuses one whose rules, seed, strategies or split differ
    (:class:`DatasetError`); leftover temporary files of an interrupted run are removed;
    ``damaged`` collects the names of finished-looking files that fail their check.
    """
    root = Path(root)
    if root.exists() and not root.is_dir():
        raise DatasetError(f"--out {root} is a file, not a dataset folder")
    has_manifest = (root / MANIFEST).exists() or (root / OLD_MANIFEST).exists()
    if not resume:
        if root.exists() and any(root.iterdir()):
            raise DatasetError(f"--out {root} already exists and is not empty; use "
                               "--resume to continue the run in it, or choose another "
                               "folder")
    elif not has_manifest and root.exists() and any(
            _PART.match(p.name) or _SUMMARY.match(p.name) for p in root.iterdir()):
        raise DatasetError(f"--resume: {root} holds chunks but no {MANIFEST}")
    if has_manifest:
        old = read_dataset_manifest(root)
        why = behaviour_mismatch(old)
        if why:
            raise DatasetError(f"--resume: {root} was {why}")
        diff = mismatches(old, manifest)
        if diff:
            raise DatasetError(f"--resume: {root} was made by another run: "
                               + "; ".join(diff))
        remove_temporaries(root)
        return done_chunks(root, old, damaged)
    return None


def create_dataset(root: Path, manifest: dict) -> None:
    """Make the folder of a new run and write its manifest."""
    root.mkdir(parents=True, exist_ok=True)
    _write_text(root / MANIFEST, json.dumps(manifest, indent=1, sort_keys=True) + "\n")


def remove_temporaries(root: Path) -> None:
    """Delete the temporary files an interrupted writer left (``.NAME.*.tmp``)."""
    for p in root.glob(".*.tmp"):
        try:
            p.unlink()
        except FileNotFoundError:
            pass


def _chunk_problem(root: Path, f: int, count: int, summary_only: bool) -> str | None:
    """Why chunk ``f``'s files are not a finished chunk of ``count`` games, or None."""
    import pyarrow.parquet as pq

    s = summary_path(root, f)
    try:
        body = json.loads(s.read_text())
        agg = Aggregate.from_dict(body)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        return f"{s.name}: not a readable summary ({_first_line(e)})"
    if agg.games != count:
        return f"{s.name}: {agg.games} games, the chunk has {count}"
    if summary_only:
        return None
    p = part_path(root, f)
    try:
        rows = pq.read_metadata(p).num_rows
    except (OSError, ValueError) as e:  # pyarrow: ArrowInvalid is a ValueError
        return f"{p.name}: not a readable Parquet file ({_first_line(e)})"
    if rows != count:
        return f"{p.name}: {rows} rows, the chunk has {count}"
    return None


def done_chunks(root: Path, manifest: dict, damaged: list | None = None) -> set[int]:
    """First games of the chunks whose files are complete (checked: see the module
    docstring); the problems of the others that have a summary go to ``damaged``."""
    all_chunks = chunks(manifest["first_game"], manifest["games"], manifest["chunk_games"])
    done = set()
    for p in root.iterdir():
        m = _SUMMARY.match(p.name)
        if m is None or not all_chunks.is_first(int(m.group(1))):
            continue
        f = int(m.group(1))
        problem = _chunk_problem(root, f, all_chunks.count(f), manifest["summary_only"])
        if problem is None:
            done.add(f)
        elif damaged is not None:
            damaged.append(problem)
    return done


# -------------------------------------------------------------------- writing chunks


class PartWriter:
    """Rows of consecutive blocks into one Parquet file, renamed into place on close.

    The manifest is in the file's key-value metadata (as ``results.write_parquet``
    writes it), so ``results.read_results`` reads a part or a single-file run alike.
    """

    def __init__(self, final: Path, manifest: dict):
        self.final = Path(final)
        self.manifest = manifest
        self.tmp = atomic_path(self.final)
        self.writer = None

    def write(self, df: pd.DataFrame) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.Table.from_pandas(df, preserve_index=False)
        if self.writer is None:
            meta = dict(table.schema.metadata or {})
            meta[MANIFEST_KEY] = json.dumps(self.manifest, sort_keys=True).encode()
            self.schema = table.schema.with_metadata(meta)
            self.writer = pq.ParquetWriter(self.tmp, self.schema, compression="zstd")
        self.writer.write_table(table.cast(self.schema))

    def close(self) -> Path:
        """Finish the file and rename it to its final name."""
        if self.writer is None:
            raise ValueError("no rows written")
        self.writer.close()
        publish(self.tmp, self.final)
        return self.final

    def abort(self) -> None:
        if self.writer is not None:
            self.writer.close()
        if self.tmp.exists():
            self.tmp.unlink()

    def __enter__(self) -> "PartWriter":
        return self

    def __exit__(self, exc_type, *exc) -> None:
        if exc_type is None:
            self.close()
        else:
            self.abort()


def write_summary(root: Path, first: int, count: int, agg: Aggregate) -> Path:
    """The chunk's aggregate as ``_summary-<first>.json``: the chunk's completion mark."""
    final = summary_path(root, first)
    body = {"first_game": first, "games": count, **agg.to_dict()}
    _write_text(final, json.dumps(body, separators=(",", ":")) + "\n")
    return final


def read_chunk_summary(root: Path, first: int) -> Aggregate:
    return Aggregate.from_dict(json.loads(summary_path(root, first).read_text()))


# -------------------------------------------------------------------- reading back


def _check_complete(root: Path, manifest: dict, allow_incomplete: bool) -> list[int]:
    firsts = [f for f, _ in chunks(manifest["first_game"], manifest["games"],
                                   manifest["chunk_games"])]
    done = done_chunks(root, manifest)
    missing = [f for f in firsts if f not in done]
    if missing and not allow_incomplete:
        raise DatasetError(f"{root} is incomplete: {len(missing)} of {len(firsts)} chunks "
                           "missing (finish it with --resume, or pass allow_incomplete)")
    return [f for f in firsts if f in done]


def read_summary(root: str | Path, allow_incomplete: bool = False) -> Aggregate:
    """The merged :class:`~unosim.sim.summary.Aggregate` of a dataset folder (any mode).

    ``allow_incomplete`` merges only the finished chunks of an interrupted run.
    """
    root = Path(root)
    manifest = read_dataset_manifest(root)
    total = Aggregate(manifest["players"])
    for f in _check_complete(root, manifest, allow_incomplete):
        total.add(read_chunk_summary(root, f))
    return total


def iter_dataset(root: str | Path, columns: Iterable[str] | None = None,
                 allow_incomplete: bool = False) -> Iterator[pd.DataFrame]:
    """The rows of a dataset folder one part at a time, in game order (flat memory)."""
    root = Path(root)
    manifest = read_dataset_manifest(root)
    if manifest["summary_only"]:
        raise DatasetError(f"{root} was run with --summary-only: it has no rows "
                           "(read its aggregates with read_summary)")
    for f in _check_complete(root, manifest, allow_incomplete):
        yield pd.read_parquet(part_path(root, f),
                              columns=list(columns) if columns is not None else None)


def read_dataset(root: str | Path, columns: Iterable[str] | None = None,
                 allow_incomplete: bool = False) -> pd.DataFrame:
    """A dataset folder's rows as one DataFrame, its manifest in ``df.attrs['manifest']``.

    Parameters
    ----------
    root : the folder ``unosim simulate --out DIR`` (or :func:`unosim.run`) wrote.
    columns : only these columns (default: all).
    allow_incomplete : read the finished chunks of an interrupted run instead of
        raising :class:`DatasetError`.

    Returns
    -------
    pandas.DataFrame, one row per game in game order, the columns and dtypes of
    :func:`unosim.simulate`.
    """
    frames = list(iter_dataset(root, columns, allow_incomplete))
    manifest = read_dataset_manifest(root)
    if not frames:
        df = rounds_frame(np.zeros((0, L.N_COLS), dtype=np.int32), manifest["players"], 0)
        df = df[list(columns)] if columns is not None else df
    else:
        df = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    df.attrs["manifest"] = manifest
    return df
