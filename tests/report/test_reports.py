"""Every analysis and report page built at a tiny scale into a temporary folder.

Checks that each page exists in Markdown and HTML, references figures that exist, carries
its provenance block, takes its numbers from the results, and that a rerun reuses the
cached simulations and gives the same bytes. Also unit tests of unosim.report.page.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
from pathlib import Path

import build_reports as report_build  # analyses/, put on sys.path by conftest.py
import common
import numpy as np
import pandas as pd
import pytest

import unosim
from unosim.game import names as display_names
from unosim.kernel import kernel_sources
from unosim.report.page import PROVENANCE_HEADING, Page, ci, num, write_index

TINY = 0.0005  # 500 rounds where the default is 1,000,000; every run at least 200

IMG = re.compile(r"!\[[^\]]*\]\(([^)]+)\)")
LINK = re.compile(r"\]\(([^)#]+)\)")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("reports")
    cache = tmp_path_factory.mktemp("cache")
    report_build.build_all(common.ANALYSES, TINY, out, cache, quiet=True)
    return out, cache


@pytest.mark.parametrize("name", common.ANALYSES)
def test_page_exists_with_figures_and_provenance(built, name):
    out, _ = built
    md = (out / f"{name}.md").read_text()
    assert md.startswith("# ") and "**Question.**" in md and "## Answer" in md
    figures = IMG.findall(md)
    assert len(figures) >= 2
    for rel in figures:  # an SVG, stored once: no PNG copy beside it
        svg = out / rel
        assert svg.suffix == ".svg" and b"<svg" in svg.read_bytes()[:2000]
        assert not svg.with_suffix(".png").exists()
        assert b"<dc:date>" not in svg.read_bytes()  # no date
    for rel in LINK.findall(md):  # every local link resolves (figures, CSV tables)
        if not rel.startswith("http"):
            assert (out / rel).exists(), rel
    assert any(r.endswith(".csv") for r in LINK.findall(md))
    # provenance: how to rebuild, versions, seeds, games, rule hashes
    prov = md.split(f"## {PROVENANCE_HEADING}", 1)[1]
    assert f"make report-{name} SCALE={TINY:g}" in prov
    assert f"unosim: {unosim.__version__}" in prov and "RNG" in prov
    assert f"root seed: {common.SEED}" in prov and "simulated:" in prov
    assert re.search(r"`[0-9a-f]{16}`", md)  # a rules hash
    meta = json.loads((out / name / "page.json").read_text())
    assert meta["headline"] and meta["headline"] in md
    # every figure the page names exists (its metadata and its Markdown agree)
    assert meta["figures"] == figures and meta["main_figure"] in figures
    # the only PNG is the index's thumbnail of the main figure, without Software metadata
    thumb = out / meta["main_figure"].replace(".svg", "-thumb.png")
    assert list((out / name).glob("*.png")) == [thumb]
    assert (
        thumb.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and b"matplotlib" not in thumb.read_bytes()
    )


def _blocks(md: str) -> list[str]:
    """The Markdown blocks (separated by blank lines) of a page's answer section."""
    answer = md.split("## Answer\n", 1)[1]
    return [b.strip() for b in answer.split("\n\n") if b.strip()]


@pytest.mark.parametrize("name", common.ANALYSES)
def test_page_opens_with_its_answer_and_main_figure(built, name):
    out, _ = built
    md = (out / f"{name}.md").read_text()
    meta = json.loads((out / name / "page.json").read_text())
    blocks = _blocks(md)
    # the opening: 1-3 plain sentences (the headline), then the main figure, then the
    # rest; no table, list or other figure comes before them
    assert blocks[0] == meta["headline"]
    assert 1 <= len(re.findall(r"[.!?](?:\s|$)", re.sub(r"\d\.\d|e\.g\.", "", blocks[0]))) <= 3
    assert blocks[1].startswith("![") and f"]({meta['main_figure']})" in blocks[1]
    first_table = md.index("\n| ")
    assert md.index(meta["headline"]) < md.index(meta["main_figure"]) < first_table
    html = (out / f"{name}.html").read_text()
    assert (
        html.index('<p class="lead">') < html.index('<figure class="main">') < html.index("<table")
    )


