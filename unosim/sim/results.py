"""Kernel records -> typed DataFrames -> Parquet files carrying their manifest."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from ..kernel.core import layout as L

MANIFEST_KEY = b"unosim.manifest"

# compact dtypes of the RULES.md section 6 columns, each wide enough for every valid
# rule set (rules.py): seats < 10; a round has at most 1,000,000 turns, so counts of
# events need int32; max_stack and hand sizes stay under the deck's 1,000 cards; hand
# points reach 1,000 cards x 10,000 points
_DTYPES = {
    "winner": np.int8,
    "first_player": np.int8,
    "turns": np.int32,
    "cards_played": np.int32,
    "cards_drawn": np.int32,
    "reshuffles": np.int32,
    "points": np.int32,
    "max_stack": np.int16,
    "challenges": np.int32,
    "bluffs": np.int32,
    "uno_penalties": np.int32,
    "truncated": np.bool_,
}
HAND_POINTS_DTYPE = np.int32
HAND_SIZE_DTYPE = np.int16


def round_columns(n_players: int) -> list[str]:
    """Column names of a round frame, in order (``game`` first)."""
    per_seat = [f"hand_points_{s}" for s in range(n_players)] + [
        f"hand_size_{s}" for s in range(n_players)
    ]
    return ["game", *L.FIXED_COLUMNS, *per_seat]


def rounds_frame(out: np.ndarray, n_players: int, first_game: int) -> pd.DataFrame:
    """Turn the kernel's ``int32[n, N_COLS]`` records into a typed DataFrame.

    Columns: ``game`` (int64, the game index that seeds the round), then the RULES.md
    section 6 columns, then ``hand_points_{s}`` (int32) and ``hand_size_{s}`` (int16).
    """
    n = out.shape[0]
    cols: dict[str, np.ndarray] = {"game": np.arange(first_game, first_game + n, dtype=np.int64)}
    for i, name in enumerate(L.FIXED_COLUMNS):
        cols[name] = out[:, i].astype(_DTYPES[name])
    for s in range(n_players):
        cols[f"hand_points_{s}"] = out[:, L.C_HAND_POINTS + s].astype(HAND_POINTS_DTYPE)
    for s in range(n_players):
        cols[f"hand_size_{s}"] = out[:, L.C_HAND_SIZE + s].astype(HAND_SIZE_DTYPE)
    return pd.DataFrame(cols)


def atomic_path(final: Path):
    """A temporary path beside ``final``; :func:`publish` it over ``final`` when complete.

    The file gets the usual permissions (0666 less the umask), not mkstemp's 0600."""
    final.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{final.name}.", suffix=".tmp", dir=final.parent)
    umask = os.umask(0)
    os.umask(umask)
    os.fchmod(fd, 0o666 & ~umask)
    os.close(fd)
    return Path(tmp)


def remove_stale(final: Path) -> None:
    """Delete the temporary files ``.NAME.*.tmp`` that an earlier run writing ``final``
    left beside it (killed before its clean-up)."""
    for p in final.parent.glob(f".{glob_escape(final.name)}.*.tmp"):
        try:
            p.unlink()
        except FileNotFoundError:
            pass


def glob_escape(name: str) -> str:
    return "".join(f"[{c}]" if c in "*?[" else c for c in name)


