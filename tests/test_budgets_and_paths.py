"""Hostile sizes and names: output names the file system refuses, design budgets past
their bounds, the ladder cache's files, the atlas permalink's keys.

Each case ends in one ``unosim: error:`` line naming the option (or file) and the
problem, exit code 2, with nothing written.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from unosim.cli.app import app

runner = CliRunner()


def _one_line_error(r, *words: str) -> str:
    assert r.exit_code == 2, (r.exit_code, r.output, r.exception)
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("unosim: error: "), r.output
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


# ------------------------------------------------------------ names the file system takes

LONG_NAME = "a" * 300
NOT_UTF8 = os.fsdecode(b"x\xffy")  # the surrogate-escaped name a non-UTF-8 argv byte gives

WRITERS = {
    "simulate": ["simulate", "--games", "10", "--no-progress", "--out"],
    "match": ["match", "--matches", "2", "--no-progress", "--out"],
    "compare": ["compare", "official", "stacking", "--games", "10", "--out"],
    "tournament": [
        "tournament",
        "--strategies",
        "random,heuristic",
        "--players",
        "2",
        "--games",
        "10",
        "--out",
    ],
    "tune": ["tune", "--budget", "1000", "--out"],
    "report": ["report", "official", "--games", "10", "--no-progress", "--out"],
    "design": ["design", "--target", "turns=30..40", "--budget", "1000", "--no-progress", "--out"],
    "evaluate": ["evaluate", "random", "--games", "8", "--expert-games", "4", "--out"],
}


def _bad_names(tmp: Path) -> dict[str, tuple[str, str]]:
    deep = tmp.joinpath(*["b" * 200] * 25)  # 5,000 bytes and more
    return {
        "long name": (LONG_NAME + ".parquet", "too long"),
        "long folder": (LONG_NAME, "too long"),
        "long path": (str(deep) + ".parquet", "4,095"),
        "not UTF-8": (NOT_UTF8 + ".parquet", "not UTF-8"),
        "not UTF-8 folder": (NOT_UTF8, "not UTF-8"),
    }


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_bad_out_names_are_one_line_errors(command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for label, (name, why) in _bad_names(tmp_path).items():
        r = runner.invoke(app, WRITERS[command] + [name])
        _one_line_error(r, "--out", why)
        assert not list(tmp_path.iterdir()), (command, label, list(tmp_path.iterdir()))


def test_bad_from_names_are_one_line_errors(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name, why in [(LONG_NAME + ".parquet", "too long"), (NOT_UTF8, "not UTF-8")]:
        r = runner.invoke(app, ["replay", "--from", name])
        _one_line_error(r, "--from", why)


def test_check_path_name_accepts_ordinary_names(tmp_path):
    from unosim.sim.results import check_path_name

    check_path_name(tmp_path / "results.parquet")
    check_path_name(tmp_path / ("é" * 120))  # 240 bytes of UTF-8
    with pytest.raises(ValueError, match="too long"):
        check_path_name(tmp_path / ("é" * 128))  # 256 bytes
    with pytest.raises(ValueError, match="NUL"):
        check_path_name("a\0b")


# ------------------------------------------------------------------ design budgets


@pytest.mark.parametrize(
    "option, value, bound",
    [
        ("--budget", str(10**15), "100,000,000"),
        ("--budget", str(10**11), "100,000,000"),
        ("--confirm-games", str(10**13), "10,000,000"),
        ("--finalists", str(10**6), "100"),
    ],
)
def test_design_budgets_are_bounded_before_any_work(option, value, bound, tmp_path):
    out = tmp_path / "d"
    r = runner.invoke(
        app,
        ["design", "--target", "turns=30..40", option, value, "--out", str(out), "--no-progress"],
    )
    _one_line_error(r, option, bound)
    assert not out.exists()


def test_design_space_past_its_bound(tmp_path):
    from unosim.analysis import design as ds

    # about 4e18 rule sets: more than 2^63, which numpy's sampling cannot count
    wide = (
        "hand_size=1..1000,uno_penalty=0..100,challenge_penalty=0..100,deck.skip=0..127,"
        "deck.wild=0..127,deck.reverse=0..127,deck.draw_two=0..127,"
        "deck.wild_draw_four=0..127,stacking,draw_rule,after_draw"
    )
    with pytest.raises(ValueError, match=r"--vary: the space holds about 4.2e\+18 .*10\^18"):
        ds.parse_vary(wide)
    out = tmp_path / "d"
    r = runner.invoke(
        app,
        ["design", "--target", "turns=30..40", "--vary", wide, "--out", str(out), "--no-progress"],
    )
    _one_line_error(r, "--vary", "10^18")
    assert not out.exists()


@pytest.mark.parametrize("target", ["turns<=1" + "0" * 400, "points=-1" + "0" * 13 + "..5"])
def test_design_target_past_its_bound(target):
    from unosim.analysis import design as ds

    with pytest.raises(ValueError, match=r"past the bound of a target, \+-10\^12"):
        ds.parse_target(target)
    r = runner.invoke(app, ["design", "--target", target, "--out", "never", "--no-progress"])
    _one_line_error(r, "target", "10^12")


def test_design_candidates_of_many_rules_are_not_file_names():
    """A candidate changing every searchable rule is spelt in more than 255 characters:
    its rule set is built from its switches, never by trying the text as a file."""
    from unosim.analysis import design as ds
    from unosim.analysis.compare import parse_spec
    from unosim.game.rules import resolve

    every = (
        "stacking=progressive,seven_zero=true,jump_in=true,draw_rule=until_playable,"
        "multi_play=true,last_card=number,wd4_restriction=strict,after_draw=play,"
        "challenge=false,hand_size=9,uno_penalty=3,challenge_penalty=3,deck.skip=3,"
        "deck.reverse=3,deck.draw_two=3,deck.wild=6,deck.wild_draw_four=6"
    )
    vary = ds.parse_vary(every)
    assert len(vary) == 17
    cands, total, invalid, _ = ds.candidates("official", {}, vary, 4, 60_000, 2, 0)
    long = [c for c in cands if len(c.spec) > 255]
    assert long and total == 1 and invalid == 0
    for c in cands:
        assert c.rules.name == c.spec
        assert c.rules.hash() == resolve("official", c.spec.partition("+")[2] or None).hash()
    with pytest.raises(OSError):  # what the old code did with such a spec
        parse_spec(long[0].spec)


def test_design_plays_in_pieces(monkeypatch):
    """The rounds of a rung are played a piece at a time (the kernel's records of one
    piece held at once): the same columns as in one go."""
    from unosim.analysis import design as ds
    from unosim.game.rules import resolve

    player = ds.Rounds(4, "random", 1, None)
    job = player.job(resolve("official"), 7)
    whole = player.play(job, 10, 2500)
    monkeypatch.setattr(ds, "PLAY_PIECE", 1000)
    pieces = player.play(job, 10, 2500)
    for c in ds.COLUMNS:
        assert (whole[c] == pieces[c]).all()
    assert player.played == 5000


# ------------------------------------------------------------------- the ladder cache


def _never_called_agent(obs):  # an agent object: its rows are never cached
    raise AssertionError("the stubbed ladder plays no game")


def _stub_ladder(monkeypatch, cache: Path):
    """``ladder`` with every row's games replaced by a count (no kernel), recording the
    rows played; returns a function running it in a thread (``None`` if it hangs)."""
    import threading

    from unosim.analysis import evaluate as E

    played: list = []

    def fake_wins(player, opponent, rules, n, per_seat, seed, house):
        played.append((player, opponent))
        return (n * per_seat) // 3, n * per_seat

    monkeypatch.setattr(E, "_wins", fake_wins)

    def run():
        box: dict = {}

        def go():
            box["ladder"] = E.ladder(
                _never_called_agent,
                "official",
                2,
                games=200,
                seed=5,
                opponents=("random",),
                expert_games=8,
                expert="expert:rollouts=16;more=1",
                cache=cache,
            )

        t = threading.Thread(target=go, daemon=True)
        t.start()
        t.join(timeout=30)
        return box.get("ladder")

    return run, played


def _row_file(cache: Path, monkeypatch, player: str = "random") -> Path:
    """The cache file of built-in ``player``'s row against 1 random."""
    import hashlib
    import json

    from unosim.analysis import evaluate as E

    key = E._row_key(player, "random", "official", 2, 100, 5, None)
    name = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:32]
    return cache / f"{name}.json"


