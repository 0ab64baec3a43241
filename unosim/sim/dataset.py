"""A run on disk: a folder of chunk files with the run's manifest beside them.

Layout of ``DIR`` (every file flushed to disk under a temporary name, then renamed)::

    _manifest.json                    the run: Job.manifest() + chunk_games, summary_only,
                                      sealed by a checksum of its content
    part-<first_game:012d>.parquet    the rows of games first_game .. (not in summary-only
                                      runs), its own manifest in the key-value metadata
    _summary-<first_game:012d>.json   the chunk's Aggregate (unosim.sim.summary) with the
                                      chunk's identity and its part's SHA-256, sealed by a
                                      checksum; written last: a chunk is done when its
                                      summary exists and checks

Only the parts are data: the other names start with ``_`` (temporary files with ``.``),
which pyarrow and pandas skip, so ``pandas.read_parquet(DIR)``,
``pyarrow.dataset.dataset(DIR)`` and DuckDB's ``FROM 'DIR/*.parquet'`` read every row
and nothing else, without unosim, as long as the folder holds only the run's files.

Chunks are keyed by their first game index, so a chunk's content never depends on how
the rest of the run was split, and a resumed run only computes the missing ones.

Every chunk proves it belongs to its run. Its identity is what determines its games
(rules hash, strategies, players, seed, RNG and kernel behaviour versions, first game
and count); the summary carries it and the part's own manifest too, the summary holds
the part file's SHA-256, and the summary and the manifest each hold a checksum of their
own content. A chunk counts as done only when all of these agree with the folder's
manifest, so a file cut short by a crash, copied from another run or another chunk,
edited, or with one flipped bit is named: ``--resume`` computes it again, readers refuse
it. A manifest that no chunk agrees with, or whose checksum fails, is refused. Files
that pandas would read but that are not the run's parts are named by every reader.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import warnings
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..kernel.core import layout as L
from ..versions import DATASET_FORMAT_VERSION, behaviour_mismatch
from .results import MANIFEST_KEY, atomic_path, publish, rounds_frame
from .summary import Aggregate

MANIFEST = "_manifest.json"
OLD_MANIFEST = "manifest.json"  # dataset format 1
MAX_JSON_BYTES = 8 << 20  # a manifest or summary is at most a few hundred kB
_PART = re.compile(r"^part-(\d{12})\.parquet$")
_SUMMARY = re.compile(r"^_summary-(\d{12})\.json$")
# manifest fields a resumed run must agree on, with how to name them in an error
IDENTITY = {
    "rules_hash": "rules",
    "seed": "seed",
    "strategies": "strategies",
    "players": "players",
    "games": "games",
    "first_game": "first game",
    "rng": "RNG version",
    "chunk_games": "chunk size (--chunk-games)",
    "summary_only": "--summary-only",
}


# what determines a chunk's games: the run's part of a chunk's identity
RUN_IDENTITY = ("rules_hash", "strategies", "players", "seed", "rng", "kernel_behaviour")


class DatasetError(ValueError):
    """A dataset folder that cannot be used as asked; the message says why."""


class DatasetWarning(UserWarning):
    """A dataset folder that reads correctly but holds files that are not the run's."""


def _canonical(d: dict) -> bytes:
    return json.dumps(
        {k: v for k, v in d.items() if k != "checksum"},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=True,
    ).encode()


def seal(d: dict) -> dict:
    """``d`` with ``checksum``: the SHA-256 of its other keys in canonical JSON."""
    return {**d, "checksum": "sha256:" + hashlib.sha256(_canonical(d)).hexdigest()}


def is_sealed(d: dict) -> bool:
    """Does ``d`` hold the checksum of its own content (see :func:`seal`)?"""
    return isinstance(d, dict) and d.get("checksum") == seal(d)["checksum"]


def chunk_identity(manifest: dict, first: int, count: int) -> dict:
    """What determines the games of chunk ``first`` (``count`` games) of a run."""
    return {
        **{k: manifest.get(k) for k in RUN_IDENTITY},
        "first_game": int(first),
        "games": int(count),
    }


