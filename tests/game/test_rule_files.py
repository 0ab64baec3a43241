"""TOML rule files bounded before they are parsed (size, nesting, dotted keys, FIFOs and
devices, a byte-order mark, binary): one-line errors (exit code 2) or the right rules."""

from __future__ import annotations

import os
import threading
import time

import pytest
from typer.testing import CliRunner

from unosim.cli.app import app
from unosim.game import tomlfile
from unosim.game.rules import RuleError, load_toml

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def one_line_error(r, *words: str) -> str:
    assert r.exit_code == 2, (r.exit_code, r.output, r.exception)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    err = r.stderr
    assert err.startswith("unosim: error: ") and err.count("\n") == 1, err
    assert r.stdout == ""
    for w in words:
        assert w in err, (w, err)
    return err


def _within(seconds: float, fn, *args):
    """``fn(*args)`` in a thread; fails (instead of hanging) if it blocks."""
    box = {}

    def go():
        try:
            box["value"] = fn(*args)
        except BaseException as e:  # noqa: BLE001 - handed back to the test
            box["error"] = e

    t = threading.Thread(target=go, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), f"{fn.__name__} blocked"
    if "error" in box:
        raise box["error"]
    return box.get("value")


# ------------------------------------------------------------------ TOML files
HOSTILE_TOML = {
    "nested 50,000 deep": ("a = " + "[" * 50_000 + "]" * 50_000 + "\n", "nested more"),
    "inline tables 40 deep": ("a = " + "{b = " * 40 + "1" + "}" * 40 + "\n", "nested more"),
    "40 kB dotted key": ("a" + ".a" * 20_000 + " = 1\n", "dotted key"),
    "dotted table header": ("[" + ".".join(["t"] * 100) + "]\nx = 1\n", "dotted key"),
}


@pytest.mark.parametrize("case", list(HOSTILE_TOML))
def test_hostile_toml_is_refused_before_parsing(tmp_path, case):
    text, words = HOSTILE_TOML[case]
    path = tmp_path / "r.toml"
    path.write_text(text)
    t = time.perf_counter()
    one_line_error(invoke("rules", "show", path), words)
    assert time.perf_counter() - t < 5
    strat = tmp_path / "w.toml"
    strat.write_text(text)
    one_line_error(
        invoke("simulate", "--games", 3, "--strategies", f"weighted:{strat}"),
        "strategy file",
        words,
    )


def test_strings_and_comments_do_not_count(tmp_path):
    """Brackets, braces and dots inside strings and comments are not structure."""
    path = tmp_path / "ok.toml"
    path.write_text(
        'name = "' + "[{." * 200 + '"\n'
        "# " + "[" * 200 + "\n"
        "x1 = '''" + "." * 100 + "'''\n"
        'x2 = """a\\"""" \n'
        "[deck]\nwild = 4 # " + "{" * 50 + "\n"
    )
    assert tomlfile.check_shape(path.read_text()) is None
    with pytest.raises(RuleError, match="unknown rule 'x1'"):  # parsed, then judged
        load_toml(path)


def test_a_huge_rules_file_is_not_read(tmp_path):
    path = tmp_path / "big.toml"
    with open(path, "wb") as f:
        f.truncate(3 << 30)  # 3 GB, sparse: costs no disk
    one_line_error(invoke("rules", "show", path), "3,221,225,472 bytes", "at most")
    strat = tmp_path / "w.toml"
    os.link(path, strat)
    one_line_error(
        invoke("simulate", "--games", 3, "--strategies", f"weighted:{strat}"),
        "strategy file",
        "at most",
    )


def test_fifo_and_devices_are_refused_without_blocking(tmp_path):
    fifo = tmp_path / "r.toml"
    os.mkfifo(fifo)
    with pytest.raises(RuleError, match="FIFO"):
        _within(10, load_toml, fifo)
    r = _within(30, invoke, "simulate", "--games", 3, "--rules", fifo)
    one_line_error(r, "FIFO", "not a file")
    r = _within(30, invoke, "simulate", "--games", 3, "--strategies", f"weighted:{fifo}")
    one_line_error(r, "strategy file", "FIFO")
    dev = tmp_path / "zero.toml"
    dev.symlink_to("/dev/zero")
    one_line_error(_within(30, invoke, "rules", "show", dev), "character device")
    folder = tmp_path / "x.toml"
    folder.mkdir()
    one_line_error(invoke("rules", "show", folder), "a folder")


def test_a_fifo_swapped_in_after_the_check_does_not_block(tmp_path, monkeypatch):
    """``stat`` said regular file, then the path became a FIFO: the O_NONBLOCK open
    returns at once and ``fstat`` refuses it."""
    fifo = tmp_path / "r.toml"
    os.mkfifo(fifo)
    real = os.stat

    class Regular:
        st_mode = 0o100644
        st_size = 10

    monkeypatch.setattr(
        tomlfile.os,
        "stat",
        lambda p, *a, **k: Regular() if str(p) == str(fifo) else real(p, *a, **k),
    )
    with pytest.raises(RuleError, match="FIFO"):
        _within(10, load_toml, fifo)


def test_a_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.toml"
    path.write_bytes("\ufeffname = 'bom'\nstacking = 'same'\n".encode())
    rs = load_toml(path)
    assert (rs.name, rs.stacking) == ("bom", "same")
    strat = tmp_path / "w.toml"
    strat.write_bytes(b"\xef\xbb\xbfstrategy = 'weighted'\n[weights]\n")
    r = invoke(
        "simulate",
        "--games",
        3,
        "--players",
        2,
        "--threads",
        1,
        "--no-progress",
        "--strategies",
        f"weighted:{strat}",
    )
    assert r.exit_code == 0, r.output


def test_binary_and_not_utf8_are_one_line(tmp_path):
    path = tmp_path / "bin.toml"
    path.write_bytes(b"name = '\xff\xfe'\n")
    one_line_error(invoke("rules", "show", path), "not UTF-8")