@pytest.mark.parametrize("hostile", ["nested", "fifo", "dev-zero", "forged", "big"])
def test_hostile_cache_files_are_refused_and_played_again(hostile, tmp_path, monkeypatch):
    import json

    run, played = _stub_ladder(monkeypatch, tmp_path)
    first = run()
    assert first is not None and first.kept == 0
    f = _row_file(tmp_path, monkeypatch)
    assert f.is_file()
    n_rows = len(played)
    again = run()
    assert again.kept == n_rows - 1 and len(played) == n_rows + 1  # the agent row again
    text = f.read_text()
    f.unlink()
    if hostile == "nested":
        f.write_text("[" * 100_000 + "]" * 100_000)
    elif hostile == "fifo":
        os.mkfifo(f)
    elif hostile == "dev-zero":
        f.symlink_to("/dev/zero")
    elif hostile == "big":
        f.write_text(text[:-1] + " " * 10_000_000 + "}")
    else:  # the right key, a count that fits, another number of rounds won
        row = json.loads(text)
        row["won"] = row["played"]
        f.write_text(json.dumps(row))
    played.clear()
    redone = run()
    assert redone is not None, "the ladder hangs on a hostile cache file"
    assert ("random", "random") in played  # played again, not read
    assert redone.table.equals(first.table)
    notes = getattr(redone, "notes", ())
    assert ("random", "random") not in redone.cached
    assert len(notes) == 1 and str(f) in notes[0], notes
    assert "played again" in notes[0]