def identity_diff(got: dict, want: dict, names: tuple = (None, None)) -> str | None:
    """How a file's chunk identity differs from the one its run expects, or None;
    ``names``: the file's and the run's rule-set names, to show beside their hashes."""
    out = []
    for key in RUN_IDENTITY:
        if key == "rules_hash" and got.get(key) != want.get(key):
            a, b = (
                f"{n} ({h})" if isinstance(n, str) else str(h)
                for n, h in zip(names, (got.get(key), want.get(key)))
            )
            out.append(f"rules {a}, the run's {b}")
        elif got.get(key) != want.get(key):
            name = {
                "rules_hash": "rules",
                "rng": "RNG",
                "kernel_behaviour": "kernel behaviour",
            }.get(key, key)
            out.append(
                f"{name} {_describe(key, got.get(key))}, the run's {_describe(key, want.get(key))}"
            )
    if (got.get("first_game"), got.get("games")) != (want["first_game"], want["games"]):
        out.append(f"games {_span(got)}, not {_span(want)}")
    return "; ".join(out) or None


def _span(ident: dict) -> str:
    f, n = ident.get("first_game"), ident.get("games")
    if isinstance(f, int) and isinstance(n, int):
        return f"{f:,}..{f + n - 1:,}"
    return "unknown"


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while b := f.read(1 << 20):
            h.update(b)
    return h.hexdigest()


def _read_json(path: Path):
    """A small JSON file (at most ``MAX_JSON_BYTES``; a regular file, opened without
    blocking)."""
    import stat

    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        raise ValueError("not a regular file")
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as f:
        data = f.read(MAX_JSON_BYTES + 1)
    if len(data) > MAX_JSON_BYTES:
        raise ValueError(f"over {MAX_JSON_BYTES:,} bytes")
    return json.loads(data)


def part_path(root: Path, first: int) -> Path:
    return root / f"part-{first:012d}.parquet"


def summary_path(root: Path, first: int) -> Path:
    return root / f"_summary-{first:012d}.json"


class Chunks:
    """``(first, count)`` of the chunks of a run in game order, made on demand (a run
    of any size holds no list of them), less those whose first game is in ``skip``."""

    def __init__(self, first_game: int, n_games: int, chunk_games: int, skip: Iterable[int] = ()):
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

    def without(self, done: Iterable[int]) -> Chunks:
        return Chunks(self.first, self.end - self.first, self.size, self.skip | set(done))


def chunks(first_game: int, n_games: int, chunk_games: int) -> Chunks:
    """Every chunk of a run, ``(first, count)``, in game order."""
    return Chunks(first_game, n_games, chunk_games)


def dataset_manifest(job_manifest: dict, chunk_games: int, summary_only: bool) -> dict:
    """The folder's manifest: the job's plus how it is split and what is kept."""
    m = {k: v for k, v in job_manifest.items() if k != "checksum"}
    return seal(
        {
            **m,
            "dataset_format": DATASET_FORMAT_VERSION,
            "chunk_games": int(chunk_games),
            "summary_only": bool(summary_only),
        }
    )


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
        m = _read_json(path)
    except FileNotFoundError:
        if (Path(root) / OLD_MANIFEST).exists():
            raise DatasetError(
                f"{root} was written by an older unosim (manifest.json, summary-*.json): "
                f"rename manifest.json to {MANIFEST} and each summary-*.json to "
                "_summary-*.json to use it"
            ) from None
        raise DatasetError(f"{root} is not a unosim dataset (no {MANIFEST})") from None
    except (OSError, ValueError) as e:
        raise DatasetError(f"{path}: not a readable manifest ({_first_line(e)})") from None
    if not isinstance(m, dict) or not all(k in m for k in IDENTITY):
        raise DatasetError(f"{path}: not a unosim dataset manifest")
    fmt = m.get("dataset_format", 2)
    if fmt not in (2, DATASET_FORMAT_VERSION):
        raise DatasetError(
            f"{path}: dataset format {fmt!r}; this unosim reads formats 2 and "
            f"{DATASET_FORMAT_VERSION}"
        )
    if fmt >= 3 and not is_sealed(m):
        raise DatasetError(
            f"{path} was edited or damaged: its checksum does not match "
            "its content (restore it, or run again into a new folder)"
        )
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
                out.append(
                    f"rules {old.get('rules_name')} ({old.get(key)}) here, "
                    f"{new.get('rules_name')} ({new.get(key)}) now"
                )
            else:
                out.append(
                    f"{name} {_describe(key, old.get(key))} here, "
                    f"{_describe(key, new.get(key))} now"
                )
    return out