def _csv(out, name: str, stem: str) -> pd.DataFrame:
    return pd.read_csv(out / name / f"{stem}.csv")


def test_opening_numbers_match_the_tables(built):
    out, _ = built
    lead = {n: json.loads((out / n / "page.json").read_text())["headline"] for n in common.ANALYSES}
    # seats: seat 0's 4-player win rate with random players
    t = _csv(out, "seats", "seat-win-rates")
    r = t[(t.strategies == "random") & (t.players == 4) & (t.seat == 0)]["rate"].iloc[0]
    assert f"wins {num(100 * r, 1)}% of rounds" in lead["seats"]
    # length: official's mean turns at 4 players
    t = _csv(out, "length", "length")
    m = t[(t.rules == "official") & (t.players == 4)]["turns_mean"].iloc[0]
    assert f"lasts about {num(m, 0)} turns" in lead["length"]
    # editions: the same number, from the editions table
    t = _csv(out, "editions", "presets")
    m2 = t[(t.strategies == "random") & (t.preset == "official")]["turns_mean"].iloc[0]
    assert m2 == pytest.approx(m) and f"lasts {num(m2, 0)} turns" in lead["editions"]
    # points: official's mean points at 4 players
    t = _csv(out, "points", "points")
    p = t[(t.edition == "official") & (t.players == 4)]["points_mean"].iloc[0]
    assert f"worth about {num(p, 0)} points" in lead["points"]
    # house rules: draw until playable alone, from the simple effects
    t = _csv(out, "house-rules", "simple-effects")
    d = t[(t.strategies == "random") & (t.switch == "draw_rule=until_playable")]
    if "Draw until you can play" in lead["house-rules"]:
        assert f"+{num(d['turns_diff'].iloc[0], 2)}" in (out / "house-rules.md").read_text()


# What a reader may have to type stays in code spans: a command, a file, a folder.
TYPED = re.compile(
    r"^(?:[A-Z]+=\S+ )*(?:make |python |unosim |[\w./-]+\.(?:csv|py|md|toml)$|[\w-]+/[\w./-]+$)"
)
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
# rule syntax: `rule=value` (with a preset before it, `official+stacking=same`) or a rule's
# own name, which pages say in words (unosim/game/names.py)
RULE_SYNTAX = re.compile(
    r"\b[a-z][a-z0-9_.]*\s?=\s?[a-z0-9_]+"
    r"|\b(?:until_playable|seven_zero|jump_in|draw_rule|wd4_restriction|after_draw|last_card)\b"
)


def rule_syntax(md: str) -> list[str]:
    """What a page's prose (everything above its provenance block) says in rule syntax:
    code spans that are not a command, file or folder a reader would type, and
    ``rule=value`` or a rule's name outside code spans."""
    prose = md.split(f"## {PROVENANCE_HEADING}", 1)[0]
    found = []
    for line in prose.splitlines():
        found += [m.group(0) for m in CODE_SPAN.finditer(line) if not TYPED.match(m.group(2))]
        found += RULE_SYNTAX.findall(CODE_SPAN.sub("", line))
    return found


def test_rule_syntax_is_found_where_it_creeps_back():
    assert rule_syntax("With 4 random players `same` stacking makes rounds shorter.") == ["`same`"]
    assert rule_syntax("- `official+stacking=same` against `official`.") == [
        "`official+stacking=same`",
        "`official`",
    ]
    assert rule_syntax("| draw_rule=until_playable | +35 |") == ["draw_rule=until_playable"]
    assert rule_syntax("4 `random` players with stacking=same") == ["`random`", "stacking=same"]
    # commands and files a reader types are fine, and so is the provenance block
    fine = "To reproduce: `unosim compare official official+stacking=same`; [`a/b.csv`](a/b.csv)"
    assert rule_syntax(fine + f"\n## {PROVENANCE_HEADING}\n`stacking = same`") == []


