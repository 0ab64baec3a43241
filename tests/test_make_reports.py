"""`make reports`' driver: its lanes, which pages it rebuilds, a failing lane stopping the
others, and the last lane left getting every core."""

import os
import signal
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "analyses"))

import common  # noqa: E402
import make_reports  # noqa: E402
import report_lane  # noqa: E402


def test_lanes_put_the_longest_page_alone():
    est = {"a": 30, "b": 100, "c": 20, "skill": 400, "d": 60}
    plan = make_reports.lanes(list(est), est, 2)
    assert plan == [["skill"], ["b", "a", "c", "d"]]
    assert make_reports.lanes(list(est), est, 1) == [["skill", "a", "b", "c", "d"]]
    assert make_reports.lanes(list(est), est, 1, []) == [["skill", "a", "b", "c", "d"]]
    # more lanes than pages: no empty lane
    assert sorted(map(tuple, make_reports.lanes(["a", "b"], est, 4))) == [("a",), ("b",)]


def test_lanes_balance():
    est = {p: t for p, t in zip("abcdef", (50, 40, 30, 30, 20, 10))}
    plan = make_reports.lanes(list(est), est, 2)
    loads = sorted(sum(est[p] for p in lane) for lane in plan)
    assert loads == [90, 90]
    # each starts with its longest page, then keeps the pages' order
    for lane in plan:
        assert est[lane[0]] == max(est[p] for p in lane)
        assert lane[1:] == sorted(lane[1:])
    est = {"seats": 45, "length": 111, "points": 19, "stacking": 10, "skill": 120}
    assert make_reports.lanes(list(est), est, 2) == [
        ["skill", "points", "stacking"],
        ["length", "seats"],
    ]


def test_lanes_count_their_compile_and_keep_the_skill_page_on_the_first():
    """The first lane compiles the expert (``pre``): the skill page goes there even when
    the other lane starts lighter, and the other pages fill the lanes to equal time."""
    est = {"length": 130, "skill": 180, "house-rules": 70, "seats": 20, "editions": 14}
    plan = make_reports.lanes(list(est), est, 2, [80, 30])
    assert plan[0][0] == "skill"
    loads = [pre + sum(est[p] for p in lane) for pre, lane in zip([80, 30], plan)]
    assert loads == [260, 264]
    assert make_reports.lanes(["length", "seats"], est, 2, [80, 30]) == [["seats"], ["length"]]
    # a lane whose compile alone outweighs the pages gets none (kept, empty, on request)
    two = {"a": 10, "b": 10}
    assert make_reports.lanes(["a", "b"], two, 2, [100, 0]) == [["a", "b"]]
    assert make_reports.lanes(["a", "b"], two, 2, [100, 0], empty=True) == [[], ["a", "b"]]


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


def test_compile_time_knows_a_compiled_cache(tmp_path, monkeypatch):
    monkeypatch.setattr(report_lane, "MARKER", tmp_path / ".kernels.json")
    cold = make_reports.compile_time(("rounds", "matches"))
    assert cold == make_reports.COMPILE["rounds"] + make_reports.COMPILE["matches"]
    report_lane._mark_ready(["rounds", "expert", "matches"])
    assert make_reports.compile_time(("rounds", "matches")) == 2 * make_reports.LOAD
    assert make_reports.compile_time(("official",)) == make_reports.COMPILE["official"]
    report_lane._mark_ready(["official"])  # the other lane's: added, nothing lost
    assert make_reports.compile_time(("official", "rounds")) == 2 * make_reports.LOAD
    assert make_reports.compile_time(()) == 0.0