def test_ladder_says_which_rows_came_from_the_cache(tmp_path, monkeypatch):
    from unosim.analysis import evaluate as E
    from unosim.report.ladder_page import Made, write_page

    run, _ = _stub_ladder(monkeypatch, tmp_path)
    first, again = run(), run()
    assert not first.cached and again.cached
    text = E.render(again, 2)
    marked = [ln for ln in text.splitlines() if ln.endswith("(cache)")]
    assert len(marked) == len(again.cached) > 0
    assert "(cache)" not in E.render(first, 2)
    out = tmp_path / "page"
    out.mkdir()
    write_page(again, out, Made("heuristic", "heuristic", "official", 2, 5, "unosim x", {}))
    md = (out / "ladder.md").read_text()
    assert md.count("earlier (cache)") == len(again.cached)
    assert "read from the cache of an earlier ladder" in md


# ------------------------------------------------------------------- atlas permalinks

ROOT = Path(__file__).resolve().parent.parent
ATLAS = ROOT / "reports" / "atlas.html"
PROTOTYPE_KEYS = ["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf"]


def _check_pages():
    import importlib.util
    import shutil

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(chromium).exists():
        pytest.skip("no chromium")
    spec = importlib.util.spec_from_file_location("check_pages", ROOT / "tools" / "check_pages.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod, chromium


def test_atlas_script_reads_only_own_keys():
    from unosim.report.atlas_js import SCRIPT

    assert "in CFG.strategies" not in SCRIPT
    assert SCRIPT in ATLAS.read_text(encoding="utf-8")  # the committed page runs this script


def test_atlas_permalinks_with_prototype_keys_fall_back_with_a_note():
    """``#strategies=toString`` and the like: the default choice and a note saying the
    link names nothing, with no script error (an uncaught TypeError left the page half
    built)."""
    cp, chromium = _check_pages()
    br = cp.Browser(chromium)
    try:
        target, sid = cp.open_tab(br)
        base = ATLAS.resolve().as_uri()
        fragments = [f"strategies={k}" for k in PROTOTYPE_KEYS]
        fragments += [f"rules=official&players=4&strategies=random&q={k}" for k in PROTOTYPE_KEYS]
        for frag in fragments:
            br.events.clear()
            br.call("Page.navigate", {"url": "about:blank"}, session=sid)
            br.call("Page.navigate", {"url": f"{base}#{frag}"}, session=sid)
            got = cp.wait_render(br, sid, "")
            assert got["rendered"] == "rules=official&players=4&strategies=random", (frag, got)
            assert "does not name a choice" in got["error"], (frag, got["error"])
            assert not cp.event_problems(br.events), (frag, cp.event_problems(br.events))
        br.call("Target.closeTarget", {"targetId": target})
    finally:
        br.close()


def test_long_rule_texts_are_not_tried_as_file_names():
    """A rule-set spec or a preset name longer than a file name may be is an unknown
    preset (one line), or a rule set spelt in switches: never an OSError."""
    from unosim.analysis.compare import parse_spec

    every = (
        "official+stacking=progressive,seven_zero=true,jump_in=true,draw_rule=until_playable,"
        "multi_play=true,last_card=number,wd4_restriction=strict,challenge=false,hand_size=9,"
        "uno_penalty=3,challenge_penalty=3,deck.skip=3,deck.reverse=3,deck.draw_two=3,"
        "deck.wild=6,deck.wild_draw_four=6"
    )
    assert len(every) > 255 and parse_spec(every).name == every
    r = runner.invoke(app, ["rules", "show", LONG_NAME])
    _one_line_error(r, "unknown preset")
    r = runner.invoke(app, ["rules", "show", LONG_NAME + ".toml"])
    _one_line_error(r, "rule file")
