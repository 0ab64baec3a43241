"""Watch a round: ``unosim replay ... --html OUT`` writes one offline page that steps
through a replayed round with every hand open.

The page is a single file: its style, its script and the round (as JSON) are inlined,
nothing is fetched from elsewhere, and a Content-Security-Policy lets only its own
script and style run. Every step is a line of the text replay
(:func:`unosim.sim.replay.steps`: a wild card and the colour named with it are one
step), annotated as the move checker (:mod:`unosim.verify.checker`) judged the rows it
tells. Untrusted text (rule names, strategy labels, declared cards' names) reaches the
page only escaped: HTML-escaped in the markup, and as JSON with ``<``, ``>``, ``&`` and
the JavaScript line separators written as ``\\uXXXX`` inside the data block (read with
``JSON.parse``, shown with ``textContent``).
"""

from __future__ import annotations

import base64
import hashlib
import json
from importlib import resources

from markupsafe import escape

from ..game.cards import COLOUR, COLOURS, N_KINDS, kind_name
from ..sim.replay import Replay, steps

# step-by-step speeds the page offers (steps per second)
SPEEDS = (1, 2, 5, 10, 30)


def _static(name: str) -> str:
    return resources.files("unosim.table").joinpath("static").joinpath(name).read_text("utf-8")


def script_json(data) -> str:
    """``data`` as JSON safe inside an HTML ``<script>`` element: no ``</script>``, no
    ``<!--``, no line separator that ends a JavaScript string."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for ch, code in (
        ("&", "\\u0026"),
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(ch, code)
    return text


def page_data(rp: Replay) -> dict:
    """What the page shows, JSON-ready: how the round was made, its result, the
    checker's verdict, and the steps (each with the state and every hand after it)."""
    row = rp.row
    by_row: dict[int, list[str]] = {}
    for v in rp.violations:
        by_row.setdefault(v.row, []).append(v.message)
    out_steps = []
    for st in steps(rp):
        after = st["after"]
        out_steps.append(
            {
                "row": st["row"],
                "turns": st["turns"],
                "who": st["who"],
                "seat": st["event"]["seat"],
                "text": st["text"],
                "state": st["state"],
                "top": after["top"],
                "colour": after["colour"],
                "direction": after["direction"],
                "pending": after["pending_draw"],
                "draw_pile": after["draw_pile"],
                "discard_pile": after["discard_pile"],
                "hands": after["hands"],
                "violations": [m for r in st["rows"] for m in by_row.get(r, [])],
            }
        )
    return {
        "rules": rp.rules.name,
        "rules_hash": rp.rules.hash(),
        "players": rp.n_players,
        "strategies": list(rp.labels),
        "seed": rp.seed,
        "game": rp.game,
        "winner": None if row["truncated"] else row["winner"],
        "points": row["points"],
        "turns": row["turns"],
        "round_violations": by_row.get(-1, []),
        "violations": len(rp.violations),
        "speeds": list(SPEEDS),
        "card_colours": card_colours(rp.rules.card_names),
        "steps": out_steps,
    }


def card_colours(names: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """Each card's name (as the replay writes it) and its colour, for the page's style
    (``""`` for a wild card)."""
    out = []
    for k in range(N_KINDS):
        c = int(COLOUR[k])
        out.append((kind_name(k, names), COLOURS[c] if 0 <= c < 4 else ""))
    return out


def _sha256(text: str) -> str:
    return base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode()


def replay_page(rp: Replay) -> str:
    """The whole page for one replayed round (a string of HTML)."""
    data = page_data(rp)
    script = _static("watch.js")
    style = _static("watch.css")
    csp = (
        f"default-src 'none'; script-src 'sha256-{_sha256(script)}'; "
        f"style-src 'sha256-{_sha256(style)}'; base-uri 'none'; form-action 'none'"
    )
    n = rp.n_players
    title = f"unosim replay: {rp.rules.name}, {n} players, seed {rp.seed}, game {rp.game}"
    verdict = (
        f"The move checker finds {len(rp.violations)} violation(s) of the rules."
        if rp.violations
        else f"The move checker finds every move of the {len(data['steps'])} steps legal."
    )
    speeds = "".join(
        f'<option value="{s}"{" selected" if s == 2 else ""}>{s} per second</option>'
        for s in SPEEDS
    )
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{escape(csp)}">
<title>{escape(title)}</title>
<style>{style}</style>
</head>
<body>
<header>
<h1>{escape(title)}</h1>
<p id="made">Rules <b>{escape(rp.rules.name)}</b> ({escape(rp.rules.hash())}),
strategies {escape(", ".join(rp.labels))}. Every hand is open.
<span id="verdict">{escape(verdict)}</span></p>
</header>
<nav id="controls" aria-label="steps">
<button type="button" id="first" title="the deal">&laquo; first</button>
<button type="button" id="prev" title="one step back">&#x25c0; back</button>
<button type="button" id="play">&#x25b6; play</button>
<button type="button" id="next" title="one step on">next &#x25b6;</button>
<button type="button" id="last" title="the end">last &raquo;</button>
<label>speed <select id="speed">{speeds}</select></label>
<input type="range" id="slider" min="0" value="0" aria-label="step">
<span id="position"></span>
</nav>
<main>
<section id="now" aria-live="polite">
<p id="move"></p>
<p id="check"></p>
<p id="pile"></p>
</section>
<section id="hands"></section>
<section id="end" hidden></section>
<section><h2>Moves so far</h2><ol id="moves"></ol></section>
</main>
<script type="application/json" id="replay-data">{script_json(data)}</script>
<script>{script}</script>
</body>
</html>
"""