def open_dataset(
    root: str | Path, manifest: dict, resume: bool, damaged: list | None = None
) -> set[int] | None:
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
            raise DatasetError(
                f"--out {root} already exists and is not empty; use "
                "--resume to continue the run in it, or choose another "
                "folder"
            )
    elif (
        not has_manifest
        and root.exists()
        and any(_PART.match(p.name) or _SUMMARY.match(p.name) for p in root.iterdir())
    ):
        raise DatasetError(f"--resume: {root} holds chunks but no {MANIFEST}")
    if has_manifest:
        old = read_dataset_manifest(root)
        if old.get("dataset_format", 2) < DATASET_FORMAT_VERSION:
            raise DatasetError(
                f"--resume: {root} was written by an older unosim (dataset format "
                f"{old.get('dataset_format', 2)}, chunks without checksums): read it as it "
                "is, or run it again into a new folder"
            )
        why = behaviour_mismatch(old)
        if why:
            raise DatasetError(f"--resume: {root} was {why}")
        diff = mismatches(old, manifest)
        if diff:
            raise DatasetError(f"--resume: {root} was made by another run: " + "; ".join(diff))
        remove_temporaries(root)
        return done_chunks(root, old, damaged)
    return None


def create_dataset(root: Path, manifest: dict) -> None:
    """Make the folder of a new run and write its manifest."""
    root.mkdir(parents=True, exist_ok=True)
    _write_text(root / MANIFEST, json.dumps(seal(manifest), indent=1, sort_keys=True) + "\n")


def first_missing(root: Path) -> Path | None:
    """The highest folder of ``root``'s path that does not exist yet, or None."""
    top = None
    p = root
    while not p.exists() and p != p.parent:
        top, p = p, p.parent
    return top


def undo_create(root: Path, made: Path | None) -> None:
    """Undo :func:`create_dataset` if no chunk file was written since: the manifest goes,
    and the folders from ``root`` up to ``made`` (the highest one the run created)."""
    try:
        remove_temporaries(root)
        names = {p.name for p in root.iterdir()}
        if not names <= {MANIFEST}:
            return
        if names:
            (root / MANIFEST).unlink()
        if made is None:
            return
        p = root
        while True:
            p.rmdir()  # only if empty
            if p == made:
                break
            p = p.parent
    except OSError:
        pass


def remove_temporaries(root: Path) -> None:
    """Delete the temporary files an interrupted writer left (``.NAME.*.tmp``)."""
    for p in root.glob(".*.tmp"):
        try:
            p.unlink()
        except FileNotFoundError:
            pass


def _part_problem(p: Path, want: dict, sha256: str | None, run_name=None) -> str | None:
    """Why the part ``p`` is not the chunk ``want`` (its identity), or None. With
    ``sha256`` (format 3) the file must also be the one its summary was written after."""
    import pyarrow.parquet as pq

    from .results import MANIFEST_KEY

    try:
        meta = pq.read_metadata(p)
    except FileNotFoundError:
        return f"{p.name}: missing, though its chunk's summary says it is done"
    except (OSError, ValueError) as e:  # pyarrow: ArrowInvalid is a ValueError
        return f"{p.name}: not a readable Parquet file ({_first_line(e)})"
    try:
        own = json.loads((meta.metadata or {})[MANIFEST_KEY])
        got = chunk_identity(own, own.get("first_game"), own.get("games"))
    except (KeyError, ValueError, TypeError, AttributeError):
        return f"{p.name}: has no readable unosim manifest"
    diff = identity_diff(got, want, (own.get("rules_name"), run_name))
    if diff:
        return f"{p.name}: from another run or chunk ({diff})"
    if meta.num_rows != want["games"]:
        return f"{p.name}: {meta.num_rows} rows, the chunk has {want['games']}"
    if sha256 is not None and file_sha256(p) != sha256:
        return (
            f"{p.name}: its content does not match the checksum in its summary "
            "(damaged, edited or replaced)"
        )
    return None


