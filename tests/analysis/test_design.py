"""``unosim design``: targets, the search space, the search on common seeds, the
confirmation on fresh seeds, design.csv, the page and the card (small budgets)."""

from __future__ import annotations

import math
import re
import time

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import unosim
from unosim.analysis import design as ds
from unosim.analysis.compare import parse_spec
from unosim.cli.app import app
from unosim.game.names import display_rules
from unosim.game.rules import OFFICIAL, RuleError, parse_house, resolve
from unosim.report.design_page import card_html, check_out

runner = CliRunner()


# ------------------------------------------------------------------------ targets


@pytest.mark.parametrize(
    "text,metric,lo,hi",
    [
        ("turns=35..40", "turns", 35.0, 40.0),
        ("seat0_edge<=2pp", "seat0_edge", -math.inf, 2.0),
        ("seat0_edge <= 2", "seat0_edge", -math.inf, 2.0),
        ("seat0_edge=-1pp..2pp", "seat0_edge", -1.0, 2.0),
        ("stack8_share<=5%", "stack8_share", -math.inf, 5.0),
        ("truncated_share<=0.1%", "truncated_share", -math.inf, 0.1),
        ("turns_median>=30", "turns_median", 30.0, math.inf),
        ("points=100..150.5", "points", 100.0, 150.5),
    ],
)
def test_parse_target(text, metric, lo, hi):
    t = ds.parse_target(text)
    assert (t.metric, t.lo, t.hi) == (metric, lo, hi)


@pytest.mark.parametrize(
    "text,why",
    [
        ("turnz=35..40", "unknown metric 'turnz'"),
        ("turns=35", "give a range"),
        ("turns<=5%", "plain number"),
        ("seat0_edge<=2%", "in pp"),
        ("stack8_share<=5pp", "in %"),
        ("turns=40..35", "empty"),
        ("turns~40", "write NAME=LO..HI"),
        ("turns<=abc", "write NAME=LO..HI"),
        ("turns<=1..2", "takes '='"),
        ("", "write NAME=LO..HI"),
    ],
)
def test_parse_target_errors(text, why):
    with pytest.raises(RuleError) as e:
        ds.parse_target(text)
    msg = str(e.value)
    assert why in msg and "\n" not in msg
    assert f"target {text!r}" in msg  # names the target


def test_parse_targets_twice_and_none():
    with pytest.raises(RuleError, match="already bounded"):
        ds.parse_targets(["turns<=40", "turns>=35"])
    with pytest.raises(RuleError, match="at least one"):
        ds.parse_targets([])


def test_target_distance_and_margin():
    t = ds.parse_target("turns=35..40")
    assert t.distance(37) == 0 and t.distance(45) == 1.0  # 5 turns = 1 scale unit
    assert t.margin(37.0, 36.0, 38.0) > 0 > t.margin(42.0, 41.0, 43.0)


def test_measure_every_metric():
    cols = {
        "turns": np.array([10, 20, 30, 5000], np.int32),
        "winner": np.array([0, 1, 0, -1], np.int8),
        "points": np.array([100, 50, 30, 0], np.int32),
        "max_stack": np.array([8, 4, 12, 0], np.int16),
        "truncated": np.array([False, False, False, True]),
    }
    m = ds.measure(cols, 4, list(ds.METRICS))
    assert m["turns"][0] == pytest.approx(1265.0)  # a truncated round counts its turns
    assert m["turns_median"][0] == 25.0
    assert m["points"][0] == 45.0
    assert m["seat0_edge"][0] == pytest.approx(25.0)  # 2 of 4 rounds, fair share 25%: +25 pp
    assert m["stack8_share"][0] == pytest.approx(50.0)  # penalties of 8 and 12 cards
    assert m["truncated_share"][0] == pytest.approx(25.0)
    for est, lo, hi in m.values():
        assert lo <= est <= hi


def test_cli_bad_target_is_one_line(tmp_path):
    r = runner.invoke(app, ["design", "--target", "turns=40..35", "--out", str(tmp_path / "d")])
    assert r.exit_code == 2
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and "turns=40..35" in lines[0]
    assert not (tmp_path / "d").exists()


# -------------------------------------------------------------------------- space


def test_parse_vary():
    v = ds.parse_vary("stacking,hand_size=4..6,wd4_restriction=colour|none,deck.draw_two")
    assert v["stacking"] == ("none", "same", "progressive")
    assert v["hand_size"] == (4, 5, 6)
    assert v["wd4_restriction"] == ("colour", "none")
    assert v["deck.draw_two"] == (0, 1, 2, 3, 4)
    assert list(ds.parse_vary(None)) == ds.DEFAULT_VARY.split(",")
    for bad, why in [
        ("max_turns", "cannot be searched"),
        ("hand_size=0..3", "outside its bounds"),
        ("stacking=maybe", "not one of"),
        ("hand_size,hand_size", "twice"),
        ("hand_size=6..4", "LO <= HI"),
    ]:
        with pytest.raises(RuleError, match=why):
            ds.parse_vary(bad)