@pytest.mark.parametrize("name", [*common.ANALYSES, "index"])
def test_prose_speaks_display_names_not_rule_syntax(built, name):
    out, _ = built
    md = (out / f"{name}.md").read_text()
    assert rule_syntax(md) == []
    for raw in ("`same`", "`progressive`", "`official`", "`random`", "`table`", "stacking=same"):
        assert raw not in md.split(f"## {PROVENANCE_HEADING}", 1)[0], raw


def test_pages_name_rules_and_players_as_people_read_them(built):
    out, _ = built
    lead = {n: json.loads((out / n / "page.json").read_text())["headline"] for n in common.ANALYSES}
    names = display_names
    assert names.display_value("stacking", "same") in lead["stacking"]
    assert names.display_value("stacking", "progressive") in lead["stacking"]
    table = "table players (people who sometimes bluff and forget UNO)"
    if common.realistic():
        assert table in lead["stacking"] and table in lead["seats"]
    assert "Official UNO" in (out / "editions.md").read_text()
    for preset in ("motu", "draw-until-playable"):  # the two longest, in every length lead
        assert names.PRESET_DISPLAY[preset] in lead["length"]
    assert "draw until you can play" in (out / "house-rules.md").read_text()
    # one convention for percent: a win rate's edge in percentage points
    assert (
        "percentage points more" in lead["seats"] and "% more than its share" not in lead["seats"]
    )
    # what the index shows is the pages' headlines
    index = (out / "index.md").read_text()
    assert lead["stacking"] in index and rule_syntax(index) == []


def test_effects_too_small_to_notice_make_no_practical_difference():
    names = display_names
    assert names.NOTICE == {"relative": 1.0, "points": 0.5}
    assert not names.noticeable(0.99) and names.noticeable(-1.0)
    assert not names.noticeable(0.49, rate=True) and names.noticeable(0.5, rate=True)
    assert (
        common.change(-2.38) == "2.4% shorter" and common.change(0.59) == "no practical difference"
    )
    assert common.change(1.48, "more", "fewer") == "1.5% more"
    assert common.pp_change(-0.21) == "no practical difference"
    assert common.pp_change(-0.84) == "0.84 percentage points down"
    # the atlas says the same: one set of thresholds
    from unosim.report.atlas_page import THRESHOLDS

    assert THRESHOLDS is names.NOTICE


@pytest.mark.parametrize("name", common.ANALYSES)
def test_player_counts_2_to_10_where_a_page_speaks_of_players(built, name):
    out, _ = built
    for csv in (out / name).glob("*.csv"):
        t = pd.read_csv(csv)
        if "players" in t.columns and t["players"].nunique() > 1:
            assert set(range(2, 11)) <= set(t["players"]), csv.name


@pytest.mark.parametrize("name", common.ANALYSES)
def test_html_shows_the_figures_beside_it(built, name):
    out, _ = built
    html = (out / f"{name}.html").read_text()
    assert html.startswith("<!DOCTYPE html>") and PROVENANCE_HEADING in html
    srcs = re.findall(r'src="([^"]+)"', html)
    # the same SVG files as the Markdown, beside the page: each figure stored once
    assert srcs == IMG.findall((out / f"{name}.md").read_text())
    assert all(s.startswith(f"{name}/") and (out / s).is_file() for s in srcs)
    assert "<link" not in html and "<script" not in html and "base64" not in html


