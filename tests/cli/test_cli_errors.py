"""Errors in a blink: near-miss names, the file and line of every error of a rule file,
``--help`` that never cuts a sentence, and how long ``unosim --help`` and a one-line
error take (benchmarks/cli_latency.py, with a generous bound)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from typer.testing import CliRunner

from unosim.cli.app import app
from unosim.game.rules import PRESETS, RuleError, load_toml, resolve
from unosim.game.spelling import PRESET_NAMES, closest, precheck_rules

runner = CliRunner()


def error_line(*args: str) -> str:
    """The one ``unosim: error:`` line of a command that must fail with exit code 2."""
    r = runner.invoke(app, [str(a) for a in args])
    assert r.exit_code == 2, r.output
    err = r.stderr
    assert err.startswith("unosim: error: ") and err.count("\n") == 1, err
    return err


@pytest.mark.parametrize(
    "command", ["simulate", "match", "compare", "report", "design", "tournament", "tune"]
)
def test_threads_zero_is_refused_at_once_by_every_command(command):
    """``--threads`` is one shared option, checked as the command line is read: the same
    line from every command that takes it, before any other work or missing input."""
    err = error_line(command, "--threads", 0)
    assert err == "unosim: error: --threads must be at least 1, got 0\n", err


def test_preset_names_known_without_numba_are_the_presets():
    assert PRESET_NAMES == tuple(PRESETS)


@pytest.mark.parametrize(
    "typed, meant",
    [("stackng", "stacking"), ("sevenzero", "seven-zero"), ("oficial", "official")],
)
def test_closest_preset(typed, meant):
    assert closest(typed, PRESET_NAMES) == meant


def test_no_suggestion_for_a_far_name():
    assert closest("banana", PRESET_NAMES) is None
    assert "did you mean" not in precheck_rules("banana")


def test_misspelt_preset_did_you_mean():
    err = error_line("simulate", "--rules", "stackng", "--games", 10)
    assert "did you mean 'stacking'" in err


def test_missing_rule_file_did_you_mean_preset(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    err = error_line("simulate", "--rules", "stackng.toml", "--games", 10)
    assert "'stackng.toml' not found" in err and "did you mean preset 'stacking'" in err


def test_missing_rule_file_did_you_mean_a_file_beside_it(tmp_path):
    (tmp_path / "family.toml").write_text('stacking = "same"\n')
    with pytest.raises(RuleError, match="did you mean '.*family.toml'"):
        resolve(str(tmp_path / "famliy.toml"))


def test_misspelt_house_rule_did_you_mean():
    err = error_line("simulate", "--house", "stackng=same", "--games", 10)
    assert "unknown rule 'stackng' (did you mean 'stacking'?)" in err


def test_every_error_of_a_rule_file_at_once_with_its_line(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text(
        '# our house\nname = "house"\nstackng = "same"\nseven_zero = "yes"\n\n[deck]\nwilld = 4\n'
    )
    with pytest.raises(RuleError) as e:
        load_toml(path)
    msg = str(e.value)
    assert "\n" not in msg
    assert msg.startswith(f"rule file {str(path)!r}: 3 errors: "), msg
    assert "line 3: unknown rule 'stackng' (did you mean 'stacking'?)" in msg
    assert "line 4: rule 'seven_zero'" in msg
    assert "line 6: unknown deck entry 'willd'" in msg


def test_one_error_names_file_and_line(tmp_path):
    path = tmp_path / "r.toml"
    path.write_text('hand_size = 7\n\npreset = "stackng"\n')
    with pytest.raises(RuleError) as e:
        load_toml(path)
    assert str(e.value) == (
        f"rule file {str(path)!r}, line 3: unknown preset 'stackng' (did you mean 'stacking'?)"
    )


def test_help_lists_whole_first_sentences():
    r = runner.invoke(app, ["--help"], env={"COLUMNS": "80"})
    assert r.exit_code == 0
    listed = r.stdout.split("Commands:")[1]
    assert "..." not in listed  # click's own list cuts a sentence at the width
    assert "on the same deals." in " ".join(r.stdout.split())


def test_help_and_an_error_come_quickly():
    """Median of 5 starts, after a warm-up: under 1.0 s of CPU each (the idle
    machine's wall time) and, generously for a loaded machine, under 8 s of wall
    time. A command that imports numba or pandas takes 2-3 s of CPU."""
    sys.path.insert(0, "benchmarks")
    try:
        import cli_latency
    finally:
        sys.path.remove("benchmarks")
    for label, (wall, _, cpu) in cli_latency.medians(5).items():
        assert cpu < 1.0, (label, cpu)
        assert wall < 8.0, (label, wall)
    _, _, done = cli_latency.time_command(["simulate", "--rules", "stackng.toml"], ".")
    assert done.returncode == 2 and "did you mean preset 'stacking'" in done.stderr


def test_import_unosim_loads_neither_numba_nor_pandas():
    code = "import sys, unosim.cli.app; print(any(m in sys.modules for m in ('numba', 'pandas')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
