"""Tests of the ``unosim`` command line (unosim.cli.app.app) through typer's CliRunner, plus
one real call of the installed console script.

Games are kept small: the kernel is compiled once per process (cached on disk after).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib
from typer.testing import CliRunner

import unosim
from unosim.cli.app import app
from unosim.game.rules import OFFICIAL, PRESETS, RULE_NAMES, load_toml
from unosim.sim.results import read_manifest, read_results

runner = CliRunner()

# RULES.md section 6, per round; hand_points_{s} and hand_size_{s} for every seat
SECTION_6 = [
    "winner",
    "first_player",
    "turns",
    "cards_played",
    "cards_drawn",
    "reshuffles",
    "points",
    "max_stack",
    "challenges",
    "bluffs",
    "uno_penalties",
    "truncated",
]
PRESET_NAMES = [
    "official",
    "official-2018",
    "pokemon",
    "motu",
    "copag",
    "portugal",
    "stacking",
    "progressive",
    "seven-zero",
    "jump-in",
    "draw-until-playable",
]


def invoke(*args: str):
    return runner.invoke(app, [str(a) for a in args])


# --------------------------------------------------------------------------- simulate


@pytest.fixture(scope="module")
def sim(tmp_path_factory):
    """One `simulate --games 2000 --seed 1 --out ...` run shared by several tests."""
    out = tmp_path_factory.mktemp("sim") / "official.parquet"
    result = invoke("simulate", "--games", 2000, "--seed", 1, "--out", out)
    return result, out


def test_simulate_exits_cleanly(sim):
    result, _ = sim
    assert result.exit_code == 0, result.output
    assert result.exception is None
    # only the one-off compile note (a cold numba cache) may go to stderr
    assert all(line.startswith("compiled ") for line in result.stderr.splitlines())


def test_simulate_prints_the_summary(sim):
    result, out = sim
    text = result.stdout
    lines = text.splitlines()
    assert "official" in lines[0] and OFFICIAL.hash() in lines[0]
    # the display name for the reader, then the rule syntax that gives it
    assert lines[0].startswith("unosim Official UNO = official (rules ")
    assert "4 players" in lines[0] and "seed 1" in lines[0]
    assert "random,random,random,random" in lines[0]
    games = next(ln for ln in lines if ln.startswith("games"))
    assert "2,000" in games
    m = re.search(r"([\d,]+) games/s", games)
    assert m and int(m.group(1).replace(",", "")) > 0
    assert re.search(r"\d+ ns/turn", games)
    # one line per seat: rate and a Wilson interval around it
    seat_lines = [ln for ln in lines if re.match(r"\s+seat \d", ln)]
    assert len(seat_lines) == 4
    rates = []
    for s, ln in enumerate(seat_lines):
        m = re.match(r"\s+seat (\d+)\s+([\d.]+)\s+\[([\d.]+), ([\d.]+)\]$", ln)
        assert m, ln
        assert int(m.group(1)) == s
        rate, lo, hi = map(float, m.groups()[1:])
        assert 0 <= lo <= rate <= hi <= 1
        assert 0.1 < rate < 0.4  # four random players: about 1/4 each
        rates.append(rate)
    assert sum(rates) == pytest.approx(1.0, abs=0.005)
    turns = next(ln for ln in lines if ln.startswith("turns"))
    m = re.search(r"mean ([\d.]+) \[([\d.]+), ([\d.]+)\], median ([\d.]+)", turns)
    assert m, turns
    mean, lo, hi, median = map(float, m.groups())
    assert lo <= mean <= hi and median > 0
    pts = next(ln for ln in lines if ln.startswith("points"))
    m = re.search(r"mean ([\d.]+) \[([\d.]+), ([\d.]+)\]", pts)
    assert m, pts
    assert float(m.group(2)) <= float(m.group(1)) <= float(m.group(3))
    trunc = next(ln for ln in lines if ln.startswith("truncated"))
    assert re.match(r"truncated\s+\d+", trunc)
    assert str(out) in lines[-1]


def test_simulate_summary_matches_the_data(sim):
    result, out = sim
    df = read_results(out)
    lines = result.stdout.splitlines()
    turns = next(ln for ln in lines if ln.startswith("turns"))
    assert f"median {df['turns'].median():g}" in turns
    assert f"mean {df['turns'].mean():.2f}" in turns
    seat_lines = [ln for ln in lines if re.match(r"\s+seat \d", ln)]
    for s, ln in enumerate(seat_lines):
        assert f"{(df['winner'] == s).mean():.4f}" in ln
    trunc = next(ln for ln in lines if ln.startswith("truncated"))
    assert f"{int(df['truncated'].sum()):,}" in trunc


def test_simulate_writes_manifest(sim):
    _, out = sim
    assert out.is_file()
    m = read_manifest(out)
    for key in (
        "rules_toml",
        "rules_hash",
        "seed",
        "games",
        "players",
        "strategies",
        "unosim_version",
        "numba_version",
        "numpy_version",
        "rng",
    ):
        assert key in m, key
    assert m["rules_hash"] == OFFICIAL.hash()
    assert m["seed"] == 1
    assert m["games"] == 2000
    assert m["players"] == 4
    assert m["strategies"] == ["random"] * 4
    assert m["unosim_version"] == unosim.__version__
    assert m["numba_version"] == numba.__version__
    assert m["numpy_version"] == np.__version__
    assert isinstance(m["rng"], str) and m["rng"]
    # the stored rules load back to the same rule set
    rules = tomllib.loads(m["rules_toml"])
    assert rules["hand_size"] == 7
    back = load_toml(_write(out.parent / "back.toml", m["rules_toml"]))
    assert back == OFFICIAL and back.hash() == m["rules_hash"]


def test_simulate_parquet_has_section_6_columns(sim):
    _, out = sim
    df = read_results(out)
    assert len(df) == 2000
    expected = (
        set(SECTION_6)
        | {f"hand_points_{s}" for s in range(4)}
        | {f"hand_size_{s}" for s in range(4)}
    )
    assert expected <= set(df.columns)
    assert not any(c.endswith(("_4", "_5")) for c in df.columns)  # only the 4 seats
    assert df["truncated"].dtype == bool
    assert df["winner"].between(-1, 3).all()
    assert ((df["winner"] == -1) == df["truncated"]).all()
    assert df["first_player"].between(0, 3).all()
    won = df[~df["truncated"]]
    for s in range(4):
        assert (won.loc[won["winner"] == s, f"hand_size_{s}"] == 0).all()
    assert (df["points"] >= 0).all()
    hp = df[[f"hand_points_{s}" for s in range(4)]].sum(axis=1)
    assert (won["points"] == hp[won.index]).all()  # winner takes all
    assert df.attrs["manifest"]["games"] == 2000


def test_simulate_is_reproducible_with_the_seed(tmp_path):
    a = invoke(
        "simulate",
        "--games",
        300,
        "--seed",
        5,
        "--players",
        3,
        "--strategies",
        "heuristic,random,random",
        "--threads",
        1,
        "--out",
        tmp_path / "a.parquet",
    )
    b = invoke(
        "simulate",
        "--games",
        300,
        "--seed",
        5,
        "--players",
        3,
        "--strategies",
        "heuristic,random,random",
        "--out",
        tmp_path / "b.parquet",
    )
    assert a.exit_code == 0 and b.exit_code == 0, a.output + b.output
    da, db = read_results(tmp_path / "a.parquet"), read_results(tmp_path / "b.parquet")
    assert da.equals(db)
    m = read_manifest(tmp_path / "a.parquet")
    assert m["strategies"] == ["heuristic", "random", "random"]
    assert m["players"] == 3


def test_simulate_with_toml_rules_and_house(tmp_path):
    rules = _write(
        tmp_path / "rules" / "numbers.toml",
        "[deck]\nskip = 0\nreverse = 0\ndraw_two = 0\nwild = 0\nwild_draw_four = 0\n",
    )
    out = tmp_path / "out" / "n.parquet"  # a missing directory is created
    r = invoke(
        "simulate",
        "--rules",
        rules,
        "--house",
        "seven_zero=true",
        "--games",
        200,
        "--players",
        2,
        "--seed",
        2,
        "--out",
        out,
    )
    assert r.exit_code == 0, r.output
    m = read_manifest(out)
    back = load_toml(_write(tmp_path / "back.toml", m["rules_toml"]))
    assert back.seven_zero is True and back.deck_size() == 76
    assert m["rules_hash"] == back.hash()


def test_simulate_without_out_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = invoke("simulate", "--games", 50, "--players", 2)
    assert r.exit_code == 0, r.output
    assert "wrote" not in r.stdout
    assert list(tmp_path.iterdir()) == []


def test_console_script_subprocess(sim):
    exe = Path(sys.executable).with_name("unosim")
    if not exe.exists():
        exe = Path(shutil.which("unosim") or "unosim")
    proc = subprocess.run(
        [str(exe), "simulate", "--games", "2000", "--seed", "1"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    assert "games/s" in proc.stdout
    # same seed, same results: the seat lines equal the in-process run's
    seats = [ln for ln in proc.stdout.splitlines() if re.match(r"\s+seat \d", ln)]
    expected = [ln for ln in sim[0].stdout.splitlines() if re.match(r"\s+seat \d", ln)]
    assert seats == expected and len(seats) == 4
    bad = subprocess.run(
        [str(exe), "simulate", "--rules", "nosuch"], capture_output=True, text=True, timeout=600
    )
    assert bad.returncode != 0
    assert bad.stdout == ""
    assert bad.stderr.startswith("unosim: error: ") and bad.stderr.count("\n") == 1
    assert "Traceback" not in bad.stderr


# ------------------------------------------------------------------------- bad input


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def assert_user_error(result, *words: str) -> str:
    """Non-zero exit, exactly one `unosim: error: ...` line on stderr, no traceback."""
    assert result.exit_code != 0, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    err = result.stderr
    assert err.startswith("unosim: error: "), err
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert result.stdout == ""
    for w in words:
        assert w in err, (w, err)
    return err


@pytest.fixture
def outdir(tmp_path):
    """Where a failing run is told to write: it must stay absent."""
    d = tmp_path / "out"
    yield d / "x.parquet"
    assert not d.exists(), list(d.iterdir())


def _rules_file(tmp_path, text):
    return _write(tmp_path / "rules" / "r.toml", text)


BAD_ARGS = {
    "unknown preset": (["--rules", "nosuch"], ["nosuch"]),
    "players 1": (["--players", 1], ["players"]),
    "players 11": (["--players", 11], ["players"]),
    "players 0": (["--players", 0], ["players"]),
    "games 0": (["--games", 0], ["games"]),
    "games -5": (["--games", -5], ["games"]),
    "seed -1": (["--seed", -1], ["seed"]),
    "threads 0": (["--threads", 0], ["threads"]),
    "unknown strategy": (["--strategies", "genius"], ["genius"]),
    "unknown strategy in list": (["--strategies", "random,genius,random,random"], ["genius"]),
    "unknown strategy param": (["--strategies", "heuristic:bluf=0.2"], ["bluf"]),
    "bad probability": (["--strategies", "heuristic:bluff=1.2"], ["bluff"]),
    "wrong number of strategies": (
        ["--strategies", "random,heuristic"],
        ["2 strategies", "4 players"],
    ),
    "too many strategies": (
        ["--players", 2, "--strategies", "random,random,random"],
        ["3 strategies", "2 players"],
    ),
    "house unknown rule": (["--house", "stackin=same"], ["stackin"]),
    "house deck": (["--house", "deck=1"], ["deck"]),
    "house no value": (["--house", "stacking"], ["stacking"]),
    "house bad value": (["--house", "stacking=sometimes"], ["stacking"]),
    "house bad bool": (["--house", "jump_in=perhaps"], ["jump_in"]),
    "missing toml": (["--rules", "absent.toml"], ["absent.toml"]),
}


@pytest.mark.parametrize("case", list(BAD_ARGS))
def test_simulate_bad_input(case, outdir):
    args, words = BAD_ARGS[case]
    r = invoke("simulate", "--games", 20, *args, "--out", outdir)
    assert_user_error(r, *words)


BAD_TOML = {
    "misspelt key": ("hand_sise = 7\n", ["hand_sise"]),
    "misspelt table": ("[decks]\nwild = 4\n", ["decks"]),
    "wrong type bool": ("seven_zero = 1\n", ["seven_zero"]),
    "wrong type choice": ("stacking = 3\n", ["stacking"]),
    "wrong type int": ("hand_size = 7.5\n", ["hand_size"]),
    "impossible value": ('stacking = "sometimes"\n', ["stacking"]),
    "hand_size 0": ("hand_size = 0\n", ["hand_size"]),
    "unknown deck entry": ("[deck]\npurple = 2\n", ["purple"]),
    "unknown points entry": ("[points]\nplus_four = 2\n", ["plus_four"]),
    "unknown base preset": ('preset = "nosuch"\n', ["nosuch"]),
    "syntax error": ("hand_size = = 7\n", ["r.toml"]),
    "hand_size too big for the deck": ("hand_size = 30\n", ["hand_size", "30"]),
}


@pytest.mark.parametrize("case", list(BAD_TOML))
def test_simulate_bad_toml(case, tmp_path, outdir):
    text, words = BAD_TOML[case]
    rules = _rules_file(tmp_path, text)
    r = invoke("simulate", "--rules", rules, "--players", 4, "--games", 20, "--out", outdir)
    assert_user_error(r, *words)


def test_simulate_toml_text_for_int_is_rejected(tmp_path):
    rules = _rules_file(tmp_path, 'hand_size = "7"\n')
    r = invoke("simulate", "--rules", rules, "--games", 20)
    assert_user_error(r, "hand_size")


def test_simulate_toml_list_preset_is_a_user_error(tmp_path):
    rules = _rules_file(tmp_path, 'preset = ["copag"]\n')
    r = invoke("simulate", "--rules", rules, "--games", 20)
    assert_user_error(r, "preset")


def test_simulate_toml_huge_points_is_a_user_error(tmp_path):
    rules = _rules_file(tmp_path, "[points]\nwild = 40000\n")
    r = invoke("simulate", "--rules", rules, "--games", 20)
    assert_user_error(r, "points")


def test_simulate_hand_size_fits_with_fewer_players(tmp_path):
    # the same hand_size = 30 file is fine for 3 players: 3 * 30 + 1 + 4 = 95 <= 108
    rules = _rules_file(tmp_path, "hand_size = 30\n")
    r = invoke("simulate", "--rules", rules, "--players", 3, "--games", 20)
    assert r.exit_code == 0, r.output


@pytest.fixture
def unwritable_out(tmp_path):
    """An --out path that cannot be written: under a read-only directory, or (as root,
    where permissions are not enforced) under an existing file."""
    ro = tmp_path / "readonly"
    ro.mkdir()
    ro.chmod(0o500)
    probe = ro / "probe"
    try:
        probe.touch()
    except PermissionError:
        enforced = True
    else:
        probe.unlink()
        enforced = False
    if enforced:
        target, watch = ro / "x.parquet", ro
    else:
        somefile = tmp_path / "somefile"
        somefile.write_text("not a directory\n")
        target, watch = somefile / "x.parquet", tmp_path
    before = sorted(p.name for p in watch.iterdir())
    yield target
    assert sorted(p.name for p in watch.iterdir()) == before
    ro.chmod(0o700)


def test_simulate_out_not_writable(unwritable_out):
    r = invoke("simulate", "--games", 20, "--out", unwritable_out)
    assert_user_error(r, "--out")
    assert not unwritable_out.exists()


def test_simulate_out_deeper_under_a_file(tmp_path):
    f = _write(tmp_path / "somefile", "x\n")
    r = invoke("simulate", "--games", 20, "--out", f / "a" / "b.parquet")
    assert_user_error(r, "--out")
    assert f.read_text() == "x\n"


def test_simulate_out_is_a_directory(tmp_path):
    d = tmp_path / "adir.parquet"  # --out DIR without .parquet is a dataset folder
    d.mkdir()
    r = invoke("simulate", "--games", 20, "--out", d)
    assert_user_error(r, "directory")
    assert list(d.iterdir()) == []


def test_failed_run_leaves_an_existing_out_file_alone(tmp_path):
    out = _write(tmp_path / "old.parquet", "old contents")
    r = invoke("simulate", "--games", 20, "--players", 11, "--out", out)
    assert_user_error(r, "players")
    assert out.read_text() == "old contents"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.parquet"]


# ------------------------------------------------------------------------------ rules


def test_rules_list():
    r = invoke("rules", "list")
    assert r.exit_code == 0, r.output
    lines = r.stdout.strip().splitlines()
    assert [ln.split()[0] for ln in lines] == PRESET_NAMES
    for ln in lines:
        name = ln.split()[0]
        assert re.search(rf"\b{PRESETS[name].deck_size()} cards", ln)
    sizes = {ln.split()[0]: int(ln.split()[1]) for ln in lines}
    assert sizes["official"] == 108 and sizes["motu"] == 112
    assert sizes["official-2018"] == 112 and sizes["pokemon"] == 112


def test_rules_show_official():
    r = invoke("rules", "show", "official")
    assert r.exit_code == 0, r.output
    text = r.stdout
    assert OFFICIAL.hash() in text.splitlines()[0]
    assert "108 cards" in text.splitlines()[0]
    for key in RULE_NAMES:
        if key in ("deck", "points"):
            assert f"[{key}]" in text
        elif key == "cards":  # official declares none: the table is described, not written
            assert re.search(r"^# .*declared cards", text, re.M), text
            assert not re.search(r"^\[cards\.", text, re.M)
        else:
            assert re.search(rf"^{key} = ", text, re.M), key
    # the whole output is TOML (the header is a comment) describing `official`
    data = tomllib.loads(text)
    assert data == OFFICIAL.to_dict()
    for entry in OFFICIAL.deck_dict:
        assert entry in data["deck"]


def test_rules_show_default_is_official():
    assert invoke("rules", "show").stdout == invoke("rules", "show", "official").stdout


def test_rules_show_with_house():
    r = invoke("rules", "show", "official", "--house", "stacking=same")
    assert r.exit_code == 0, r.output
    assert re.search(r'^stacking = "same"$', r.stdout, re.M)
    assert PRESETS["stacking"].hash() in r.stdout.splitlines()[0]
    data = tomllib.loads(r.stdout)
    assert data["stacking"] == "same"
    assert {k: v for k, v in data.items() if k != "name"} == PRESETS["stacking"].to_dict(
        with_name=False
    )


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_rules_show_every_preset(name):
    r = invoke("rules", "show", name)
    assert r.exit_code == 0, r.output
    assert PRESETS[name].hash() in r.stdout
    assert tomllib.loads(r.stdout)["name"] == name


def test_rules_show_toml_file(tmp_path):
    p = _write(tmp_path / "mine.toml", 'preset = "copag"\nuno_penalty = 1\n')
    r = invoke("rules", "show", p)
    assert r.exit_code == 0, r.output
    data = tomllib.loads(r.stdout)
    assert data["name"] == "mine" and data["uno_penalty"] == 1
    assert data["multi_play"] is True


@pytest.mark.parametrize(
    "args,word",
    [
        (["nosuch"], "nosuch"),
        (["official", "--house", "nosuch=1"], "nosuch"),
    ],
)
def test_rules_show_errors(args, word):
    r = invoke("rules", "show", *args)
    assert_user_error(r, word)


def test_no_args_shows_help():
    r = invoke()
    assert "simulate" in r.output and "rules" in r.output


def test_strategies_lists_every_player_on_one_line():
    from unosim.players.expert import NAME as EXPERT
    from unosim.players.strategies import STRATEGIES

    r = CliRunner().invoke(app, ["strategies"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert [ln.split()[0] for ln in lines] == [*STRATEGIES, EXPERT]  # one line each
    for ln in lines:
        name, sentence = ln.split(None, 1)
        assert sentence[0].isupper() and sentence.endswith("."), ln  # one sentence
        assert sentence.count(". ") == 0 and len(ln) <= 160, ln
    from unosim.players.seats import parse

    for name in [*STRATEGIES, EXPERT]:  # each one it lists is a player --strategies takes
        parse(name, 2)