def check_chunk(root: Path, manifest: dict, f: int, count: int) -> tuple[str | None, bool]:
    """``(problem, foreign)``: why chunk ``f``'s files are not a finished chunk of this
    run (None if they are), and whether the problem is a summary of another run (its
    checksum good, its rules, strategies, players, seed or versions not the run's)."""
    s = summary_path(root, f)
    want = chunk_identity(manifest, f, count)
    try:
        body = _read_json(s)
        agg = Aggregate.from_dict(body)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        return f"{s.name}: not a readable summary ({_first_line(e)})", False
    sha = None
    if manifest.get("dataset_format", 2) >= 3:
        if not is_sealed(body):
            return (f"{s.name}: edited or damaged (its checksum does not match its content)"), False
        got = body.get("chunk")
        if not isinstance(got, dict):
            return f"{s.name}: has no chunk identity", False
        diff = identity_diff(got, want, (body.get("rules_name"), manifest.get("rules_name")))
        if diff:
            foreign = any(got.get(k) != want.get(k) for k in RUN_IDENTITY)
            return f"{s.name}: from another run or chunk ({diff})", foreign
        if not manifest["summary_only"]:
            sha = body.get("part_sha256")
            if not isinstance(sha, str):
                return f"{s.name}: has no checksum of its part", False
    if agg.games != count or agg.n_players != manifest["players"]:
        return (
            f"{s.name}: {agg.games} games of {agg.n_players} players, the chunk has "
            f"{count} of {manifest['players']}"
        ), False
    if manifest["summary_only"]:
        return None, False
    return _part_problem(part_path(root, f), want, sha, manifest.get("rules_name")), False


def done_chunks(root: Path, manifest: dict, damaged: list | None = None) -> set[int]:
    """First games of the chunks whose files check (see the module docstring); the
    problems of the others that have a summary go to ``damaged``.

    :class:`DatasetError` when the manifest disagrees with every chunk that has a
    summary of a run (its checksum good): the manifest or the chunks are another
    run's."""
    all_chunks = chunks(manifest["first_game"], manifest["games"], manifest["chunk_games"])
    done, foreign = set(), []
    for p in sorted(root.iterdir()):
        m = _SUMMARY.match(p.name)
        if m is None or not all_chunks.is_first(int(m.group(1))):
            continue
        f = int(m.group(1))
        problem, other = check_chunk(root, manifest, f, all_chunks.count(f))
        if problem is None:
            done.add(f)
            continue
        if other:
            foreign.append(problem)
        if damaged is not None:
            damaged.append(problem)
    if foreign and not done:
        raise DatasetError(
            f"{root / MANIFEST} disagrees with every chunk in the folder "
            f"({foreign[0]}{_more(foreign)}): the manifest or the chunks "
            "come from another run; use a new folder"
        )
    return done


def _more(items: list) -> str:
    return f", and {len(items) - 1} more" if len(items) > 1 else ""


def strays(root: Path, manifest: dict) -> list[str]:
    """Names in ``root`` that plain readers (pandas, pyarrow, DuckDB) would take for data
    but that are not parts of this run: any name not starting with ``_`` or ``.`` other
    than ``part-<first>.parquet`` of one of the run's chunks."""
    all_chunks = chunks(manifest["first_game"], manifest["games"], manifest["chunk_games"])
    out = []
    for p in root.iterdir():
        if p.name.startswith(("_", ".")):
            continue
        m = _PART.match(p.name)
        if (
            m is None
            or manifest["summary_only"]
            or not all_chunks.is_first(int(m.group(1)))
            or not p.is_file()
        ):
            out.append(p.name + ("/" if p.is_dir() else ""))
    return sorted(out)


def stray_note(root: Path, names: list[str]) -> str:
    shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    return (
        f"{root} holds {len(names)} file(s) that are not this run's parts: {shown} "
        "(unosim reads only its parts; pandas.read_parquet(DIR) would read these too)"
    )


# -------------------------------------------------------------------- writing chunks


