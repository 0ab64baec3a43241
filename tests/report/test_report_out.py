"""`unosim report` and its --out folder: --force replaces only an earlier report, a
symlinked folder is written through, killed runs' temporaries are removed, two runs to
one folder cannot both write it, and every bad --out, degenerate report or oversized
request is a one-line error (exit 2) with nothing left behind."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from unosim.cli.app import app
from unosim.report import ask, outfolder

runner = CliRunner()
SMALL = ["official", "stacking", "--players", "2", "--games", "200", "--no-progress"]


def report(*args):
    return runner.invoke(app, ["report", *SMALL, *[str(a) for a in args]])


def one_line_error(r, *words: str) -> str:
    """Exit code 2, exactly one `unosim: error:` line on stderr, no traceback."""
    assert r.exit_code == 2, (r.exit_code, r.output, r.exception)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    err = r.stderr
    assert err.startswith("unosim: error: ") and err.count("\n") == 1, err
    for w in words:
        assert w in err, (w, err)
    return err


def tree(folder: Path) -> list[str]:
    """Everything under ``folder``, hidden files too, symlinks not followed."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A fresh current folder; nothing may be left in it but what the test made."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture(scope="module")
def earlier(tmp_path_factory):
    """An earlier report folder, to copy."""
    out = tmp_path_factory.mktemp("earlier") / "r"
    r = runner.invoke(app, ["report", *SMALL, "--out", str(out)])
    assert r.exit_code == 0, r.output
    return out


def copy_of(earlier: Path, to: Path) -> Path:
    import shutil

    shutil.copytree(earlier, to)
    return to


# ------------------------------------------------------------ --force


def test_force_refuses_a_folder_unosim_did_not_write(here):
    out = here / "thesis"
    (out / "photos").mkdir(parents=True)
    (out / ".git").mkdir()
    (out / "thesis.tex").write_text("\\documentclass{article}")
    (out / "photos" / "a.jpg").write_bytes(b"\xff\xd8")
    before = tree(here)
    one_line_error(
        report("--out", out, "--force"), "not an earlier unosim report", ".unosim-report"
    )
    assert tree(here) == before


def test_force_refuses_an_earlier_report_with_other_files_in_it(here, earlier):
    out = copy_of(earlier, here / "r")
    (out / "thesis.tex").write_text("mine")
    one_line_error(report("--out", out, "--force"), "not an earlier unosim report", "thesis.tex")
    (out / "thesis.tex").unlink()
    (out / "report" / "notes.txt").write_text("mine too")
    before = tree(here)
    one_line_error(report("--out", out, "--force"), "report/notes.txt")
    assert tree(here) == before


def test_force_replaces_an_earlier_report(here, earlier):
    out = copy_of(earlier, here / "r")
    (out / "report" / "stale.svg").write_text("<svg/>")  # a figure an older run drew
    r = report("--out", out, "--force", "--seed", "7")
    assert r.exit_code == 0, r.output
    assert (out / ask.MARKER).is_file() and not (out / "report" / "stale.svg").exists()
    assert "--seed 7" in (out / "report.md").read_text()
    assert sorted(p.name for p in here.iterdir()) == ["r"]  # no temporary, no lock


@pytest.mark.parametrize("where", [".", "..", "CWD", "PARENT", "/"])
def test_force_refuses_the_current_folder_and_its_parents(here, earlier, where):
    work = copy_of(earlier, here / "w")  # even an earlier report, once it is the cwd
    os.chdir(work)
    out = {"CWD": str(work), "PARENT": str(here)}.get(where, where)
    before = tree(here)
    one_line_error(report("--out", out, "--force"), "current folder")
    assert tree(here) == before


def test_a_symlinked_out_is_written_through(here, earlier):
    real = here / "real"
    real.mkdir()
    link = here / "link"
    link.symlink_to(real)
    assert report("--out", link).exit_code == 0
    assert link.is_symlink() and (real / "report.md").is_file()
    r = report("--out", link, "--force", "--seed", "3")
    assert r.exit_code == 0, r.output
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert "--seed 3" in (real / "report.md").read_text()
    assert sorted(p.name for p in here.iterdir()) == ["link", "real"]


def test_stale_temporaries_of_the_same_output_are_removed(here, earlier):
    out = here / "r"
    stale = here / ".r.tmp-abc123"
    (stale / "report").mkdir(parents=True)
    (stale / "report.md").write_text("half a page")  # a run killed by SIGKILL
    (here / ".r.lock").write_text("")  # its lock file (no process holds it)
    other = here / ".other.tmp-abc123"
    other.mkdir()
    r = report("--out", out)
    assert r.exit_code == 0, r.output
    assert not stale.exists() and other.exists() and not (here / ".r.lock").exists()
    assert sorted(p.name for p in here.iterdir()) == [".other.tmp-abc123", "r"]


