"""Replays (unosim.sim.replay and ``unosim replay``): game G of a run played again alone gives
the run's own row; the trace reads as text and as JSON; games are picked from a results
file with a condition; bad input is a one-line error with exit code 2."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from typer.testing import CliRunner

import unosim
from unosim.cli.app import app
from unosim.game.rules import PRESETS, apply
from unosim.kernel.core import layout as L
from unosim.sim.replay import (
    ReplayError,
    events,
    format_text,
    plan_replays,
    replay,
    replay_job,
    rules_from_manifest,
    to_json,
)
from unosim.sim.results import write_parquet
from unosim.sim.simulate import make_job, run_block
from unosim.versions import KERNEL_BEHAVIOUR_VERSION

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


# ------------------------------------------------------------------------- exactness
@pytest.mark.parametrize(
    "rules,players,strategies,seed",
    [
        ("stacking", 4, "random", 1),
        ("pokemon", 3, "heuristic,random,random:bluff=0.4;challenge=0.5;forget_uno=0.3", 7),
        (
            apply(
                PRESETS["official-2018"],
                {
                    "seven_zero": True,
                    "jump_in": True,
                    "multi_play": True,
                    "blank_card": "swap_hands",
                },
            ),
            5,
            "heuristic",
            11,
        ),
        ("motu", 2, "random", 2**40 + 3),
    ],
)
def test_replaying_game_g_gives_the_runs_row(rules, players, strategies, seed):
    job = make_job(rules, 400, players, strategies, seed)
    rows = run_block(job, 0, 400)
    for game in (0, 1, 57, 200, 399):
        rp = replay_job(job, game)
        np.testing.assert_array_equal(rp.out, rows[game])
        assert rp.violations == []


def test_replay_row_matches_simulate_frame():
    df = unosim.simulate("copag", 300, 4, "random", seed=5, threads=1)
    for game in (3, 150, 299):
        rp = replay("copag", 4, "random", 5, game)
        want = df.iloc[game].to_dict()
        got = rp.row
        assert {k: int(v) for k, v in want.items()} == {k: int(v) for k, v in got.items()}


def test_a_long_round_grows_the_trace_buffer():
    # a round of more events than the first buffer (4096 rows) is replayed whole
    rules = apply(PRESETS["official"], {"max_turns": 3000})
    job = make_job(rules, 1, 4, "random", 1)
    from unosim.sim import engine

    out, trace = engine.trace(job.kernel, 1, 0, capacity=16)
    assert len(trace) > 16 and trace[-1, L.EV_TYPE] in (L.E_WIN, L.E_TRUNCATED)


# ------------------------------------------------------------------------- text, JSON
@pytest.fixture(scope="module")
def stacking_game0():
    return replay("stacking", 4, "random", 1, 0)


def test_text_is_one_line_per_event(stacking_game0):
    rp = stacking_game0
    text = format_text(rp)
    lines = text.splitlines()
    assert lines[0].startswith("unosim replay: stacking (rules ")
    assert "4 players, strategies random,random,random,random, seed 1, game 0" in lines[0]
    body = [ln for ln in lines if ln[:4].strip().isdigit()]
    colours = (rp.trace[:, L.EV_TYPE] == L.E_COLOUR).sum()
    merged = sum(1 for ln in body if "→" in ln)
    assert len(body) == len(rp.trace) - merged  # a wild's colour shares its play's line
    assert "deal: 7 cards to each of 4 players" in body[0]
    assert merged <= colours
    assert any("wins the round" in ln for ln in body)
    assert lines[-1].startswith("checker  every one of the")
    assert "result   seat" in text and "counts   cards played" in text


def test_text_shows_wild_colours_and_hands():
    rp = replay("official", 4, "random", 3, 0)
    found = None
    for game in range(30):
        rp = replay("official", 4, "random", 3, game)
        text = format_text(rp, hands=True)
        if "W+4→" in text:
            found = text
            break
    assert found is not None, "no Wild Draw Four in 30 games"
    assert any(f"W+4→{c}" in found for c in ("red", "yellow", "green", "blue"))
    assert "seat 0 ( 7): " in found  # the dealt hands
    plain = format_text(rp)
    assert "seat 0 ( 7): " not in plain


def test_every_event_type_has_a_readable_line():
    rules = apply(
        PRESETS["official-2018"],
        {
            "deck": {"snorlax": 2, "greninja": 2, "grayskull": 4},
            "stacking": "progressive",
            "seven_zero": True,
            "jump_in": True,
            "multi_play": True,
            "max_turns": 300,
            "blank_card": "swap_hands",
        },
    )
    seen = set()
    for game in range(60):
        rp = replay(
            rules,
            3,
            "heuristic:bluff=0.3;challenge=0.6;forget_uno=0.4,random:"
            "forget_uno=0.5;bluff=0.5;challenge=1,heuristic",
            9,
            game,
        )
        assert rp.violations == []
        for line in format_text(rp).splitlines():
            if line[:4].strip().isdigit():
                event_text = line[18:70].strip()
                assert event_text not in L.EVENT_NAMES.values(), line  # no raw fallback
        seen.update(e["event"] for e in events(rp.trace, 3, with_hands=False))
    assert seen >= set(L.EVENT_NAMES.values()) - {"truncated", "drawn", "return"}


def test_json_has_every_event_with_its_state(stacking_game0):
    rp = stacking_game0
    doc = json.loads(json.dumps(to_json(rp)))
    assert doc["rules"] == "stacking" and doc["seed"] == 1 and doc["game"] == 0
    assert doc["players"] == 4 and doc["strategies"] == ["random"] * 4
    assert doc["row"] == rp.row and doc["violations"] == []
    evs = doc["events"]
    assert len(evs) == len(rp.trace)
    assert [e["i"] for e in evs] == list(range(len(evs)))
    assert evs[0]["event"] == "deal" and evs[0]["top"] is None
    assert [len(h) for h in evs[0]["hands"]] == [7, 7, 7, 7]
    assert evs[-1]["event"] == "win" and evs[-1]["seat"] == rp.row["winner"]
    assert evs[-1]["hands"][rp.row["winner"]] == []
    plays = [e for e in evs if e["event"] == "play"]
    assert plays and all(e["top"] == e["card"] for e in plays)
    for e in evs:
        assert e["turns"] <= rp.row["turns"]
        assert e["direction"] in (1, -1)


# ------------------------------------------------------------------------- the CLI
def test_cli_replays_a_game():
    r = invoke("replay", "--rules", "stacking", "--players", 4, "--seed", 1, "--game", 0)
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert out.startswith("unosim replay: stacking")
    assert "first card" in out and "wins the round" in out
    assert "checker  every one of the" in out


def test_cli_json():
    r = invoke("replay", "--rules", "pokemon", "--players", 3, "--seed", 2, "--game", 5, "--json")
    assert r.exit_code == 0, r.output
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 1
    doc = json.loads(lines[0])
    assert doc["game"] == 5 and doc["players"] == 3 and doc["events"][-1]["event"] == "win"


@pytest.fixture(scope="module")
def results_file(tmp_path_factory):
    df = unosim.simulate("stacking", 3000, 4, "random", seed=1, threads=1)
    path = tmp_path_factory.mktemp("replay") / "stacking.parquet"
    write_parquet(df, path, df.attrs["manifest"])
    return path, df


def test_cli_from_where_finds_and_prints_a_matching_game(results_file):
    path, df = results_file
    r = invoke("replay", "--from", path, "--where", "max_stack >= 12", "--limit", 1)
    assert r.exit_code == 0, r.output
    first = int(df[df["max_stack"] >= 12]["game"].iloc[0])
    count = int((df["max_stack"] >= 12).sum())
    assert f"{count:,} games matching 'max_stack >= 12'" in r.stdout
    assert f"seed 1, game {first}\n" in r.stdout
    stack = re.search(r"max stack (\d+),", r.stdout)
    assert stack and int(stack.group(1)) >= 12, r.stdout
    assert "checker  every one of the" in r.stdout


def test_from_where_limit_and_json(results_file):
    path, df = results_file
    reps, note = plan_replays(source=path, where="winner == 2 and turns < 20", limit=3)
    want = df.query("winner == 2 and turns < 20")["game"].head(3).tolist()
    assert [rp.game for rp in reps] == want
    for rp in reps:
        row = df[df["game"] == rp.game].iloc[0]
        assert rp.row["turns"] == int(row["turns"]) and rp.row["winner"] == 2
    r = invoke("replay", "--from", path, "--where", "game in [4, 8]", "--limit", 5, "--json")
    assert r.exit_code == 0, r.output
    docs = [json.loads(x) for x in r.stdout.strip().splitlines()]
    assert [d["game"] for d in docs] == [4, 8]


def one_line_error(r, code=2, *words):
    assert r.exit_code == code, r.output
    err = r.stderr.strip()
    assert len(err.splitlines()) == 1, err
    for w in words:
        assert w in err, err
    return err


def test_cli_bad_input_is_a_one_line_error(results_file, tmp_path):
    path, df = results_file
    err = one_line_error(invoke("replay", "--from", path, "--where", "max_stack >="), 2, "--where")
    assert err.startswith("unosim: error: ")
    one_line_error(
        invoke("replay", "--from", path, "--where", "no_such_column > 1"), 2, "no_such_column"
    )
    one_line_error(invoke("replay", "--from", path, "--where", "max_stack"), 2, "not a condition")
    plain = tmp_path / "plain.parquet"
    df.to_parquet(plain)
    one_line_error(invoke("replay", "--from", plain), 2, "no unosim manifest")
    junk = tmp_path / "junk.parquet"
    junk.write_text("not parquet")
    one_line_error(invoke("replay", "--from", junk), 2, "cannot read")
    one_line_error(invoke("replay", "--from", tmp_path / "missing.parquet"), 2, "no such")
    one_line_error(invoke("replay", "--from", path, "--seed", 3), 2, "drop --seed")
    one_line_error(invoke("replay", "--where", "turns > 3"), 2, "--where needs --from")
    one_line_error(invoke("replay", "--from", path, "--limit", 0), 2, "--limit")
    one_line_error(invoke("replay", "--rules", "nosuch"), 2, "unknown preset")
    one_line_error(invoke("replay", "--players", 11), 2, "players")
    one_line_error(invoke("replay", "--game", -1), 2, "game")
    r = invoke("replay", "--from", path, "--where", "max_stack > 500")
    assert r.exit_code == 1 and "no game" in r.stderr


def test_from_a_file_whose_rows_the_kernel_no_longer_gives(results_file, tmp_path):
    path, df = results_file
    bad = df.copy()
    bad.loc[bad["game"] == 10, "turns"] += 1
    other = tmp_path / "edited.parquet"
    write_parquet(bad, other, df.attrs["manifest"])
    with pytest.raises(ReplayError, match="replays differently"):
        plan_replays(source=other, where="game == 10")
    one_line_error(
        invoke("replay", "--from", other, "--where", "game == 10"), 2, "replays differently"
    )


def test_a_file_from_another_kernel_behaviour_is_refused(results_file, tmp_path):
    path, df = results_file
    assert df.attrs["manifest"]["kernel_behaviour"] == KERNEL_BEHAVIOUR_VERSION
    other = tmp_path / "future.parquet"
    write_parquet(
        df, other, {**df.attrs["manifest"], "kernel_behaviour": KERNEL_BEHAVIOUR_VERSION + 1}
    )
    err = one_line_error(
        invoke("replay", "--from", other, "--where", "game == 3"), 2, "kernel behaviour"
    )
    assert str(KERNEL_BEHAVIOUR_VERSION + 1) in err
    old = dict(df.attrs["manifest"])
    del old["kernel_behaviour"]  # files from before the version was recorded: behaviour 1
    older = tmp_path / "older.parquet"
    write_parquet(df, older, old)
    assert KERNEL_BEHAVIOUR_VERSION != 1  # raised since: such a file is refused too
    one_line_error(
        invoke("replay", "--from", older, "--where", "game == 3"), 2, "kernel behaviour 1"
    )


def test_rules_come_back_from_the_manifest():
    rs = apply(PRESETS["pokemon"], {"stacking": "same", "points": {"snorlax": 70}}, name="custom")
    job = make_job(rs, 10, 3, "random", 4)
    back = rules_from_manifest(job.manifest())
    assert back == rs
    m = job.manifest()
    m["rules_hash"] = "0" * 16
    with pytest.raises(ReplayError, match="hash"):
        rules_from_manifest(m)
