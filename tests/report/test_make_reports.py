"""`make reports`' driver: which pages it rebuilds and in what order, pages built a few at
once, each once the kernels it runs are compiled, and a failing step stopping the others
and failing the build."""

import sys
import textwrap
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "analyses"))

import common  # noqa: E402
import make_reports  # noqa: E402

# a page for the driver: writes PAGE.started, then "bad" fails once "slow" has started,
# "slow" waits (polling, at most 60 s) for a file that never comes, any other ends at once;
# each writes PAGE.done when it ends well
FAKE_PAGE = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    folder, page = Path(sys.argv[1]), sys.argv[2]
    (folder / f"{page}.started").touch()
    with open(folder / "log", "a") as f:
        f.write(page + "\\n")
    deadline = time.monotonic() + 60
    if page == "bad":
        while not (folder / "slow.started").exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        sys.exit(3)
    if page == "slow":
        while not (folder / "never").exists() and time.monotonic() < deadline:
            time.sleep(0.01)
    (folder / f"{page}.done").touch()
""")


def _pages(tmp_path, jobs):
    script = tmp_path / "page.py"
    script.write_text(FAKE_PAGE)
    return make_reports.Pages(lambda page: [sys.executable, str(script), str(tmp_path), page], jobs)


def test_the_longest_pages_start_first():
    assert make_reports.start_order(list(common.ANALYSES))[:2] == ["skill", "length"]
    assert sorted(make_reports.start_order(common.ANALYSES)) == sorted(common.ANALYSES)
    assert set(make_reports.ORDER) == set(common.ANALYSES)
    assert make_reports.start_order(["new", "seats", "skill"]) == ["skill", "seats", "new"]


def _fake_make(tmp_path, script: str) -> str:
    make = tmp_path / "fake-make"
    make.write_text("#!/bin/sh\n" + script)
    make.chmod(0o755)
    return str(make)


def test_out_of_date_asks_make_page_by_page(tmp_path):
    make = _fake_make(
        tmp_path,
        'echo "$*" >> "$(dirname "$0")/asked"\n'
        'case "$*" in *reports/old.md*) exit 1;; *reports/bad.md*) exit 2;; esac\n',
    )
    assert make_reports.out_of_date(make, "1", ["new", "old"]) == ["old"]
    asked = (tmp_path / "asked").read_text().splitlines()
    assert asked[0] == "-q -o FORCE SCALE=1 reports/new.md"
    with pytest.raises(SystemExit, match=r"reports/bad\.md is up to date"):
        make_reports.out_of_date(make, "1", ["bad"])


@pytest.mark.parametrize("jobs", [1, 2, 5])
def test_every_page_is_built_once_and_reported(tmp_path, jobs):
    done = []
    pages = ["a", "b", "c", "d"]
    _pages(tmp_path, jobs).run(pages, done.append)
    assert sorted(done) == pages
    assert sorted((tmp_path / "log").read_text().split()) == pages
    assert all((tmp_path / f"{p}.done").exists() for p in pages)
    if jobs == 1:  # one at a time: in the order given
        assert done == pages and (tmp_path / "log").read_text().split() == pages


def test_a_failing_page_stops_the_others_and_fails_the_build(tmp_path):
    done = []
    t = time.monotonic()
    with pytest.raises(make_reports.BuildFailed, match=r"reports/bad\.md failed \(exit 3\)"):
        _pages(tmp_path, 2).run(["slow", "bad", "later"], done.append)
    assert time.monotonic() - t < 30  # "slow" was stopped, not waited for
    assert (tmp_path / "slow.started").exists() and not (tmp_path / "slow.done").exists()
    assert not (tmp_path / "later.started").exists()  # nothing starts after a failure
    assert done == []


def test_the_pages_play_official_like_rule_sets_in_the_general_kernel_unless_told():
    assert make_reports.build_env({"PATH": "/bin"}) == {"PATH": "/bin", "UNOSIM_FAMILIES": ""}
    assert make_reports.build_env({"UNOSIM_FAMILIES": "official"})["UNOSIM_FAMILIES"] == "official"


# a step for the driver: appends "start NAME" to the log, sleeps 0.5 s if NAME is "slow",
# fails if it is "bad", else appends "end NAME"
STEP = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    folder, step = Path(sys.argv[1]), sys.argv[2]
    def log(line):
        with open(folder / "log", "a") as f:
            f.write(line + "\\n")
    log("start " + step)
    if step == "slow":
        time.sleep(0.5)
    if step == "bad":
        sys.exit(4)
    log("end " + step)
""")


def _steps(tmp_path, jobs, needs):
    script = tmp_path / "step.py"
    script.write_text(STEP)
    return make_reports.Pages(
        lambda step: [sys.executable, str(script), str(tmp_path), step], jobs, needs=needs
    )


def test_a_step_starts_once_its_needs_have_ended_and_others_do_not_wait(tmp_path):
    done = []
    needs = {"after": ("slow",), "free": ("not run",)}
    _steps(tmp_path, 2, lambda s: needs.get(s, ())).run(["slow", "after", "free"], done.append)
    log = (tmp_path / "log").read_text().splitlines()
    assert log.index("end slow") < log.index("start after")
    assert log.index("start free") < log.index("end slow")  # the second worker went on
    assert sorted(done) == ["after", "free", "slow"]


def test_a_failed_need_fails_the_build_and_its_pages_never_start(tmp_path):
    with pytest.raises(make_reports.BuildFailed, match=r"reports/bad\.md failed \(exit 4\)"):
        _steps(tmp_path, 2, lambda s: ("bad",) if s == "after" else ()).run(
            ["bad", "after"], lambda s: None
        )
    assert "start after" not in (tmp_path / "log").read_text()


def test_pages_wait_for_the_kernels_they_run_and_compile_steps_for_none():
    from unosim.sim.simulate import REPORT_KERNELS, WARM_PARTS

    compiled = [k for kernels in make_reports.COMPILES.values() for k in kernels]
    assert sorted(compiled) == sorted(REPORT_KERNELS)
    for kernels in make_reports.COMPILES.values():  # each within one of warm's halves
        assert any(set(kernels) <= set(part) for part in WARM_PARTS)
    assert all(make_reports.needs_of(c) == () for c in make_reports.COMPILES)
    for page in common.ANALYSES:
        assert "kernels" in make_reports.needs_of(page)
        assert ("expert's kernel" in make_reports.needs_of(page)) == (page == "skill")
    assert make_reports.warm_command(("expert",))[-1].endswith("warm(kernels=('expert',))")
