"""The rules atlas: its grid, the cells it shares, its syntax, and the committed page."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from unosim import simulate
from unosim.game.rules import resolve
from unosim.report import atlas_data as D
from unosim.report import atlas_grid as G
from unosim.sim.simulate import make_job, run_block
from unosim.sim.summary import Aggregate

ROOT = Path(__file__).resolve().parents[2]
REPORTS = ROOT / "reports"


def test_grid_counts():
    c = G.counts()
    # 3 stacking x 2 x 2 x 3 (draw rule x after draw, one pair refused) x 3 x 2 x 2 x 2 x 2
    assert c["switch_mixes"] == 1728
    assert c["rule_sets"] == 5 * 1728
    assert c["answers"] == 5 * 1728 * 9 * 2
    assert c["labelled"] == 7 * 1728 * 9 * 2
    assert len(G.sim_keys(0, "random")) == 1728 // 8  # three two-valued switches shared
    assert len(G.sim_keys(0, "table")) == 1728 - 1728 // 3 // 2  # challenge under none
    assert c["sims_random"] == 5 * 216 * 9 and c["sims_table"] == 5 * 1440 * 9


def _same(key_a: str, key_b: str, strategy: str, n_players: int = 4) -> bool:
    a = simulate(G.rule_set(key_a), n_games=300, n_players=n_players, strategies=strategy, seed=7)
    b = simulate(G.rule_set(key_b), n_games=300, n_players=n_players, strategies=strategy, seed=7)
    return a.equals(b)


def _with(key: str, **changes) -> str:
    deck, values = G.values_of(key)
    d = dict(zip(G.SWITCH_NAMES, values), **changes)
    return G.key_of(deck, tuple(d[s] for s in G.SWITCH_NAMES))


@pytest.mark.parametrize(
    "base",
    [
        "official",
        "official+stacking=progressive,jump_in=true,wd4_restriction=strict,last_card=number",
    ],
)
def test_cells_shared_for_random_players_cannot_differ(base):
    _, key = G.parse_choice(base)
    for changes in (
        {"multi_play": True},
        {"uno_penalty": 1},
        {"challenge": False},
        {"multi_play": True, "uno_penalty": 1, "challenge": False},
    ):
        other = _with(key, **changes)
        assert G.sim_key(other, "random") == G.sim_key(key, "random")
        assert _same(key, other, "random"), changes
    # the same switches do change table players' rounds, and a shared-nowhere switch
    # changes random players' rounds: the comparison can fail
    assert not _same(key, _with(key, multi_play=True), "table")
    assert not _same(key, _with(key, uno_penalty=1), "table")
    assert not _same(key, _with(key, seven_zero=True), "random")


def test_challenges_shared_for_table_players_only_without_the_restriction():
    _, key = G.parse_choice("official+wd4_restriction=none")
    off = _with(key, challenge=False)
    assert G.sim_key(off, "table") == G.sim_key(key, "table")
    assert _same(key, off, "table")
    _, key = G.parse_choice("official")
    assert G.sim_key(_with(key, challenge=False), "table") != key
    assert not _same(key, _with(key, challenge=False), "table")


def test_syntax_is_compare_syntax_and_reads_back():
    for deck in range(len(G.DECKS)):
        for key in G.sim_keys(deck, "table")[::97]:
            text = G.rules_syntax(key)
            preset, _, house = text.partition("+")
            assert resolve(preset, house or None).hash() == G.rule_set(key).hash()
            assert G.parse_choice(text)[1] == key
    # an edition's own switches: copag's permalink names only what differs from copag
    assert G.parse_choice("copag") == ("copag", G.edition_key("copag"))
    assert G.parse_choice("copag+multi_play=false")[1] == _with(
        G.edition_key("copag"), multi_play=False
    )
    assert G.parse_choice("official-2018+blank_card=swap_hands")[0] == "official-2018-swap"
    for bad in (
        "nonsense",
        "official+jump_in=maybe",
        "official+colour=red",
        "official+draw_rule=until_playable,after_draw=pass",
    ):
        with pytest.raises(ValueError):
            G.parse_choice(bad)


def test_cell_stats_agree_with_the_streaming_aggregates():
    _, key = G.parse_choice("official+stacking=same")
    job = make_job(G.rule_set(key), 2000, 5, "table", G.SEED)
    out = run_block(job, 0, 2000)
    cell = G.cell_stats(out, 5)
    assert G.run_cell(key, 5, "table", 2000, threads=1) == cell  # chunks change nothing
    m = G.cell_metrics(cell, 5)
    agg = Aggregate.from_records(out, 5)
    table = agg.summary_table()
    assert m["turns_mean"] == pytest.approx(table["turns_mean"], rel=1e-12)
    assert m["turns_median"] == table["turns_median"]
    assert m["points_mean"] == pytest.approx(table["points_mean"], rel=1e-12)
    assert m["seat0_rate"] == table["seats"]["rate"][0]
    assert m["cards_drawn_mean"] == agg.totals["cards_drawn"] / 2000
    df = simulate(G.rule_set(key), n_games=2000, n_players=5, strategies="table", seed=G.SEED)
    assert m["stack8_share"] == (df["max_stack"] >= 8).mean() > 0
    assert m["turns_p90"] == np.percentile(df.loc[~df.truncated, "turns"], 90)
    f = dict(zip(G.FIELDS, cell))
    th = cell[len(G.FIELDS) + 1]
    assert sum(th) == f["games"] - f["truncated"] == sum(cell[len(G.FIELDS)])
    assert f["bluffs"] == df["bluffs"].sum() > 0


def test_committed_atlas_is_complete_and_small_enough():
    page = REPORTS / "atlas.html"
    data = REPORTS / "atlas" / "data"
    assert page.exists(), "reports/atlas.html is built by make atlas"
    files = sorted(data.glob("*.js"))
    names = {f.stem for f in files}
    want = {f"{s}-{d}-{n}" for s in G.STRATEGIES for d, _, _ in G.DECKS for n in G.PLAYERS}
    assert names == want
    total = sum(f.stat().st_size for f in (REPORTS / "atlas").rglob("*")) + page.stat().st_size
    assert total < 12e6  # 26 MB as JSON, under 9 MB packed
    biggest = max(f.stat().st_size for f in files)
    # a choice loads its group and official's, plus the page and the figures' library
    assert 2 * biggest + (REPORTS / "atlas" / "vega-embed.js").stat().st_size < 5e6
    cfg = json.loads(
        page.read_text()
        .split('<script id="atlas-config" type="application/json">')[1]
        .split("</script>")[0]
    )
    assert cfg["counts"] == G.counts()
    for f in files[:: len(files) // 6]:
        name, cells = D.read_data_file(f.read_text())
        assert name == f.stem
        s = f.stem.split("-")[0]
        deck = next(
            i for i, d in enumerate(G.DECKS) if f.stem == f"{s}-{d[0]}-{f.stem.split('-')[-1]}"
        )
        assert sorted(cells) == G.sim_keys(deck, s)
        assert all(c[0] == cfg["rounds"][s] for c in cells.values())


def _trimmed(h: list[int]) -> list[int]:
    return h[: max((i + 1 for i, v in enumerate(h) if v), default=0)]


def _group(deck: int, strategy: str, n_players: int, rng) -> dict[str, list]:
    """Cells of the grid's shape with numbers like a group's: counts near a base that
    drift a little from cell to cell, sums of squares near 2**40, trimmed histograms."""
    base = rng.integers(0, 3_000, size=len(G.FIELDS) + n_players + 82)
    cells = {}
    for key in G.sim_keys(deck, strategy):
        row = [int(v) for v in np.maximum(base + rng.integers(-40, 41, size=base.size), 0)]
        row[3] = int(rng.integers(0, 2**40))
        nf = len(G.FIELDS)
        wins = row[nf : nf + n_players]
        turns = row[nf + n_players : nf + n_players + 51][: int(rng.integers(0, 52))]
        points = row[nf + n_players + 51 :][: int(rng.integers(0, 32))]
        turns, points = (
            h[: max((i + 1 for i, v in enumerate(h) if v), default=0)] for h in (turns, points)
        )
        cells[key] = row[:nf] + [wins, turns, points]
    return cells


@pytest.mark.parametrize("deck, strategy, n_players", [(0, "table", 4), (3, "random", 10)])
def test_packed_data_reads_back_exactly(deck, strategy, n_players):
    cells = _group(deck, strategy, n_players, np.random.default_rng(deck))
    name, back = D.read_data_file(D.data_file("g", cells, n_players))
    assert name == "g" and back == cells
    assert [type(v) for v in back[next(iter(back))][: len(G.FIELDS)]] == [int] * len(G.FIELDS)


def test_every_parent_of_a_group_is_in_it():
    # the packing's differences need every cell's parent in its group (else it falls
    # back to none and packs worse): setting a switch back to official keeps a valid key
    for strategy in G.STRATEGIES:
        keys = set(G.sim_keys(0, strategy))
        for key in keys:
            parent = D.parent_key(key)
            assert parent is None or (parent in keys and int(parent) < int(key)), key


@pytest.mark.parametrize(
    "text",
    [
        'atlasPut("g",{"40000000000":[1]});',  # the old JSON form
        'atlasPut("g","bm90IGRlZmxhdGVk");',  # base64, not deflated
        "alert(1)",
    ],
)
def test_a_data_file_not_packed_is_refused(text):
    with pytest.raises(ValueError):
        D.read_data_file(text)


def test_packed_data_cut_short_is_refused():
    cells = _group(0, "random", 3, np.random.default_rng(7))
    packed = D.pack(cells, 3)
    import base64
    import zlib

    raw = zlib.decompress(base64.b64decode(packed))
    short = base64.b64encode(zlib.compress(raw[:-3])).decode()
    with pytest.raises(ValueError):
        D.unpack(short)


def test_committed_page_runs_the_package_script_and_style():
    page = (REPORTS / "atlas.html").read_text(encoding="utf-8")
    for name in ("atlas.js", "atlas.css"):
        assert f'"atlas/{name}"' in page
        committed = (REPORTS / "atlas" / name).read_text(encoding="utf-8")
        assert committed == (ROOT / "unosim" / "report" / "assets" / name).read_text(
            encoding="utf-8"
        )
    assert "<style>" not in page and "function need(" not in page


def test_display_names_cover_every_switch_value_and_read_rule_sets():
    from unosim.game import names as R
    from unosim.game.rules import PRESETS

    for rule, values in G.SWITCHES:
        for v in values:
            assert "=" not in R.display_value(rule, v), (rule, v)
    assert set(R.PRESET_DISPLAY) == set(PRESETS)
    assert (
        R.display_rules("official+stacking=same,draw_rule=until_playable")
        == "Official UNO with stacking (same card), draw until you can play"
    )
    assert R.display_rules("copag") == "Copag UNO (Brazil)"
    assert R.display_rules("my house") == "my house"
    assert R.display_rules("official+jump_in=maybe") == "official+jump_in=maybe"


def test_chaos_counts_swings_only_with_seven_zero():
    # the atlas's Seven-Zero part traces each round: official play moves one card at a
    # time (penalties are drawn one by one), so only Seven-Zero's swaps swing a hand
    off, on = (G.parse_choice(r)[1] for r in ("official", "official+seven_zero=true"))
    rounds_off, changes_off, swings_off = G.chaos(off, 3, "random", 20)
    rounds_on, changes_on, swings_on = G.chaos(on, 3, "random", 20)
    assert (rounds_off, rounds_on) == (20, 20)
    assert swings_off == 0 and swings_on > 0
    assert changes_off > 0 and changes_on > 0


def test_vendored_bundle_carries_its_licences():
    """The Vega bundle is redistributed with the notices its BSD/ISC/MIT licences ask for."""
    notice = (REPORTS / "atlas" / "vega-embed.LICENSE.txt").read_text(encoding="utf-8")
    for name in ("Vega-Lite", "Interactive Data Lab", "Mike Bostock", "Redistribution"):
        assert name in notice