def test_index_lists_every_page(built):
    out, _ = built
    index = (out / "index.md").read_text()
    for name in common.ANALYSES:
        assert f"]({name}.md)" in index and f"({name}.html)" in index
    assert 'href="seats.html"' in (out / "index.html").read_text()
    # a thumbnail of each page's main figure, in both versions
    for name in common.ANALYSES:
        meta = json.loads((out / name / "page.json").read_text())
        thumb = meta["main_figure"].replace(".svg", "-thumb.png")
        assert f"]({thumb})]({name}.md)" in index and (out / thumb).is_file()
    html = (out / "index.html").read_text()
    assert html.count('class="thumb" alt=') == len(common.ANALYSES)
    srcs = re.findall(r'src="([^"]+)"', html)
    assert srcs and all(s.endswith("-thumb.png") and (out / s).is_file() for s in srcs)


def test_numbers_come_from_the_results(built):
    out, cache = built
    # the editions page quotes official's mean turns at 4 players from its cached run
    ctx = common.Context("editions", TINY, out, cache, quiet=True)
    df = ctx.standard("official", 4)
    assert all(r.cached for r in ctx.runs)
    m = df["turns"].to_numpy(float)
    lo, hi = unosim.stats.mean_ci(m)[1:]
    assert ci(m.mean(), lo, hi) in (out / "editions.md").read_text()
    # the games count stated in the provenance table is the run's
    assert f"{len(df):,} rounds" in (out / "editions.md").read_text()


def test_rerun_reuses_the_cache_and_gives_the_same_bytes(built, tmp_path, monkeypatch):
    out, cache = built

    def no_simulation(*args, **kwargs):
        raise AssertionError("a cached run was simulated again")

    import importlib

    # `unosim.simulate` is also the name of the function: take the modules themselves
    monkeypatch.setattr(
        importlib.import_module("unosim.sim.simulate"), "iter_frames", no_simulation
    )
    monkeypatch.setattr(importlib.import_module("unosim.sim.match"), "run_matches", no_simulation)
    for name in ("seats", "points"):
        report_build.build_all([name], TINY, tmp_path, cache, quiet=True)
        assert (tmp_path / f"{name}.md").read_text() == (out / f"{name}.md").read_text()
        assert (tmp_path / f"{name}.html").read_bytes() == (out / f"{name}.html").read_bytes()
        for fig in [*(out / name).glob("*.png"), *(out / name).glob("*.svg")]:
            assert (tmp_path / name / fig.name).read_bytes() == fig.read_bytes()
        assert sorted(p.name for p in (tmp_path / name).iterdir()) == sorted(
            p.name for p in (out / name).iterdir()
        )


# pages in compute and render (every page)
SPLIT = ("seats", "length", "points", "stacking", "house-rules", "editions", "skill")


def test_render_only_reads_the_stored_results_and_simulates_nothing(built, tmp_path, monkeypatch):
    """After a change of words, every split page is rendered again from the results its
    full build stored, within a minute, reading no simulation at all."""
    import importlib
    import time

    out, cache = built

    def no_simulation(*args, **kwargs):
        raise AssertionError("a render-only build asked for a simulation")

    for name in ("rounds", "matches", "cached_json"):
        monkeypatch.setattr(common.Context, name, no_simulation)
    monkeypatch.setattr(
        importlib.import_module("unosim.sim.simulate"), "iter_frames", no_simulation
    )
    split = [
        n
        for n in common.ANALYSES
        if hasattr(importlib.import_module(report_build.module_name(n)), "render")
    ]
    assert set(SPLIT) <= set(split)
    t0 = time.perf_counter()
    report_build.build_all(split, TINY, tmp_path, cache, quiet=True, render_only=True)
    assert time.perf_counter() - t0 < 60
    for name in split:  # the same page as the full build, byte for byte
        assert (tmp_path / f"{name}.md").read_text() == (out / f"{name}.md").read_text()
        assert (tmp_path / f"{name}.html").read_bytes() == (out / f"{name}.html").read_bytes()
        for f in (out / name).iterdir():
            assert (tmp_path / name / f.name).read_bytes() == f.read_bytes(), f.name
    # a rewording shows at once: the page's words are read at render time
    seats = importlib.import_module("seats")
    monkeypatch.setattr(seats, "RULES", "official-reworded")
    report_build.build_all(["seats"], TINY, tmp_path, cache, quiet=True, render_only=True)
    assert "`official-reworded`" in (tmp_path / "seats.md").read_text()


