"""Output folders written as one transaction: the whole new folder, or the old one.

``unosim report`` and ``unosim design`` each write a folder (``--out DIR``). The folder
is built under a temporary name beside ``DIR`` (``.DIR.tmp-XXXXXXXX``) and renamed into
place once complete, so an existing folder is never half-overwritten. A folder that is
not empty is refused unless ``force``, and even then unless it is an earlier folder of
the same command (its marker file in it, nothing else added). A lock beside the folder
(``.DIR.lock``) keeps a second run out while one writes; the temporaries a killed run
left (``.DIR.tmp-*``, ``.DIR.old-*``) are removed, or put back, by the next one.

Every refusal is one line (``ValueError`` naming ``--out``).
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = ["FolderKind", "check_out", "claim", "swap_in", "writing", "TMP_ROOM"]

TMP_ROOM = 24  # bytes a temporary name adds to --out's: ".NAME.tmp-XXXXXXXX"
# a name like these is a file's, not a folder's: refused as --out
FILE_SUFFIXES = {".toml", ".md", ".html", ".parquet", ".csv", ".json", ".svg", ".png"}
OWN_SUFFIXES = {".svg", ".png", ".csv", ".json"}  # what a page's figure folder holds


@dataclass(frozen=True)
class FolderKind:
    """What one command writes into its output folder.

    Attributes
    ----------
    noun : str
        What the folder is called in messages ("report", "design").
    marker : str
        The file written into every folder of this kind: ``--force`` replaces only these.
    page_name : str
        The page's name: ``PAGE.md``, ``PAGE.html`` and the figure folder ``PAGE/``.
    own_files : frozenset of str
        Every other file the command writes at the top of the folder.
    """

    noun: str
    marker: str
    page_name: str
    own_files: frozenset[str] = frozenset()

    def foreign(self, folder: Path) -> str | None:
        """The first entry of ``folder`` that this command does not write, or ``None``
        if the folder is an earlier one of its own (marker, page, figures, tables)."""
        if not (folder / self.marker).is_file():
            return f"it has no {self.marker} file"
        own = {self.marker, f"{self.page_name}.md", f"{self.page_name}.html"} | self.own_files
        for p in sorted(folder.iterdir()):
            if p.name in own and p.is_file() and not p.is_symlink():
                continue
            if p.name == self.page_name and p.is_dir() and not p.is_symlink():
                for q in sorted(p.iterdir()):
                    if not (q.is_file() and not q.is_symlink() and q.suffix in OWN_SUFFIXES):
                        return f"it holds {self.page_name}/{q.name}"
                continue
            return f"it holds {p.name}"
        return None


def _resolve(out: Path) -> Path:
    """``out`` as an absolute path with every symlink followed (a symlinked folder is
    written through, never replaced); one-line ``ValueError`` for a dangling symlink or
    a loop."""
    try:
        real = (
            Path(os.path.realpath(out, strict=True))
            if out.is_symlink()
            else Path(os.path.realpath(out))
        )
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise ValueError(f"--out {out} is a symlink loop") from None
        raise ValueError(
            f"--out {out} is a symlink to {os.readlink(out)}, which does not exist"
        ) from None
    return real


def _check_name(path: Path, out: Path) -> None:
    """One-line ``ValueError`` if ``path`` is no name the file system takes
    (:func:`unosim.sim.results.check_path_name`), or its last part leaves no room for
    the temporary names beside it (``TMP_ROOM``)."""
    from ..sim.results import check_path_name

    check_path_name(path, "--out", TMP_ROOM, given=out)


def check_out(out: Path, kind: FolderKind, force: bool = False) -> Path:
    """Refuse an ``out`` that cannot become a folder of ``kind``, in one line
    (``ValueError``): the current folder or a parent of it, a dangling or looping symlink,
    a file, a name like a file's (``x.toml``) or too long, a folder with files (unless
    ``force``, and then only an earlier folder of ``kind``), a place that cannot be
    written. Returns the folder to write (``out`` with its symlinks followed)."""
    out = Path(out)
    _check_name(out, out)
    real = _resolve(out)
    _check_name(real, out)
    cwd = Path(os.path.realpath(os.getcwd()))
    if real == cwd or real in cwd.parents:
        where = "the current folder" if real == cwd else "a parent of the current folder"
        raise ValueError(f"--out {out} is {where}: give a folder of its own")
    if real.suffix.lower() in FILE_SUFFIXES:
        raise ValueError(
            f"--out {out} is named like a file ({real.suffix}): --out is the "
            f"folder the {kind.noun} is written into"
        )
    if real.exists() and not real.is_dir():
        raise ValueError(f"--out {out} exists and is not a folder")
    if real.is_dir() and any(real.iterdir()):
        if not force:
            raise ValueError(
                f"--out {out} is not empty (use --force to replace an earlier {kind.noun})"
            )
        why = kind.foreign(real)
        if why is not None:
            raise ValueError(
                f"--out {out} is not an earlier unosim {kind.noun} ({why}): not "
                "replaced; choose another folder or empty it yourself"
            )
    from ..sim.results import probe_writable

    probe_writable(real)
    return real


@contextlib.contextmanager
def claim(real: Path, out: Path, noun: str) -> Iterator[None]:
    """Hold the lock ``.NAME.lock`` beside ``real`` while a folder is written there, so
    two runs to one folder cannot both write it; removes the temporaries a killed run
    left (``.NAME.tmp-*``; ``.NAME.old-*`` is put back if ``real`` is missing)."""
    import fcntl

    lock = real.parent / f".{real.name}.lock"
    while True:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise ValueError(f"--out {out}: another unosim {noun} is writing it now") from None
        try:  # the lock file may have been removed and made again meanwhile
            same = os.path.samestat(os.fstat(fd), os.stat(lock))
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    try:
        from ..sim.results import glob_escape

        stem = f".{glob_escape(real.name)}"
        for p in real.parent.glob(f"{stem}.old-*"):  # killed between its two renames
            if not real.exists():
                os.replace(p, real)  # the earlier folder comes back
            else:
                shutil.rmtree(p, ignore_errors=True)
        for p in real.parent.glob(f"{stem}.tmp-*"):
            shutil.rmtree(p, ignore_errors=True)
        yield
    finally:
        try:
            os.unlink(lock)
        finally:
            os.close(fd)


def swap_in(tmp: Path, real: Path) -> None:
    """Put the finished folder ``tmp`` at ``real``: an earlier ``real`` is moved aside,
    put back if the rename fails, and removed once ``tmp`` is in place."""
    old = None
    if real.exists():
        old = real.parent / f".{real.name}.old-{tmp.name.rsplit('-', 1)[-1]}"
        os.replace(real, old)
    try:
        os.replace(tmp, real)
    except OSError:
        if old is not None:
            os.replace(old, real)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


@contextlib.contextmanager
def writing(out: Path, kind: FolderKind, force: bool, marker_text: str) -> Iterator[Path]:
    """The folder transaction: yields an empty temporary folder beside ``out`` to write
    into; when the block ends without an error, ``marker_text`` goes into its marker file
    and it replaces ``out`` (:func:`swap_in`). On any error or interrupt the temporary
    folder is removed and ``out`` is as it was. ``out`` is checked (:func:`check_out`)
    before and again under the lock; an ``OSError`` becomes a one-line ``ValueError``."""
    out = Path(out)
    real = check_out(out, kind, force)
    try:
        real.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ValueError(f"--out {out}: cannot write in {real.parent}: {e.strerror or e}") from None
    with claim(real, out, kind.noun):
        check_out(out, kind, force)  # again: another run may have written it meanwhile
        try:
            tmp = Path(tempfile.mkdtemp(prefix=f".{real.name}.tmp-", dir=real.parent))
        except OSError as e:
            raise ValueError(
                f"--out {out}: cannot write in {real.parent}: {e.strerror or e}"
            ) from None
        try:
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(tmp, 0o777 & ~mask)  # mkdtemp makes it private; it is for reading
            yield tmp
            (tmp / kind.marker).write_text(marker_text)
            swap_in(tmp, real)
        except OSError as e:
            raise ValueError(
                f"--out {out}: cannot write the {kind.noun}: {e.strerror or e}"
            ) from None
        finally:
            if tmp.exists():
                shutil.rmtree(tmp, ignore_errors=True)