def test_deck_counts_in_house_syntax():
    rs = parse_spec("official+deck.draw_two=3,hand_size=5")
    assert rs.deck_dict["draw_two"] == 3 and rs.hand_size == 5
    assert rs.deck_size() == OFFICIAL.deck_size() + 4
    assert resolve("official", "deck.wild=0").deck_dict["wild"] == 0
    assert parse_house("deck.skip=1") == {"deck.skip": "1"}
    for bad, why in [("deck.nosuch=1", "unknown deck entry"), ("deck=3", "deck")]:
        with pytest.raises(RuleError, match=why):
            parse_house(bad)
    with pytest.raises(RuleError, match="whole number"):
        resolve("official", "deck.skip=two")
    assert display_rules("official+deck.draw_two=1,hand_size=5") == (
        "Official UNO with 1 Draw Two per colour, 5 cards dealt to each player"
    )


def test_spec_of_keeps_only_changes():
    base, fixed = ds.split_base("official+stacking=same")
    assert (base, fixed) == ("official", {"stacking": "same"})
    spec = ds.spec_of(base, OFFICIAL, fixed, {"stacking": "none", "hand_size": 5})
    assert spec == "official+hand_size=5"  # stacking back to official's value
    assert ds.spec_of(base, OFFICIAL, fixed, {"jump_in": True}) == (
        "official+stacking=same,jump_in=true"
    )


def test_schedule():
    assert ds.schedule(10, 10 * ds.FULL_GAMES, 5) == [(10, ds.FULL_GAMES)]  # exhaustive
    rungs = ds.schedule(192, 3_000_000, 5)
    sizes = [s for s, _ in rungs]
    assert sizes == [192, 64, 22, 8]
    g = [n for _, n in rungs]
    assert all(b == 3 * a for a, b in zip(g, g[1:]))
    cost = sum(s * (n - p) for (s, n), p in zip(rungs, [0] + g))
    assert 0.99 * 3_000_000 < cost <= 3_000_000
    assert ds.schedule(10**6, 1000, 5) == []


# ------------------------------------------------------------------------- search

SMALL = dict(n_players=5, budget=60_000, finalists=2, confirm_games=4000, threads=1)


@pytest.fixture(scope="module")
def small():
    """A small search that official cannot satisfy: rounds of 35 to 40 turns."""
    return ds.design(["turns=35..40"], vary="jump_in,hand_size=4..7", seed=3, **SMALL)


def test_search_finds_what_official_misses(small):
    d = small
    base = d.base_candidate
    assert base is not None and base.spec == "official"
    assert not d.targets[0].met(base.measures["turns"][0])  # official: ~55 turns
    assert d.best.spec != "official"
    assert d.best.score[0] == 1 and d.targets[0].met(d.best.measures["turns"][0])
    # 8 candidates, 2 finalists: every one in the first rung, the best 3 in the second
    assert d.rungs == [(8, 4285), (3, 12855)] and not d.exhaustive


def test_search_plays_common_games(small):
    """Every candidate of a rung is played on rounds 0.. of the search seed: its rounds
    are those `unosim.simulate` plays for its rule set on that seed."""
    d = small
    c = next(c for c in d.first_rung_candidates if c.spec == "official+hand_size=5")
    df = unosim.simulate(parse_spec(c.spec), d.rungs[0][1], 5, seed=d.seed)
    m = ds.measure({k: df[k].to_numpy() for k in ds.COLUMNS}, 5, ["turns"])
    assert m["turns"] == c.first["turns"]


def test_confirmation_on_fresh_seed(small):
    d = small
    assert d.confirm_seed != d.seed
    conf = d.table[d.table["stage"] == "confirmed"]
    assert set(conf["seed"]) == {d.confirm_seed} and set(conf["games"]) == {4000}
    assert set(d.table.loc[d.table["stage"] == "search", "seed"]) == {d.seed}
    # the confirmed numbers are those of fresh rounds, not the search's
    df = unosim.simulate(parse_spec(d.best.spec), 4000, 5, seed=d.confirm_seed)
    assert d.best.measures["turns"][0] == pytest.approx(df["turns"].mean())
    assert d.best.measures["turns"] != d.best.search.measures["turns"]
    with pytest.raises(RuleError, match="must differ"):
        ds.design(["turns=35..40"], vary="hand_size=5..6", seed=4, confirm_seed=4, **SMALL)


def test_csv_ranking(small):
    t = small.table
    assert list(t["rank"]) == list(range(1, len(t) + 1))
    for col in ["rules", "turns", "turns_lo", "turns_hi", "turns_met", "all_met", "distance"]:
        assert col in t.columns
    stages = list(t["stage"])
    assert stages == sorted(stages)  # confirmed first, then the search's candidates
    conf = t[t["stage"] == "confirmed"]
    key = list(zip(-conf["targets_met"], conf["distance"], -conf["margin_se"]))
    assert key == sorted(key)
    assert (conf["turns_lo"] <= conf["turns"]).all() and (conf["turns"] <= conf["turns_hi"]).all()
    assert conf["all_met"].iloc[0] and not conf.loc[conf["rules"] == "official", "all_met"].any()
    search = t[t["stage"] == "search"]
    assert list(search["games"]) == sorted(search["games"], reverse=True)  # deepest rung first
    for spec in t["rules"]:  # what compare takes
        assert parse_spec(spec).name == spec