def test_a_run_killed_between_its_renames_gets_the_earlier_report_back(here, earlier):
    copy_of(earlier, here / ".r.old-abc123")  # `r` was moved aside, the new one not yet in
    one_line_error(report("--out", here / "r"), "not empty")
    assert (here / "r" / ask.MARKER).is_file() and tree(here / "r") == tree(earlier)
    assert sorted(p.name for p in here.iterdir()) == ["r"]


def test_two_runs_to_one_output_cannot_both_write_it(here):
    out = here / "r"
    with outfolder.claim(out, out, "report"):  # another run is writing `r`
        before = tree(here)
        one_line_error(report("--out", out), "another unosim report is writing it")
        assert tree(here) == before
    assert sorted(p.name for p in here.iterdir()) == []  # its lock is gone with it
    assert report("--out", out).exit_code == 0  # and then the folder can be written


def test_the_lock_is_taken_again_if_its_file_was_replaced(here, monkeypatch):
    """A run that opened the lock file just before the holder removed it must not lock
    the removed file: it tries again on the new one."""
    lock = here / ".r.lock"
    real_flock = __import__("fcntl").flock
    calls = []

    def flock(fd, op):
        calls.append(fd)
        if len(calls) == 1:  # the holder finishes meanwhile: its file goes, a new one comes
            lock.unlink()
            lock.write_text("")
        return real_flock(fd, op)

    monkeypatch.setattr("fcntl.flock", flock)
    with outfolder.claim(here / "r", here / "r", "report"):
        assert len(calls) == 2 and lock.exists()
    assert not lock.exists()


# ------------------------------------------------------------ --out shapes


def _dangling(here):
    (here / "d").symlink_to(here / "nowhere")
    return here / "d", "does not exist"


def _loop(here):
    (here / "l1").symlink_to(here / "l2")
    (here / "l2").symlink_to(here / "l1")
    return here / "l1", "symlink loop"


def _toml_folder(here):
    (here / "x.toml").mkdir()
    return here / "x.toml", "named like a file"


OUT_CASES = {
    ".": lambda here: (Path("."), "current folder"),
    "..": lambda here: (Path(".."), "parent of the current folder"),
    "dangling symlink": _dangling,
    "symlink loop": _loop,
    "300-character name": lambda here: (here / ("a" * 300), "too long"),
    "300-character folder on the way": lambda here: (here / ("b" * 300) / "r", "too long"),
    "empty folder x.toml": _toml_folder,
    "file": lambda here: ((here / "f").write_text("x") and here / "f", "not a folder"),
    "unwritable place": lambda here: (Path("/proc/unosim-report"), "cannot write"),
}


@pytest.mark.parametrize("case", list(OUT_CASES))
def test_bad_out_is_one_line_and_leaves_nothing(here, case):
    out, word = OUT_CASES[case](here)
    before = tree(here)
    one_line_error(report("--out", out), word)
    one_line_error(report("--out", out, "--force"), word)
    assert tree(here) == before


def test_full_disk_is_one_line_and_leaves_nothing(here, monkeypatch):
    def full(self, *a, **k):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(Path, "write_text", full)
    one_line_error(report("--out", here / "r"), "--out", "No space left on device")
    assert tree(here) == []


# ------------------------------------------------------------ degenerate reports


def test_one_round_is_refused_before_simulating(here, monkeypatch):
    monkeypatch.setattr(ask, "run_arms", lambda *a, **k: pytest.fail("simulated"))
    r = runner.invoke(
        app, ["report", "official", "stacking", "--games", "1", "--out", str(here / "r")]
    )
    one_line_error(r, "at least 2 rounds")
    assert tree(here) == []


@pytest.mark.parametrize(
    "rules",
    [
        ["official+max_turns=1", "stacking+max_turns=1"],
        ["official+max_turns=1", "stacking"],
        ["official", "stacking+max_turns=1"],
    ],
)
def test_reports_with_every_round_truncated_say_what_they_could_not_compute(here, rules):
    r = runner.invoke(
        app,
        [
            "report",
            *rules,
            "--players",
            "2,3",
            "--games",
            "200",
            "--out",
            str(here / "r"),
            "--no-progress",
        ],
    )
    assert r.exit_code == 0, r.output
    md = (here / "r" / "report.md").read_text()
    if all("max_turns=1" in x for x in rules):
        assert "No round was completed at 2 players" in md
    else:
        assert "No round was completed under" in md
    assert sorted(p.name for p in here.iterdir()) == ["r"]


def test_memory_over_every_player_count_is_refused_before_simulating(here, monkeypatch):
    monkeypatch.setattr(ask, "run_arms", lambda *a, **k: pytest.fail("simulated"))
    r = runner.invoke(
        app,
        [
            "report",
            "official",
            "stacking",
            "--games",
            "134217728",
            "--players",
            "2,3,4,5,6,7,8,9,10",
            "--out",
            str(here / "r"),
        ],
    )
    err = one_line_error(r, "9 player counts", "2,415,919,104 rounds", "58 GB")
    assert "at most 268,435,456" in err
    assert tree(here) == []