class PartWriter:
    """Rows of consecutive blocks into one Parquet file, renamed into place on close.

    The manifest is in the file's key-value metadata (as ``results.write_parquet``
    writes it), so ``results.read_results`` reads a part or a single-file run alike.
    """

    sha256: str  # the finished file's SHA-256, set by ``close``

    def __init__(self, final: Path, manifest: dict):
        self.final = Path(final)
        self.manifest = manifest
        self.tmp = atomic_path(self.final)
        self.writer: Any = None  # a pyarrow.parquet.ParquetWriter once written to

    def write(self, df: pd.DataFrame) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.Table.from_pandas(df, preserve_index=False)
        if self.writer is None:
            meta = dict(table.schema.metadata or {})
            meta[MANIFEST_KEY] = json.dumps(self.manifest, sort_keys=True).encode()
            self.schema = table.schema.with_metadata(meta)
            self.writer = pq.ParquetWriter(
                self.tmp, self.schema, compression="zstd", write_page_checksum=True
            )
        self.writer.write_table(table.cast(self.schema))

    def close(self) -> Path:
        """Finish the file and rename it to its final name."""
        if self.writer is None:
            raise ValueError("no rows written")
        self.writer.close()
        self.sha256 = file_sha256(self.tmp)
        publish(self.tmp, self.final)
        return self.final

    def abort(self) -> None:
        if self.writer is not None:
            self.writer.close()
        if self.tmp.exists():
            self.tmp.unlink()

    def __enter__(self) -> PartWriter:
        return self

    def __exit__(self, exc_type, *exc) -> None:
        if exc_type is None:
            self.close()
        else:
            self.abort()


def write_summary(
    root: Path,
    manifest: dict,
    first: int,
    count: int,
    agg: Aggregate,
    part_sha256: str | None = None,
) -> Path:
    """The chunk's aggregate as ``_summary-<first>.json``, the chunk's completion mark:
    with its identity, its part's SHA-256 (rows kept) and its own checksum."""
    final = summary_path(root, first)
    body = {
        "first_game": first,
        **agg.to_dict(),
        "rules_name": manifest.get("rules_name"),
        "chunk": chunk_identity(manifest, first, count),
    }
    if part_sha256 is not None:
        body["part_sha256"] = part_sha256
    _write_text(final, json.dumps(seal(body), separators=(",", ":")) + "\n")
    return final


def read_chunk_summary(root: Path, first: int) -> Aggregate:
    return Aggregate.from_dict(_read_json(summary_path(root, first)))


# -------------------------------------------------------------------- reading back


def _check_complete(root: Path, manifest: dict, allow_incomplete: bool) -> list[int]:
    """The first games of the finished chunks, in order. A chunk file that fails its
    check is named (:class:`DatasetError`), never skipped; stray files are named in a
    :class:`DatasetWarning`."""
    all_chunks = chunks(manifest["first_game"], manifest["games"], manifest["chunk_games"])
    damaged: list[str] = []
    done = done_chunks(root, manifest, damaged)
    if damaged:
        raise DatasetError(
            f"{root}: {damaged[0]}{_more(damaged)} (--resume computes such chunks again)"
        )
    missing = len(all_chunks) - len(done)
    if missing and not allow_incomplete:
        raise DatasetError(
            f"{root} is incomplete: {missing} of {len(all_chunks)} chunks "
            "missing (finish it with --resume, or pass allow_incomplete)"
        )
    names = strays(root, manifest)
    if names:
        warnings.warn(stray_note(root, names), DatasetWarning, stacklevel=3)
    return sorted(done)


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


def iter_dataset(
    root: str | Path, columns: Iterable[str] | None = None, allow_incomplete: bool = False
) -> Iterator[pd.DataFrame]:
    """The rows of a dataset folder one part at a time, in game order (flat memory)."""
    root = Path(root)
    manifest = read_dataset_manifest(root)
    if manifest["summary_only"]:
        raise DatasetError(
            f"{root} was run with --summary-only: it has no rows "
            "(read its aggregates with read_summary)"
        )
    cols = list(columns) if columns is not None else None
    for f in _check_complete(root, manifest, allow_incomplete):
        p = part_path(root, f)
        try:
            df = pd.read_parquet(p, columns=cols, page_checksum_verification=True)
        except Exception as e:  # a file changed since it was checked  # noqa: BLE001
            raise DatasetError(f"{p}: cannot be read ({_first_line(e)})") from None
        yield df


def read_dataset(
    root: str | Path, columns: Iterable[str] | None = None, allow_incomplete: bool = False
) -> pd.DataFrame:
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