def test_halving_and_sampling():
    d = ds.design(
        ["turns=35..40", "seat0_edge<=3pp"],
        vary="stacking,jump_in,hand_size=4..6",
        seed=5,
        **{**SMALL, "budget": 30_000},
    )
    # 18 rule sets and official (hand_size 7 is outside 4..6 but always a candidate)
    assert d.rungs == [(19, 588), (7, 1764), (3, 5292)] and not d.exhaustive
    search = 19 * 588 + 7 * (1764 - 588) + 3 * (5292 - 1764)
    assert 29_000 < search <= 30_000
    assert d.games == search + 3 * 4000  # + 2 finalists and official on fresh rounds
    d = ds.design(
        ["turns=35..40"],
        vary="stacking,seven_zero,jump_in,draw_rule,hand_size,deck.draw_two",
        seed=5,
        **{**SMALL, "budget": 20_000, "confirm_games": 500},
    )
    assert d.sampled and d.space == 960 and len(d.searched) < d.space
    assert d.base_candidate is not None  # --from is always a candidate


# ---------------------------------------------------------------- folder and pages

EVIL = "=evil<img src=x onerror=alert(1)>`*[a](javascript:x)"


def test_page_card_csv_escape_names(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rule_file = tmp_path / f"{EVIL}.toml"
    rule_file.write_text('name = "<script>alert(1)</script>"\n')
    out = tmp_path / "out"
    r = runner.invoke(
        app,
        [
            "design",
            "--players",
            "4",
            "--target",
            "turns=30..45",
            "--from",
            rule_file.name,
            "--vary",
            "hand_size=4..6",
            "--budget",
            "6000",
            "--confirm-games",
            "1000",
            "--finalists",
            "2",
            "--threads",
            "1",
            "--out",
            str(out),
        ],
    )
    assert r.exit_code == 0, r.output
    for name in ["design.csv", "design.md", "design.html", "card.html", ".unosim-design"]:
        assert (out / name).is_file(), name
    assert (out / "design" / "search.svg").is_file()
    for name in ["design.html", "card.html"]:
        text = (out / name).read_text()
        assert "<img src=x" not in text and "<script>" not in text
        assert 'href="javascript' not in text and "&lt;img src=x" in text
    md = re.sub(r"(`+)(?!`).*?(?<!`)\1(?!`)", "", (out / "design.md").read_text())  # code spans
    assert not re.search(r"(?<!\\)<img", md) and not re.search(r"(?<!\\)\]\(javascript", md)
    assert "\\<img src=x" in md  # shown, escaped
    card = (out / "card.html").read_text()
    assert "@media print" in card and "@page" in card
    assert "Deal" in card and "cards to each player" in card
    csv = pd.read_csv(out / "design.csv")
    assert all(str(s).startswith("'=evil") for s in csv["rules"])  # no spreadsheet formula
    assert csv["rank"].tolist() == list(range(1, len(csv) + 1))

    # a second run into the same folder: refused without --force, a foreign folder always
    r = runner.invoke(app, ["design", "--target", "turns<=40", "--out", str(out)])
    assert r.exit_code == 2 and "not empty" in r.output
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("x")
    with pytest.raises(ValueError, match="not an earlier unosim design"):
        check_out(tmp_path / "mine", force=True)
    assert check_out(out, force=True) == out.resolve()


def test_card_of_base_as_it_is(small):
    html = card_html(small)
    assert "Our house rules" in html and "What to expect" in html
    assert re.search(r"Rounds last \d+ turns on average", html)


# ------------------------------------------------------------------- done-when


@pytest.mark.slow
def test_done_when_command(tmp_path):
    """The README's command: its top rule set, re-simulated on fresh seeds, meets both
    targets."""
    out = tmp_path / "d"
    t0 = time.perf_counter()
    r = runner.invoke(
        app,
        [
            "design",
            "--players",
            "5",
            "--target",
            "turns=35..40",
            "--target",
            "seat0_edge<=2pp",
            "--out",
            str(out),
        ],
    )
    seconds = time.perf_counter() - t0
    assert r.exit_code == 0, r.output
    top = pd.read_csv(out / "design.csv").iloc[0]
    assert top["stage"] == "confirmed" and top["all_met"]
    fresh_seed = 987_654_321  # neither the search's (0) nor the confirmation's (1)
    df = unosim.simulate(parse_spec(top["rules"]), 200_000, 5, seed=fresh_seed)
    turns = df["turns"].mean()
    edge = 100 * ((df["winner"] == 0).mean() - 1 / 5)
    assert 35 <= turns <= 40, turns
    assert edge <= 2, edge
    print(f"design: {seconds:.0f} s; fresh seeds: turns {turns:.2f}, seat 0 edge {edge:.2f} pp")
