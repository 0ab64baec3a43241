"""Write the rules atlas: ``reports/atlas.html`` and its data beside it.

Escaping: the page's static text is this module's own; every text the script shows
goes in through ``textContent`` and every JSON blob is made safe for ``<script>``
(``_script_json``). The page loads everything by ``<script>`` and ``<link>`` (so it
works from ``file://`` with no server): its script and style (``atlas/atlas.js``,
``atlas/atlas.css``, copied from this package's ``assets/``), ``atlas/vega-embed.js``
(Vega, Vega-Lite and Vega-Embed, bundled by vl-convert; its licences in
``atlas/vega-embed.LICENSE.txt``), and one data file per group
(``atlas/data/<strategy>-<deck>-<n>.js``, packed by ``atlas_data``), fetched when a
choice needs it. The figures are Vega-Lite specifications written with Altair; the page
fills in their data.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

from ..game import names as R
from ..game.rules import PRESET_NOTES
from . import atlas_data as D
from . import atlas_grid as G
from . import pace as P

ASSETS = Path(__file__).with_name("assets")
# the page's own script and style, copied beside it as they are
PAGE_ASSETS = ("atlas.js", "atlas.css")
VEGA_LICENCES = ASSETS / "vega-embed.LICENSE.txt"

STRATEGY_TEXT = {
    "random": (
        "random players",
        "Random players pick, each turn, one of the cards they "
        "may play at random; they never bluff, never forget to call UNO, never "
        "challenge and never play several cards at once (the rules' reference "
        "player).",
    ),
    "table": (
        "people at a table",
        "Table players play sensibly (they keep wilds for "
        "later and attack a player about to go out) but, like people, bluff a Wild "
        "Draw Four on one turn in five when they could, forget to call UNO one time "
        "in ten, stack 80% and jump in half of the times they could.",
    ),
}
EDITION_TEXT = {
    "official-2018-swap": "UNO 2018 deck, blank card swaps hands",
    "official-2018": "UNO 2018 deck, blank card as a Wild",
}
# what a person would notice: smaller effects make "no practical difference"
THRESHOLDS = R.NOTICE


def config(rounds: dict[str, int], built: dict[str, list[int]]) -> dict:
    """What the page's script needs to know of the grid (no numbers of cells)."""
    return {
        "switches": [
            {
                "rule": s,
                "name": R.DISPLAY[s][0],
                "values": [json.loads(json.dumps(v)) for v in vals],
                "labels": [R.display_value(s, v) for v in vals],
                "short": [
                    ("on" if v else "off") if isinstance(v, bool) else R.display_value(s, v)
                    for v in vals
                ],
                "syntax": [str(v).lower() for v in vals],
            }
            for s, vals in G.SWITCHES
        ],
        "decks": [{"id": d, "preset": p, "house": h} for d, p, h in G.DECKS],
        "editions": [
            {
                "id": e,
                "deck": d,
                "sets": sets,
                "name": EDITION_TEXT.get(e, R.PRESET_DISPLAY.get(e, e)),
                "note": PRESET_NOTES.get(e.replace("-swap", ""), ""),
            }
            for e, d, sets in G.EDITIONS
        ],
        "strategies": {s: {"name": t[0], "text": t[1]} for s, t in STRATEGY_TEXT.items()},
        "random_ignores": list(G.RANDOM_IGNORES),
        "rounds": rounds,
        "built": built,
        "fields": list(G.FIELDS),
        "turn_width": {n: G.turn_width(n) for n in G.PLAYERS},
        "turn_bins": G.TURN_BINS,
        "point_width": G.POINT_WIDTH,
        "point_bins": G.POINT_BINS,
        "big_penalty": G.BIG_PENALTY,
        "thresholds": THRESHOLDS,
        "counts": G.counts(),
        "pace": {
            "default": P.SECONDS_PER_TURN,
            "min": P.MIN_SECONDS_PER_TURN,
            "max": P.MAX_SECONDS_PER_TURN,
            "note": P.pace_note().replace(f"{P.SECONDS_PER_TURN:g} seconds", "this many seconds"),
        },
        "verdicts": {
            "first_pp": P.FIRST_MATTERS_PP,
            "first_a_lot_pp": P.FIRST_MATTERS_A_LOT_PP,
            "chaos_leads": P.CHAOS_LEAD_CHANGES,
            "chaos_swings": P.CHAOS_SWINGS_PER_ROUND,
        },
    }