def test_render_only_without_stored_results_says_so(built, tmp_path):
    _, cache = built
    with pytest.raises(
        SystemExit, match=r"^seats: .*no stored results of page 'seats' at scale 0\.123"
    ):
        report_build.build_all(["seats"], 0.123, tmp_path, cache, quiet=True, render_only=True)
    assert not list(tmp_path.iterdir())  # nothing written


def test_results_keep_frames_arrays_and_tuple_keys(tmp_path):
    from unosim.report.cache import Results, load_results

    frame = pd.DataFrame({"metric": ["a", "b"], "x": [1.5, np.nan], "n": [1, 2]}).set_index(
        "metric"
    )
    values = {
        "stats": {("official", 4): {"mean": (1.0, 0.5, 1.5), "q": np.array([1.0, 2.0])}},
        "frame": frame,
        "by_int": {0: {"share": 0.25}},
        "names": ["x", "y"],
    }
    Results("t", 0.5, 7, values).save(tmp_path)
    back = load_results(tmp_path, "t", 0.5, 7)
    assert back["stats"][("official", 4)]["mean"] == (1.0, 0.5, 1.5)
    np.testing.assert_array_equal(back["stats"][("official", 4)]["q"], [1.0, 2.0])
    pd.testing.assert_frame_equal(back["frame"], frame)
    assert back["by_int"] == {0: {"share": 0.25}} and back["names"] == ["x", "y"]
    assert (back.scale, back.seed, back.games(1000)) == (0.5, 7, 500)
    with pytest.raises(TypeError, match="cannot store"):
        Results("t", 0.5, 7, {"x": object()}).save(tmp_path)


def test_cache_key_ignores_the_display_name_only(tmp_path):
    ctx = common.Context("t", 1.0, tmp_path / "r", tmp_path / "c", quiet=True)
    a = ctx.rounds("stacking", 3, 200)
    b = ctx.rounds(unosim.resolve("official", "stacking=same"), 3, 200)  # same content
    assert [r.cached for r in ctx.runs] == [False, True]
    pd.testing.assert_frame_equal(a, b)
    ctx.rounds("stacking", 3, 200, seed=common.SEED + 1)  # another seed: another run
    ctx.rounds("stacking", 3, 201)  # another size: another run
    assert [r.cached for r in ctx.runs] == [False, True, False, False]
    assert len({r.key for r in ctx.runs}) == 3
    assert len(list((tmp_path / "c").glob("rounds-*.parquet"))) == 3


