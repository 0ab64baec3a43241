"""Tests of unosim.analysis.compare (paired comparisons under common random numbers) and of the
``unosim compare`` command."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import unosim
from unosim.analysis.compare import (
    _quantile_from_counts,
    compare,
    paired_metrics,
    paired_quantile_diff_int,
    parse_spec,
)
from unosim.cli.app import app
from unosim.game.rules import PRESETS, RuleError
from unosim.stats import paired_diff, paired_quantile_diff, paired_rate_diff

runner = CliRunner()

# ------------------------------------------------------------------------------ specs


def test_spec_preset_and_house_switches():
    assert parse_spec("official") == PRESETS["official"]
    assert parse_spec("draw-until-playable") == PRESETS["draw-until-playable"]
    rs = parse_spec("official+stacking=same,jump_in=true")
    assert (rs.stacking, rs.jump_in, rs.seven_zero) == ("same", True, False)
    assert rs.name == "official+stacking=same,jump_in=true"
    # '+' separates switches too; a hyphenated preset is a base
    rs2 = parse_spec("seven-zero+stacking=progressive+wd4_restriction=none")
    assert (rs2.seven_zero, rs2.stacking, rs2.wd4_restriction) == (True, "progressive", "none")
    # same content, same hash, whatever the spelling
    assert parse_spec("official+stacking=same").hash() == PRESETS["stacking"].hash()


def test_spec_toml_file_with_and_without_switches(tmp_path):
    f = tmp_path / "mine.toml"
    f.write_text('preset = "copag"\nhand_size = 5\n')
    assert parse_spec(str(f)).hand_size == 5
    rs = parse_spec(f"{f}+seven_zero=true")
    assert (rs.hand_size, rs.seven_zero, rs.multi_play) == (5, True, True)
    # a file whose name holds '+' is still read as a file
    g = tmp_path / "a+b.toml"
    g.write_text("hand_size = 6\n")
    assert parse_spec(str(g)).hand_size == 6


@pytest.mark.parametrize(
    "spec, word",
    [
        ("", "empty"),
        ("nosuch", "unknown preset"),
        ("official+nosuch=1", "unknown rule"),
        ("official+stacking=sometimes", "stacking"),
        ("official+jump_in=maybe", "jump_in"),
        ("nosuch+stacking=same", "unknown preset"),
        ("official+deck=3", "unknown rule"),
    ],
)
def test_spec_errors_name_the_problem(spec, word):
    with pytest.raises(RuleError, match=word):
        parse_spec(spec)


# ------------------------------------------------------------- quantiles from counts


@pytest.mark.parametrize("q", [0.1, 0.25, 0.5, 0.9, 0.99])
def test_quantile_from_counts_equals_numpy(q):
    rng = np.random.default_rng(3)
    for size in (1, 2, 7, 100, 1001):
        x = rng.integers(0, 30, size)
        v, c = np.unique(x, return_counts=True)
        got = _quantile_from_counts(v, c[None, :].astype(float), q)[0]
        assert got == pytest.approx(np.quantile(x, q), abs=1e-12)


def test_paired_quantile_int_agrees_with_the_index_bootstrap():
    rng = np.random.default_rng(5)
    a = rng.integers(20, 80, 4000)
    b = a + rng.integers(-2, 6, 4000)  # b is a shifted a: strongly paired
    fast = paired_quantile_diff_int(a, b, 0.5, n_boot=2000, seed=1)
    slow = paired_quantile_diff(a, b, 0.5, n_boot=2000, seed=1)
    for key in ("quantile_a", "quantile_b", "diff"):
        assert fast[key] == slow[key]
    # two bootstraps of the same data: bounds agree to within a unit of the data
    assert abs(fast["lo"] - slow["lo"]) <= 1.0 and abs(fast["hi"] - slow["hi"]) <= 1.0
    assert fast["lo"] <= fast["diff"] <= fast["hi"]
    # pairing: the difference varies much less than two independent medians
    assert fast["variance_reduction"] > 2
    assert paired_quantile_diff_int(a, b, 0.5, 500, seed=9) == paired_quantile_diff_int(
        a, b, 0.5, 500, seed=9
    )


def test_paired_quantile_int_identical_arms_and_bad_input():
    a = np.arange(100) % 17
    r = paired_quantile_diff_int(a, a, 0.5, n_boot=200)
    assert (r["diff"], r["lo"], r["hi"]) == (0.0, 0.0, 0.0)
    assert r["variance_reduction"] == math.inf  # the arms' medians vary, their difference not
    const = np.full(50, 7)
    assert math.isnan(paired_quantile_diff_int(const, const, 0.5, 100)["variance_reduction"])
    with pytest.raises(ValueError):
        paired_quantile_diff_int(a, a[:-1])
    with pytest.raises(ValueError):
        paired_quantile_diff_int(a + 0.5, a)


# ------------------------------------------------------------------- paired metrics


def _frames(n=3000, seed=0):
    rng = np.random.default_rng(seed)
    turns = rng.integers(5, 120, n)
    a = pd.DataFrame(
        {
            "game": np.arange(n),
            "turns": turns,
            "winner": rng.integers(-1, 4, n),
            "points": rng.integers(0, 300, n),
        }
    )
    a["truncated"] = a["winner"] == -1
    b = a.copy()
    b["turns"] = turns + rng.integers(-3, 2, n)
    flip = rng.random(n) < 0.1
    b.loc[flip, "winner"] = rng.integers(0, 4, int(flip.sum()))
    b["truncated"] = b["winner"] == -1
    return a, b


def test_paired_metrics_are_the_stats_functions():
    a, b = _frames()
    t = paired_metrics(a, b, n_boot=300).set_index("metric")
    assert list(t.index) == [
        "mean_turns",
        "median_turns",
        "seat0_win_rate",
        "mean_points",
        "truncation_rate",
    ]
    want = paired_diff(a["turns"], b["turns"])
    assert t.loc["mean_turns", "diff"] == pytest.approx(want["diff"])
    assert t.loc["mean_turns", "lo"] == pytest.approx(want["lo"])
    assert t.loc["mean_turns", "variance_reduction"] == pytest.approx(want["variance_reduction"])
    s0 = paired_rate_diff(a["winner"] == 0, b["winner"] == 0)
    assert (t.loc["seat0_win_rate", "lo"], t.loc["seat0_win_rate", "hi"]) == pytest.approx(
        (s0["lo"], s0["hi"])
    )
    assert t.loc["mean_points", "diff"] == 0.0  # points unchanged in b
    assert t.loc["seat0_win_rate", "value_a"] == pytest.approx((a["winner"] == 0).mean())


def test_paired_metrics_refuses_unpaired_frames():
    a, b = _frames()
    with pytest.raises(ValueError, match="length"):
        paired_metrics(a, b.iloc[:-1])
    b2 = b.copy()
    b2["game"] = b2["game"] + 1
    with pytest.raises(ValueError, match="game indices"):
        paired_metrics(a, b2)
    with pytest.raises(ValueError, match="unknown metric"):
        paired_metrics(a, b, metrics=("nosuch",))


# -------------------------------------------------------------------- real runs


@pytest.fixture(scope="module")
def small():
    return compare(
        ["official", "stacking", "official+seven_zero=true"], 4, 4000, seed=11, n_boot=300
    )


def test_compare_uses_the_same_games_as_simulate(small):
    df = unosim.simulate("official", 4000, 4, "random", seed=11)
    row = small.table[(small.table.arm == 1) & (small.table.metric == "mean_turns")].iloc[0]
    assert row["value_a"] == pytest.approx(df["turns"].mean())
    assert row["n"] == 4000
    assert set(small.table["rules"]) == {"stacking", "official+seven_zero=true"}


def test_compare_pairing_reduces_variance(small):
    # stacking changes a game only once a Draw Two meets a Draw Two: most games agree
    t = small.table[small.table.arm == 1].set_index("metric")
    assert t.loc["mean_turns", "variance_reduction"] > 1
    assert t.loc["mean_turns", "lo"] <= t.loc["mean_turns", "diff"] <= t.loc["mean_turns", "hi"]
    text = small.format()
    assert "B stacking (same card)  -  A Official UNO" in text
    assert "C Official UNO with Seven-Zero (7 swaps hands, 0 passes them on)  -  A" in text
    assert (
        "  C  Official UNO with Seven-Zero" in text and " official+seven_zero=true: rules " in text
    )
    for label in (
        "mean turns",
        "median turns",
        "seat 0 win rate",
        "mean points",
        "truncation rate",
    ):
        assert text.count(label) == 2


# ---------------------------------------------------------------------------- CLI


def test_cli_compare_prints_paired_differences(tmp_path):
    out = tmp_path / "cmp.csv"
    r = runner.invoke(
        app,
        [
            "compare",
            "official",
            "progressive",
            "--players",
            "4",
            "--games",
            "3000",
            "--seed",
            "11",
            "--boot",
            "200",
            "--out",
            str(out),
        ],
    )
    assert r.exit_code == 0, r.output
    assert "differences B - A with 95% intervals" in r.output
    assert "B stacking (+4 on +2 too)  -  A Official UNO" in r.output
    assert " progressive: rules " in r.output  # the syntax, to type it again
    line = next(x for x in r.output.splitlines() if x.strip().startswith("mean turns"))
    assert line.rstrip().endswith("x")  # a variance reduction factor
    t = pd.read_csv(out)
    assert len(t) == 5 and set(t["metric"]) >= {"mean_turns", "seat0_win_rate"}


@pytest.mark.parametrize(
    "args, word",
    [
        (["official"], "at least two"),
        (["official", "nosuch"], "unknown preset"),
        (["official", "official+jump_in=perhaps"], "jump_in"),
        (["official", "stacking", "--players", "11"], "players"),
        (["official", "stacking", "--games", "0"], "games"),
    ],
)
def test_cli_compare_bad_input(args, word):
    r = runner.invoke(app, ["compare", *args])
    assert r.exit_code == 2
    assert "unosim: error:" in r.output and word in r.output