def chart_specs() -> dict:
    """Vega-Lite specifications (Altair) of the three figures; the page sets their
    ``data.values``."""
    import altair as alt

    colours = alt.Scale(domain=["your rules", "baseline"], range=["#d62728", "#7f7f7f"])
    length = (
        alt.Chart(alt.Data(values=[]))
        .mark_line(interpolate="step-after")
        .encode(
            x=alt.X("turns:Q", title="turns in the round"),
            y=alt.Y("share:Q", title="share of rounds (%)"),
            color=alt.Color(
                "rules:N",
                scale=colours,
                title=None,
                legend=alt.Legend(orient="top", labelLimit=500),
            ),
            tooltip=["rules:N", "turns:Q", alt.Tooltip("share:Q", format=".2f")],
        )
        .properties(width=520, height=220, title="How long rounds last")
    )
    base = alt.Chart(alt.Data(values=[]))
    seats = alt.layer(
        base.mark_rule(strokeDash=[4, 4], color="#7f7f7f").encode(y="fair:Q"),
        base.mark_errorbar().encode(
            x=alt.X("seat:O", title="seat (0 plays first)"),
            y=alt.Y("lo:Q", title="rounds won (%)"),
            y2="hi:Q",
        ),
        base.mark_point(filled=True, size=60, color="#d62728").encode(
            x="seat:O",
            y="rate:Q",
            tooltip=[
                "seat:O",
                alt.Tooltip("rate:Q", format=".1f"),
                alt.Tooltip("lo:Q", format=".1f"),
                alt.Tooltip("hi:Q", format=".1f"),
            ],
        ),
    ).properties(
        width=360, height=220, title="Who wins, by seat (95% intervals; dashed: a fair share)"
    )
    points = (
        alt.Chart(alt.Data(values=[]))
        .mark_bar(opacity=0.75)
        .encode(
            x=alt.X(
                "points:Q",
                bin=alt.Bin(step=G.POINT_WIDTH, extent=[0, 620]),
                title="points the winner scores (last bar: 600 or more)",
            ),
            y=alt.Y("share:Q", title="share of rounds (%)", stack=None),
            color=alt.Color(
                "rules:N",
                scale=colours,
                title=None,
                legend=alt.Legend(orient="top", labelLimit=500),
            ),
            tooltip=["rules:N", "points:Q", alt.Tooltip("share:Q", format=".2f")],
        )
        .properties(width=520, height=200, title="Points per round")
    )
    return {k: c.to_dict() for k, c in (("length", length), ("seats", seats), ("points", points))}


def write_atlas(
    out: Path,
    rounds: dict[str, int],
    read: Callable[[str, int, int], dict | None],
    chaos: dict | None = None,
) -> Path:
    """Write ``out/atlas.html`` and ``out/atlas/`` from the parts that ``read`` finds
    complete (groups not built are said to be missing on the page), with Seven-Zero's
    turn-by-turn measures ``chaos`` (strategy -> players -> off/on -> ``atlas_grid.chaos``).
    Returns the page."""
    import altair as alt
    import vl_convert as vlc

    folder = out / "atlas"
    data = folder / "data"
    data.mkdir(parents=True, exist_ok=True)
    for old in data.glob("*.js"):
        old.unlink()
    built: dict[str, list[int]] = {}
    for s in rounds:
        for d, (deck, _, _) in enumerate(G.DECKS):
            for n in G.PLAYERS:
                part = read(s, d, n)
                if part is None:
                    continue
                name = f"{s}-{deck}-{n}"
                built.setdefault(s, []).append(n) if d == 0 else None
                _write(data / f"{name}.js", D.data_file(name, part["cells"], n))
    built = {s: sorted(set(v)) for s, v in built.items()}
    vl = ".".join(alt.SCHEMA_VERSION.lstrip("v").split(".")[:2])
    # vl-convert's stub marks ``snippet`` required; at run time it defaults to the
    # snippet that puts vegaEmbed, vegaLite and vega on ``window``, which the page uses
    bundle = vlc.javascript_bundle(vl_version=vl)  # type: ignore[call-arg, unused-ignore]
    _write(folder / "vega-embed.js", bundle)
    # the bundle's BSD and ISC licences require their notices beside it
    _write(folder / "vega-embed.LICENSE.txt", VEGA_LICENCES.read_text(encoding="utf-8"))
    _copy_page_assets(folder)
    cfg = config(rounds, built)
    cfg["chaos"] = chaos or {}
    cfg["swing"] = G.SWING
    page = PAGE.format(
        config=_script_json(cfg),
        specs=_script_json(chart_specs()),
        total=f"{cfg['counts']['answers']:,}",
    )
    path = out / "atlas.html"
    _write(path, page)
    return path