# a lane for the runner: "@lane ready", then per page: "bad" fails at once, "wait" waits
# for SIGUSR1 (the last lane left) and says so, any other takes 60 s
FAKE_LANE = textwrap.dedent("""
    import signal, sys, time
    pages = [a for a in sys.argv[1:] if a and a[0].isalpha()]
    got = []
    signal.signal(signal.SIGUSR1, lambda *a: got.append(1))
    print("@lane ready", flush=True)
    for p in pages:
        if p == "bad":
            sys.exit(3)
        if p == "quick":
            print("@lane page quick 0.1", flush=True)
            continue
        t = time.monotonic()
        while time.monotonic() - t < 60 and not (p == "wait" and got):
            time.sleep(0.05)
        print(f"@lane page {p} {'alone' if got else 'shared'} 0.2", flush=True)
    signal.signal(signal.SIGUSR1, signal.SIG_IGN)  # as report_lane.py at its end
""")


def _runner(tmp_path, share=True):
    lane = tmp_path / "lane.py"
    lane.write_text(FAKE_LANE)
    return make_reports.Lanes("1", share, [sys.executable, str(lane)])


def _run_in_thread(runner, pages, steps, errors):
    def go():
        try:
            runner.run((), pages, lambda kind, name, took: steps.append((kind, name)))
        except RuntimeError as e:
            errors.append(str(e))

    th = threading.Thread(target=go)
    th.start()
    return th


def test_a_failing_lane_stops_the_others(tmp_path):
    runner = _runner(tmp_path)
    steps, errors = [], []
    t = time.monotonic()
    slow = _run_in_thread(runner, ["slow"], steps, errors)
    time.sleep(0.5)
    with pytest.raises(RuntimeError, match=r"reports/bad\.md failed \(exit 3\)"):
        runner.run((), ["bad"], lambda *a: None)
    slow.join(10)
    assert not slow.is_alive() and time.monotonic() - t < 10
    assert errors and "bad" in errors[0] and steps == []
    with pytest.raises(RuntimeError):  # nothing starts after a failure
        runner.run((), ["other"], lambda *a: None)


def test_the_last_lane_left_gets_every_core(tmp_path):
    runner = _runner(tmp_path)
    steps, errors = [], []
    waiting = _run_in_thread(runner, ["wait"], steps, errors)
    time.sleep(0.5)
    runner.run((), ["quick"], lambda *a: None)
    waiting.join(10)
    assert not waiting.is_alive() and not errors
    assert steps == [("page", "wait")]


def test_lanes_alone_are_not_signalled(tmp_path):
    runner = _runner(tmp_path, share=False)
    steps, errors = [], []
    waiting = _run_in_thread(runner, ["wait"], steps, errors)
    time.sleep(0.5)
    runner.run((), ["quick"], lambda *a: None)
    time.sleep(1.0)
    assert waiting.is_alive()  # still waiting: nobody told it to take every core
    runner.stop("test over")
    waiting.join(10)
    assert not waiting.is_alive()


def test_a_shared_lane_runs_one_thread_until_told(monkeypatch):
    monkeypatch.setattr(common.SHARED, "threads", None)
    before = signal.getsignal(signal.SIGUSR1)
    try:
        report_lane.share_cores()
        ctx = common.Context("t", 1.0)
        assert ctx.cores() == 1
        os.kill(os.getpid(), signal.SIGUSR1)
        time.sleep(0.1)
        assert ctx.cores() is None
        assert common.Context("t", 1.0, threads=2).cores() == 2
    finally:
        signal.signal(signal.SIGUSR1, before)


def test_a_lane_refuses_an_unknown_page_at_once():
    import subprocess

    lane = Path(report_lane.__file__)
    t = time.monotonic()
    out = subprocess.run(
        [sys.executable, str(lane), "--warm", "expert", "no-such-page"],
        capture_output=True,
        text=True,
    )
    assert out.returncode != 0 and time.monotonic() - t < 30
    assert "no page named 'no-such-page'" in out.stderr


def test_a_lane_ready_after_the_other_ended_is_told_at_once(tmp_path):
    runner = _runner(tmp_path)
    runner.run((), ["quick"], lambda *a: None)
    steps = []
    t = time.monotonic()
    runner.run((), ["wait"], lambda kind, name, took: steps.append((kind, name)))
    assert steps == [("page", "wait")] and time.monotonic() - t < 30
