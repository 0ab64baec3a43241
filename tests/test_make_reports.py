"""`make reports`' driver: its lanes, and a failing page stopping the others."""

import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "analyses"))

import make_reports  # noqa: E402


def test_lanes_put_the_longest_page_alone():
    est = {"a": 30, "b": 100, "c": 20, "skill": 400, "d": 60}
    plan = make_reports.lanes(list(est), est, 2)
    assert plan == [["skill"], ["b", "a", "c", "d"]]
    assert make_reports.lanes(list(est), est, 1) == [["skill", "a", "b", "c", "d"]]
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


def _slow_page_started(tmp_path):
    """Builds through a fake make that fails at once for the page "bad" and runs a long
    time for any other, with the page "slow" started in a thread: (builds, thread,
    errors the thread caught, start time)."""
    import threading

    make = tmp_path / "fake-make"
    make.write_text('#!/bin/sh\ncase "$*" in *bad*) exit 3;; esac\nsleep 60\n')
    make.chmod(0o755)
    builds = make_reports.Builds(str(make), "1")
    errors = []

    def slow():
        try:
            builds.build("slow")
        except RuntimeError as e:
            errors.append(str(e))

    th = threading.Thread(target=slow)
    t = time.monotonic()
    th.start()
    time.sleep(0.5)
    return builds, th, errors, t


def test_a_failing_page_stops_the_others(tmp_path):
    builds, th, errors, t = _slow_page_started(tmp_path)
    with pytest.raises(RuntimeError, match=r"reports/bad\.md failed \(make exit 3\)"):
        builds.build("bad")
    builds.stop(builds.failed)
    th.join(10)
    assert not th.is_alive() and time.monotonic() - t < 10
    assert errors and "bad" in errors[0]
    with pytest.raises(RuntimeError):  # nothing starts after a failure
        builds.build("other")


def test_a_failure_stops_the_other_lane_by_itself(tmp_path):
    """The failing build itself stops the page being built beside it (no ``stop`` call)."""
    builds, th, errors, t = _slow_page_started(tmp_path)
    with pytest.raises(RuntimeError):
        builds.build("bad")
    th.join(10)
    assert not th.is_alive() and time.monotonic() - t < 10
    assert errors and "bad" in errors[0]