def rewrite_page(out: Path) -> Path:
    """Write ``out/atlas.html`` again from its own configuration (its rounds, the
    groups built, Seven-Zero's measures, the figures' specifications), after a change to
    the page's text or script; the data files and the figures' library stay as they
    are (so neither the parts nor altair are needed)."""
    path = out / "atlas.html"
    old = path.read_text(encoding="utf-8")
    start = '<script id="atlas-config" type="application/json">'
    cfg_old = json.loads(old.split(start, 1)[1].split("</script>", 1)[0])
    specs = old.split('<script id="atlas-specs" type="application/json">', 1)[1]
    _copy_page_assets(out / "atlas")
    cfg = config(cfg_old["rounds"], cfg_old["built"])
    cfg["chaos"] = cfg_old.get("chaos", {})
    cfg["swing"] = G.SWING
    page = PAGE.format(
        config=_script_json(cfg),
        specs=specs.split("</script>", 1)[0],  # the figures' specifications as they were
        total=f"{cfg['counts']['answers']:,}",
    )
    _write(path, page)
    return path


def _copy_page_assets(folder: Path) -> None:
    for name in PAGE_ASSETS:
        _write(folder / name, (ASSETS / name).read_text(encoding="utf-8"))


def _script_json(obj) -> str:
    """JSON safe inside a ``<script>`` element."""
    return json.dumps(obj, ensure_ascii=True).replace("</", "<\\/")


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>The UNO rules atlas</title>
<link rel="stylesheet" href="atlas/atlas.css">
<script src="atlas/vega-embed.js"></script>
</head><body>
<h1>The UNO rules atlas</h1>
<p class="lede">Tick the rules you play with, pick how many play, and read how long a round
lasts, how much going first helps and what each house rule changes. Every answer comes
from simulated rounds: <span id="count-text"></span></p>
<nav id="questions" aria-label="common questions"><b>Common questions:</b>
<a href="#rules=official%2Bstacking%3Dsame&amp;players=4&amp;strategies=random&amp;q=stacking">Does stacking make games longer?</a>
<a href="#rules=official&amp;players=4&amp;strategies=random&amp;q=first">How much does going first matter?</a>
<a href="#rules=official%2Bseven_zero%3Dtrue&amp;players=4&amp;strategies=table&amp;q=seven_zero">Is Seven-Zero chaos?</a>
<a href="#rules=official&amp;players=8&amp;strategies=random&amp;q=length">How long is a round at 8 players?</a>
<a href="#rules=official&amp;players=4&amp;strategies=random&amp;q=editions">Which edition is quickest?</a>
<a href="#rules=official&amp;players=3&amp;strategies=random&amp;q=first">Does going first matter with 3 players?</a>
<a href="skill.html">Is UNO luck or skill?</a>
</nav>
<div id="layout">
<div id="side"><form id="controls" aria-label="your rules"></form>
<form id="pace-form" aria-label="pace at your table"></form></div>
<main>
<section id="question" hidden></section>
<section id="answer" aria-live="polite"><p>Loading…</p></section>
<section id="figures"><div id="fig-length"></div><div id="fig-seats"></div>
<div id="fig-points"></div></section>
<section id="flips"></section>
<section id="about"></section>
</main></div>
<script id="atlas-config" type="application/json">{config}</script>
<script id="atlas-specs" type="application/json">{specs}</script>
<script src="atlas/atlas.js"></script>
<noscript>The atlas needs JavaScript to show an answer.</noscript>
</body></html>
"""