def fsync_path(path: Path) -> None:
    """Flush a file's or a folder's contents to the disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def publish(tmp: Path, final: Path) -> Path:
    """Rename the complete ``tmp`` to ``final`` durably: the file is flushed to the disk
    before the rename and the folder after it, so a crash or power cut leaves either
    the old file or the whole new one under ``final``, never a short one."""
    fsync_path(tmp)
    os.replace(tmp, final)
    fsync_path(final.parent)
    return final


PATH_MAX = 4096  # bytes of an absolute path, its final NUL included (Linux)
NAME_MAX = 255  # bytes of one name, where the file system does not say


def shown_path(path: str | Path, limit: int = 80) -> str:
    """``path`` for a one-line message: at most ``limit`` characters, then ``...``."""
    text = os.fspath(path)
    return text if len(text) <= limit else text[:limit] + "..."


def check_path_name(
    path: str | Path, what: str = "--out", room: int = 0, given: str | Path | None = None
) -> None:
    """One-line ``ValueError`` naming ``what`` unless the file system can take ``path``
    as a name: UTF-8 text without NUL, every name in it at most the file system's
    ``NAME_MAX`` bytes (the last one with ``room`` bytes to spare, for the temporary
    names written beside it), the absolute path under ``PATH_MAX`` bytes.

    Every command that writes calls it (through :func:`probe_writable` and the output
    checks) before it looks at the path at all, so a bad name is never half-used.
    ``given``: the path as the user wrote it, if ``path`` is another form of it."""
    text = os.fspath(path)
    shown = shown_path(text if given is None else given)
    if "\0" in text:
        raise ValueError(f"{what} {shown}: a name cannot hold a NUL character")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(
            f"{what} {shown}: the name is not UTF-8 text (bytes the file system cannot "
            "show as text); give a name in UTF-8"
        ) from None
    full = os.path.abspath(text)
    size = len(full.encode("utf-8"))
    if size >= PATH_MAX:
        raise ValueError(
            f"{what} {shown}: the path is {size:,} bytes long; at most {PATH_MAX - 1:,}"
        )
    name_max = NAME_MAX
    for folder in Path(full).parents:
        try:
            if folder.is_dir():
                name_max = os.pathconf(folder, "PC_NAME_MAX")
                break
        except (OSError, ValueError):
            continue
    parts = Path(full).parts
    for i, part in enumerate(parts[1:], start=1):
        spare = room if i == len(parts) - 1 else 0
        size = len(part.encode("utf-8"))
        if size + spare > name_max:
            raise ValueError(
                f"{what} {shown}: a name in it is too long ({size} bytes; at most "
                f"{name_max - spare} here)"
            )


def probe_writable(path: Path, what: str = "--out") -> None:
    """Fail (``OSError`` -> ``ValueError`` naming ``what``) unless a file can be created
    where ``path`` will be: creates and removes a temporary file in the nearest existing
    folder (``os.access`` says yes to root even on a read-only or virtual filesystem).
    The name is checked first (:func:`check_path_name`)."""
    check_path_name(path, what)
    probe = Path(os.path.abspath(path)).parent
    while not probe.exists():
        probe = probe.parent
    if not probe.is_dir():
        raise ValueError(f"{what} {path}: {probe} is a file, not a folder")
    try:
        fd, tmp = tempfile.mkstemp(prefix=".unosim-probe.", suffix=".tmp", dir=probe)
    except OSError as e:
        raise ValueError(
            f"{what} {path}: cannot write in {probe} ({e.strerror or e.__class__.__name__})"
        ) from None
    os.close(fd)
    os.unlink(tmp)


def write_parquet(df: pd.DataFrame, path: str | Path, manifest: dict) -> Path:
    """Write ``df`` to ``path`` atomically, the manifest in the file's key-value metadata."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    final = Path(path)
    table = pa.Table.from_pandas(df, preserve_index=False)
    meta = dict(table.schema.metadata or {})
    meta[MANIFEST_KEY] = json.dumps(manifest, sort_keys=True).encode()
    table = table.replace_schema_metadata(meta)
    tmp = atomic_path(final)
    try:
        pq.write_table(table, tmp, compression="zstd", write_page_checksum=True)
        publish(tmp, final)
    finally:
        if tmp.exists():
            tmp.unlink()
    return final


def read_manifest(path: str | Path) -> dict:
    """The manifest stored in a Parquet file written by unosim."""
    import pyarrow.parquet as pq

    meta = pq.read_schema(path).metadata or {}
    if MANIFEST_KEY not in meta:
        raise ValueError(f"{path} has no unosim manifest")
    return json.loads(meta[MANIFEST_KEY])


def read_results(path: str | Path) -> pd.DataFrame:
    """A results file back as a DataFrame, its manifest in ``df.attrs['manifest']``
    (the pages' checksums verified, where the file has them)."""
    df = pd.read_parquet(path, page_checksum_verification=True)
    df.attrs["manifest"] = read_manifest(path)
    return df


def write_csv(df: pd.DataFrame, path: str | Path, manifest: dict) -> Path:
    """Write a small table to CSV atomically, the manifest first as ``# `` comment lines
    (``pd.read_csv(path, comment='#')`` reads the table back)."""
    final = Path(path)
    tmp = atomic_path(final)
    try:
        with open(tmp, "w") as f:
            for line in json.dumps(manifest, sort_keys=True, indent=1).splitlines():
                f.write(f"# {line}\n")
            df.to_csv(f, index=False)
        publish(tmp, final)
    finally:
        if tmp.exists():
            tmp.unlink()
    return final