def test_cache_key_covers_what_decides_the_results():
    """The cache key covers the kernel and e.g. ``unosim/players/expert.py``, whose defaults a
    label ``expert`` stands for, and ``unosim/analysis/tune.py``, behind the cached tunings; and
    every file it hashes is one the Makefile rebuilds the pages for."""
    files = common._fingerprint_files()
    assert all(f.exists() for f in files)
    names = {f.name for f in files}
    assert {
        "expert.py",
        "assembled.py",
        "tune.py",
        "tournament.py",
        "strategies.py",
        "rules.py",
        "round.py",
        "decide.py",
    } <= names
    deps = (Path(__file__).parents[2] / "Makefile").read_text()
    assert "$(KERNEL_SOURCES)" in deps
    kernel = subprocess.run(
        ["make", "-s", "--no-print-directory", "-f", "-", "show"],
        input=deps + "\nshow:\n\t@echo $(KERNEL_SOURCES)\n",
        cwd=Path(__file__).parents[2],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    pkg = Path(unosim.__file__).resolve().parent
    assert sorted(kernel) == [f"unosim/{p.relative_to(pkg).as_posix()}" for p in kernel_sources()]
    for f in files:
        if "kernel" not in f.relative_to(pkg).parts:
            rel = f.relative_to(pkg).as_posix()
            assert f"unosim/{rel}" in deps, rel


def test_scale_sets_the_games():
    ctx = common.Context("t", 0.5)
    assert ctx.games(1_000_000) == 500_000
    assert common.Context("t", 10).games(250_000) == 2_500_000
    assert common.Context("t", 1e-9).games(1_000_000) == common.MIN_GAMES


# -------------------------------------------------------------------- unosim.report.page


def test_formatting_of_numbers():
    assert ci(0.25941, 0.2585, 0.26031, 4) == "0.2594 [0.2585, 0.2603]"
    assert ci(-1.5, -2.0, -1.0, 2, sign=True) == "−1.50 [−2.00, −1.00]"
    assert ci(5.0, -math.inf, math.inf, 0) == "5 [−∞, ∞]"
    assert num(1234567.891, 1) == "1,234,567.9" and num(float("nan")) == "n/a"


def test_page_renders_markdown_and_html(tmp_path):
    import matplotlib.pyplot as plt

    page = Page("demo", "A <demo>", "Is `x` > 1?", tmp_path)
    page.para("See **this** and [that](other.md); a|b")
    page.table(pd.DataFrame({"a": ["x|y"], "b": ["1"]}))
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    page.figure(fig, "line", "a line")
    with pytest.raises(ValueError, match="provenance"):
        page.write()
    page.provenance(["make x"], {"seed": "1"}, pd.DataFrame())
    md_path, html_path = page.write()
    md, html = md_path.read_text(), html_path.read_text()
    assert md.startswith("# A \\<demo>\n")  # no raw HTML from a title
    assert "| x\\|y | 1 |" in md and "![a line](demo/line.svg)" in md and ".png" not in md
    assert '<img alt="a line" src="demo/line.svg">' in html
    assert "<h1>A &lt;demo&gt;</h1>" in html and "<code>x</code> &gt; 1" in html
    assert '<a href="other.html">that</a>' in html and "<strong>this</strong>" in html
    first = (tmp_path / "demo" / "line.svg").read_bytes()
    assert not (tmp_path / "demo" / "line.png").exists()  # stored once, as SVG
    page = Page("demo", "A <demo>", "Is `x` > 1?")  # the folder given at write
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    page.figure(fig, "line", "a line")
    page.provenance(["make x"], {"seed": "1"}, pd.DataFrame())
    page.write(tmp_path)
    assert (tmp_path / "demo" / "line.svg").read_bytes() == first  # deterministic SVG
    md_i, _ = write_index(tmp_path, ["demo"])
    assert "[A \\<demo>](demo.md)" in md_i.read_text()  # no raw HTML from a title


def test_describe_counts_truncated_rounds():
    df = pd.DataFrame(
        {
            "winner": [0, 1, -1, 0],
            "turns": [10, 20, 5000, 30],
            "cards_played": [8, 15, 4000, 25],
            "cards_drawn": [1, 2, 3, 4],
            "reshuffles": [0, 0, 9, 0],
            "points": [50, 100, 0, 250],
            "max_stack": [0, 2, 4, 8],
            "truncated": [False, False, True, False],
        }
    )
    s = common.describe(df, 2)
    assert (s["games"], s["completed"], s["truncated"]) == (4, 3, 1)
    assert s["seat0"][0] == 0.5 and s["trunc_rate"][0] == 0.25
    assert s["points_mean"][0] == pytest.approx(400 / 3)  # completed rounds only
    assert s["points_ge_100"][0] == pytest.approx(2 / 3)
    assert s["turns_mean"][0] == pytest.approx(np.mean([10, 20, 5000, 30]))
    assert s["stack_ge_8"][0] == 0.25
