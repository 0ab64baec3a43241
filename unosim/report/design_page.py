"""``unosim design``'s folder: ``design.csv``, a page of the trade-offs, a house rules card.

``DIR/design.csv`` holds the rule sets ranked best first (the finalists and the
``--from`` rule set confirmed on a fresh seed, then the other candidates by the rung of
the search they reached and their results there). ``DIR/design.md`` and ``.html``
(:class:`unosim.report.page.Page`) say in words what the best rule set gives, how the
targets pull against each other, and what each rule searched does to each target, with
display names (:mod:`unosim.game.names`).
``DIR/card.html`` is the best rule set as a one-page printable card in plain words.

The folder is written as ``unosim report`` writes its own, as one transaction
(:mod:`unosim.report.outfolder`): built under a temporary name beside ``DIR`` and renamed
into place; a folder that is not empty is refused unless ``force`` and an earlier design
(:data:`MARKER`). Every name goes through :mod:`unosim.report.escape`.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from ..analysis.design import METRICS, Design, Target, effects, split_base
from ..game.names import PRESET_DISPLAY, display_value
from ..game.rules import OFFICIAL, PRESETS, RuleSet, resolve
from . import escape as esc
from . import outfolder
from .page import Page, num
from .rule_words import card_sentence, rules_in_words, switch_changes

__all__ = ["write_design", "check_out", "card_html", "build_page", "MARKER"]

PAGE_NAME = "design"
CSV_NAME = "design.csv"
CARD_NAME = "card.html"
MARKER = ".unosim-design"  # written into every design folder: --force replaces only these
DESIGN_FOLDER = outfolder.FolderKind("design", MARKER, PAGE_NAME, frozenset({CSV_NAME, CARD_NAME}))

# ---------------------------------------------------------------------------- words

HOW_TO: dict[tuple[str, object], str] = {
    ("stacking", "none"): "No stacking: a Draw Two or Wild Draw Four played on you means "
    "you draw and miss your turn.",
    ("stacking", "same"): "Stacking: when a Draw Two is played on you, you may play a Draw "
    "Two instead of drawing, and the next player draws for both; the same with a Wild Draw "
    "Four on a Wild Draw Four.",
    ("stacking", "progressive"): "Stacking: when a Draw Two or Wild Draw Four is played on "
    "you, you may pass the penalty on with a Draw Two (on a Wild Draw Four, only of the "
    "colour named) or a Wild Draw Four; the next player draws the whole pile-up.",
    ("seven_zero", True): "Seven-Zero: playing a 7 swaps your hand with another player's "
    "of your choice; playing a 0 passes every hand on to the next player.",
    ("seven_zero", False): "No Seven-Zero: 7s and 0s are plain number cards.",
    ("jump_in", True): "Jump-In: anyone holding a card identical to the top card (same "
    "colour and same number or symbol) may play it at once, out of turn; play goes on "
    "from them.",
    ("jump_in", False): "No Jump-In: play only on your turn.",
    ("draw_rule", "one"): "If you cannot play, draw one card; play it if you can, else "
    "your turn ends.",
    ("draw_rule", "until_playable"): "If you cannot play, keep drawing until you draw a "
    "card you can play, and play it.",
    ("multi_play", True): "You may play several identical cards at once, or a run of "
    "cards of one colour.",
    ("multi_play", False): "Play one card a turn.",
    ("after_draw", "play"): "You may play the card you just drew if it fits.",
    ("after_draw", "pass"): "After drawing, your turn ends, even if the card drawn fits.",
    ("last_card", "any"): "You may go out on any card.",
    ("last_card", "number"): "You may go out only on a number card.",
    ("challenge", True): "A Wild Draw Four may be challenged by the player it hits.",
    ("challenge", False): "No challenges: a Wild Draw Four always stands.",
}
CARD_NAMES = {
    "skip": ("Skip", "of each colour"),
    "reverse": ("Reverse", "of each colour"),
    "draw_two": ("Draw Two", "of each colour"),
    "wild": ("Wild", "in the deck"),
    "wild_draw_four": ("Wild Draw Four", "in the deck"),
}


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def how_to(rule: str, value, base_value) -> str:
    """``rule = value`` as a sentence a player follows (``base_value``: what it replaces)."""
    if (rule, value) in HOW_TO:
        return HOW_TO[(rule, value)]
    if rule == "hand_size":
        return f"Deal {_plural(value, 'card', 'cards')} to each player (instead of {base_value})."
    if rule == "uno_penalty":
        return f"Forgetting to call UNO costs {_plural(value, 'card', 'cards')}."
    if rule == "challenge_penalty":
        return (
            f"A player who challenges a Wild Draw Four and is wrong draws {4 + value} "
            f"cards (4 + {value})."
        )
    if rule == "wd4_restriction":
        return display_value(rule, value) + "."
    table, dot, entry = rule.partition(".")
    if dot and entry in CARD_NAMES:
        name, where = CARD_NAMES[entry]
        if value == 0:
            return f"Take every {name} out of the deck."
        return f"Use {value} {name} {where} (instead of {base_value})."
    return f"{esc.code(f'{rule}={value}')}."


def base_words(spec: str) -> str:
    """The ``--from`` rule set in words: a preset's display name, else its name."""
    base, fixed = split_base(spec)
    head = PRESET_DISPLAY.get(base, Path(base).stem if base not in PRESETS else base)
    if not fixed:
        return esc.md_text(head)
    rs = resolve(base, fixed)
    words = [display_value(k, _value(rs, k)) for k in fixed]
    return esc.md_text(f"{head} with {', '.join(words)}")


def printed_base(spec: str) -> tuple[RuleSet, str]:
    """The printed rules a ``--from`` rule set starts from, and their name in words: the
    preset it names, else (a rule file) Official UNO, so that the card lists every
    rule of the file as a change."""
    base, _ = split_base(spec)
    if base in PRESETS:
        return PRESETS[base], PRESET_DISPLAY.get(base, base)
    return OFFICIAL, PRESET_DISPLAY["official"]


def _value(rs, rule: str):
    table, dot, entry = rule.partition(".")
    return rs.deck_dict[entry] if dot else getattr(rs, rule)


def changes(d: Design, c) -> list[tuple[str, object, object]]:
    """The rules searched whose value in ``c`` differs from the ``--from`` rule set:
    ``(rule, value, base value)``."""
    base = d.base_candidate or d.searched[0]
    return [(k, v, base.values[k]) for k, v in c.values.items() if v != base.values[k]]


def words(d: Design, c) -> str:
    """Candidate ``c`` in words (page markup): the base, and its changes."""
    ch = changes(d, c)
    head = base_words(d.base)
    if not ch:
        return head + " as it is"
    return head + " with " + esc.md_text(", ".join(display_value(k, v) for k, v, _ in ch))


def _fmt(t: Target, x: float) -> str:
    m = METRICS[t.metric]
    return num(x, m.digits) + (" pp" if m.unit == "pp" else m.unit)


def _signed(t: Target, x: float) -> str:
    m = METRICS[t.metric]
    return num(x, m.digits, sign=True) + (" pp" if m.unit == "pp" else m.unit)


def _measured(t: Target, c) -> str:
    est, lo, hi = c.measures[t.metric]
    return f"{_fmt(t, est)} [{_fmt(t, lo)}, {_fmt(t, hi)}]"


def target_words(t: Target) -> str:
    m = METRICS[t.metric]
    unit = {"pp": " pp", "%": "%"}.get(m.unit, "")
    if math.isinf(t.lo):
        return f"{m.label} at most {t.hi:g}{unit}"
    if math.isinf(t.hi):
        return f"{m.label} at least {t.lo:g}{unit}"
    return f"{m.label} from {t.lo:g} to {t.hi:g}{unit}"


# ----------------------------------------------------------------------------- page


def _scatter(d: Design):
    """The first rung's rule sets over the first two targets (or the first target
    alone), the target region shaded, the finalists marked."""
    import matplotlib.pyplot as plt

    df = d.first_rung
    ts = d.targets[:2]
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    fin = {c.spec for c in d.confirmed}
    is_fin = np.array([c.spec in fin for c in d.first_rung_candidates])
    x = df[ts[0].metric].to_numpy()
    y = df[ts[1].metric].to_numpy() if len(ts) > 1 else np.zeros(len(df))
    ax.scatter(x[~is_fin], y[~is_fin], s=12, color="#8c8c8c", alpha=0.6, label="rule set searched")
    ax.scatter(x[is_fin], y[is_fin], s=36, color="#d62728", label="confirmed on fresh rounds")
    lo0, hi0 = ts[0].lo, ts[0].hi
    ax.axvspan(
        lo0 if math.isfinite(lo0) else min(x.min(), hi0),
        hi0 if math.isfinite(hi0) else max(x.max(), lo0),
        color="#2ca02c",
        alpha=0.12,
        label="target",
    )
    ax.set_xlabel(esc.mpl(_axis(ts[0])))
    if len(ts) > 1:
        lo1, hi1 = ts[1].lo, ts[1].hi
        ax.axhspan(
            lo1 if math.isfinite(lo1) else min(y.min(), hi1),
            hi1 if math.isfinite(hi1) else max(y.max(), lo1),
            color="#2ca02c",
            alpha=0.12,
        )
        ax.set_ylabel(esc.mpl(_axis(ts[1])))
    else:
        ax.set_yticks([])
    ax.legend(loc="best", fontsize=8)
    g = d.rungs[0][1]
    ax.set_title(esc.mpl(f"{len(df):,} rule sets, {g:,} rounds each, {d.n_players} players"))
    return fig


def _axis(t: Target) -> str:
    m = METRICS[t.metric]
    unit = {"pp": " (percentage points)", "%": " (%)"}.get(m.unit, "")
    return m.label + unit


def build_page(d: Design, out: Path, command: str) -> Page:
    """Write the page into ``out`` (``out/design.md``, ``.html``, ``out/design/``)."""
    title = f"House rules for {d.n_players} players: " + ", ".join(
        esc.md_text(t.show()) for t in d.targets
    )
    question = (
        f"Which changes to {base_words(d.base)} give {d.n_players} players (strategies "
        f"{esc.code(d.strategies)}) rounds with "
        + "; ".join(esc.md_text(target_words(t)) for t in d.targets)
        + "?"
    )
    page = Page(PAGE_NAME, title, question, out)
    _answer(page, d)
    page.heading("Trade-offs")
    _trade_offs(page, d)
    page.heading("The rule sets confirmed")
    _confirmed(page, d)
    page.heading("How the search went")
    _search(page, d)
    _provenance(page, d, command)
    page.write()
    return page


def _answer(page: Page, d: Design) -> None:
    """The lead (the best rule set against every target, and the base's own misses),
    its rules in words and the main figure."""
    n_t = len(d.targets)
    best = d.best
    ok = [c for c in d.confirmed if c.score[0] == n_t]
    if best.score[0] == n_t:
        lead = (
            f"**{words(d, best)}** meets all {n_t} target{'s' if n_t > 1 else ''} on "
            f"{best.games:,} fresh rounds (seed {d.confirm_seed}, never used by the search): "
            + "; ".join(
                f"{esc.md_text(METRICS[t.metric].label)} {_measured(t, best)}" for t in d.targets
            )
            + f". {len(ok)} of the {len(d.confirmed)} rule sets confirmed meet every target."
        )
    else:
        lead = (
            f"No rule set searched meets all {n_t} targets on fresh rounds. The closest is "
            f"**{words(d, best)}**: "
            + "; ".join(
                f"{esc.md_text(METRICS[t.metric].label)} {_measured(t, best)}"
                f" ({'met' if t.met(best.measures[t.metric][0]) else 'missed'})"
                for t in d.targets
            )
            + "."
        )
    bc = d.base_candidate
    if bc is not None and bc is not best:
        missed = [t for t in d.targets if not t.met(bc.measures[t.metric][0])]
        lead += f" {base_words(d.base)} itself " + (
            "meets them too."
            if not missed
            else "misses "
            + ", ".join(
                f"{esc.md_text(METRICS[t.metric].label)} ({_measured(t, bc)})" for t in missed
            )
            + "."
        )
    page.lead(lead)
    page.para(
        f"Print the [house rules card]({CARD_NAME}) of this rule set; every rule set "
        f"ranked is in [{CSV_NAME}]({CSV_NAME}). Its rules, to type: {esc.code(best.spec)}."
    )
    own = rules_in_words(best.rules, printed_base(d.base)[0])
    if own:
        page.para(
            f"**Its rules beyond {esc.md_text(printed_base(d.base)[1])} as printed:** "
            + " ".join(esc.md_text(x if x.endswith(".") else x + ".") for x in own)
        )
    page.figure(
        _scatter(d),
        "search",
        "Every rule set of the search's first rung on the same rounds (common random "
        "numbers); the green band is the target range, red points the rule sets "
        "confirmed on fresh rounds (their values here are from the first rung).",
        main=True,
    )


def _trade_offs(page: Page, d: Design) -> None:
    """How many rule sets of the first rung meet each target and all of them, and what
    each rule searched does to each target."""
    n_t = len(d.targets)
    fr = d.first_rung
    n0, g0 = len(fr), d.rungs[0][1]
    met_each = {
        t.metric: int(((fr[t.metric] >= t.lo) & (fr[t.metric] <= t.hi)).sum()) for t in d.targets
    }
    all_met = int(
        np.logical_and.reduce(
            [(fr[t.metric] >= t.lo) & (fr[t.metric] <= t.hi) for t in d.targets]
        ).sum()
    )
    page.para(
        f"Of the {n0:,} rule sets played on the same {g0:,} rounds in the first rung, "
        + ", ".join(
            f"{met_each[t.metric]:,} meet {esc.md_text(target_words(t))}" for t in d.targets
        )
        + (f", and {all_met:,} meet all of them." if n_t > 1 else ".")
        + (
            " The targets pull against each other: fewer rule sets meet them together "
            "than each alone."
            if n_t > 1 and all_met < min(met_each.values())
            else ""
        )
    )
    eff = effects(d)
    if eff:
        _effects(page, d, eff)


def _effects(page: Page, d: Design, eff: list[dict]) -> None:
    """What moves each target most, and every rule's effect on every target, with the
    precision of the first rung behind them."""
    g0 = d.rungs[0][1]
    items = []
    for t in d.targets:
        top = max(eff, key=lambda e: abs(e[t.metric]))
        items.append(
            f"What moves {esc.md_text(METRICS[t.metric].label)} most: "
            f"{esc.md_text(display_value(top['rule'], top['to']))} instead of "
            f"{esc.md_text(display_value(top['rule'], top['from']))} "
            f"({_signed(t, top[t.metric])} on average)."
        )
    page.bullets(items)
    page.para(
        "What each rule searched does to each target, against the value of "
        f"{base_words(d.base)} (the mean over the first rung's rule sets with that "
        "value minus the mean over those with the original one, so averaged over "
        "the other rules searched):"
    )
    rows = []
    for e in eff:
        row = {
            "change": esc.md_text(
                f"{display_value(e['rule'], e['to'])} (instead of "
                f"{display_value(e['rule'], e['from'])})"
            )
        }
        for t in d.targets:
            m = METRICS[t.metric]
            row[esc.md_text(m.label)] = _signed(t, e[t.metric])
        rows.append(row)
    page.table(pd.DataFrame(rows))
    half = {
        t.metric: float(
            np.median(
                [(c.first[t.metric][2] - c.first[t.metric][1]) / 2 for c in d.first_rung_candidates]
            )
        )
        for t in d.targets
    }
    page.para(
        f"These come from {g0:,} rounds per rule set: each rule set's estimate there is "
        "within about "
        + ", ".join(f"±{_fmt(t, half[t.metric])} ({esc.md_text(t.metric)})" for t in d.targets)
        + " (95%), and an average over many rule sets is more precise; an effect "
        "smaller than that may be noise. `--budget` buys more rounds."
    )
    page.data(pd.DataFrame(eff), "effects", "These effects as a table")


def _confirmed(page: Page, d: Design) -> None:
    """The finalists on fresh rounds, ranked, each against every target."""
    g = d.best.games
    rows = []
    for i, c in enumerate(d.confirmed, 1):
        row = {"rank": str(i), "rule set": words(d, c)}
        for t in d.targets:
            row[esc.md_text(t.show())] = _measured(t, c) + (
                " ✓" if t.met(c.measures[t.metric][0]) else " ✗"
            )
        row["distance"] = num(c.score[1], 2)
        rows.append(row)
    page.table(pd.DataFrame(rows))
    page.para(
        f"Each on rounds 0 to {g - 1:,} of seed {d.confirm_seed} (95% intervals: t for "
        "means, order statistics for medians, Wilson for shares). ✓: the estimate lies "
        "in the target range. Distance: how far outside the targets, summed, each in "
        "units of "
        + ", ".join(
            f"{_fmt(t, METRICS[t.metric].scale)} of {esc.md_text(t.metric)}" for t in d.targets
        )
        + ". Ties are ranked by the margin: how many standard errors the estimate sits "
        "inside its nearest bound, so the top rule set is the one that misses least "
        "often on other rounds."
    )


def _search(page: Page, d: Design) -> None:
    """The space searched, how, and the rungs with their rounds."""
    g = d.best.games
    how = (
        "every rule set on the same rounds (exhaustive)"
        if d.exhaustive
        else (
            "successive halving on common random numbers: each rung keeps the best third and "
            "plays it on three times as many rounds"
        )
    )
    page.para(
        f"The space: {esc.md_text(', '.join(f'{k} ({len(v)} values)' for k, v in d.vary.items()))}"
        f", {d.space:,} rule sets"
        + (f", {d.invalid:,} of them not playable" if d.invalid else "")
        + (
            f"; {len(d.searched):,} drawn at random (seed {d.seed}) for the budget"
            if d.sampled
            else ""
        )
        + f". The search: {how}, on seed {d.seed}."
    )
    page.table(
        pd.DataFrame(
            [
                {"rung": str(i + 1), "rule sets": f"{s:,}", "rounds each": f"{n:,}"}
                for i, (s, n) in enumerate(d.rungs)
            ]
            + [
                {
                    "rung": "confirmation",
                    "rule sets": f"{len(d.confirmed):,}",
                    "rounds each": f"{g:,} (seed {d.confirm_seed})",
                }
            ]
        )
    )


def _provenance(page: Page, d: Design, command: str) -> None:
    """The command, the versions and the rule sets confirmed with their rounds."""
    import matplotlib
    import numba

    from .._version import __version__
    from ..versions import RNG_VERSION

    g = d.best.games
    runs = pd.DataFrame(
        [
            {
                "rule set": esc.code(c.spec),
                "rules hash": esc.code(c.rules.hash()),
                "deck": f"{c.rules.deck_size()} cards",
                "rounds": f"{g:,}",
                "seed": str(d.confirm_seed),
            }
            for c in d.confirmed
        ]
    )
    page.provenance(
        [command],
        {
            "unosim": f"{__version__} (RNG {RNG_VERSION}); numba {numba.__version__}, numpy "
            f"{np.__version__}, pandas {pd.__version__}, matplotlib {matplotlib.__version__}",
            "simulated": f"{d.games:,} rounds in {d.seconds:.0f} s",
        },
        runs,
    )


# ----------------------------------------------------------------------------- card

_CARD_CSS = """
@page{size:A4;margin:14mm}
body{font-family:Georgia,"Times New Roman",serif;max-width:44rem;margin:1.5rem auto;
padding:0 1rem;color:#111;line-height:1.45;font-size:12pt}
h1{font-size:22pt;margin:0 0 .2rem}p.sub{margin:0 0 1rem;color:#444}
h2{font-size:14pt;margin:1.1rem 0 .4rem;border-bottom:1px solid #999;break-after:avoid}
li{margin:.25rem 0;break-inside:avoid}
footer{margin-top:1.2rem;font-size:8.5pt;color:#555;border-top:1px solid #ccc;padding-top:.4rem}
code{font-size:8.5pt}
@media print{body{margin:0;max-width:none;font-size:11pt}a{color:inherit;text-decoration:none}}
"""


def card_html(d: Design) -> str:
    """The best rule set as a one-page printable card (HTML, print CSS): the changes to
    the base rules as sentences to follow, then what to expect, measured."""
    best = d.best
    h = esc.markup_html
    ch = changes(d, best)
    searched = {k for k, _, _ in ch}
    # a rule file's own switches and declared cards first: a table needs every rule
    printed, head = printed_base(d.base)
    own = [(k, v, b) for k, v, b in switch_changes(best.rules, printed) if k not in searched]
    lines = [how_to(k, v, b) for k, v, b in own] + [how_to(k, v, b) for k, v, b in ch]
    lines += [card_sentence(c) for c in best.rules.cards if c not in printed.cards]
    items = "".join(f"<li>{h(x)}</li>" for x in lines)
    base = h(head)
    rules = (
        f"<h2>Play {base} with these changes</h2><ol>{items}</ol><p>Everything else as usual.</p>"
        if lines
        else f"<h2>Play {base} as it is</h2>"
    )
    m = best.measures
    n = d.n_players
    seat0 = m["seat0_edge"][0] + 100.0 / n
    expect = [
        f"Rounds last {num(m['turns'][0], 0)} turns on average; half of them "
        f"{num(m['turns_median'][0], 0)} turns or fewer.",
        f"The first player wins {num(seat0, 1)}% of rounds (a fair share is {num(100.0 / n, 1)}%).",
        f"The winner scores {num(m['points'][0], 0)} points a round on average.",
    ]
    if m["stack8_share"][0] > 0:
        expect.append(
            f"A draw penalty of 8 cards or more happens in {num(m['stack8_share'][0], 1)}% "
            "of rounds."
        )
    if m["truncated_share"][0] > 0:
        expect.append(
            f"{num(m['truncated_share'][0], 2)}% of rounds are still going after "
            f"{best.rules.max_turns:,} turns."
        )
    lis = "".join(f"<li>{h(e)}</li>" for e in expect)
    g = best.games
    body = (
        f'<h1>Our house rules</h1><p class="sub">UNO for {n} players</p>{rules}'
        f"<h2>What to expect</h2><ul>{lis}</ul>"
        f"<footer>Found by <code>unosim design</code> ({h(esc.md_text(d.strategies))} players, "
        f"{g:,} simulated rounds, seed {d.confirm_seed}). Rules: <code>"
        f"{esc.html(esc.plain(best.spec))}</code></footer>"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        "<title>Our house rules</title>\n"
        f"<style>{_CARD_CSS}</style>\n</head>\n<body>\n{body}\n</body>\n</html>\n"
    )


# --------------------------------------------------------------------------- folder


def design_csv(d: Design) -> pd.DataFrame:
    """``design.csv``: :attr:`Design.table` with a column of each rule set in words."""
    t = d.table.copy()
    by_spec = {c.spec: c for c in d.searched}
    t.insert(
        2,
        "in_words",
        [esc.markup_text(words(d, by_spec[s])) if s in by_spec else s for s in t["rules"]],
    )
    return t


def check_out(out: Path, force: bool = False) -> Path:
    """Refuse an ``out`` that cannot become the design folder, in one line
    (``ValueError``; :func:`unosim.report.outfolder.check_out`); returns the folder to
    write (symlinks followed)."""
    return outfolder.check_out(out, DESIGN_FOLDER, force)


def write_design(d: Design, out: Path, force: bool = False, command: str = "") -> Path:
    """Write the folder ``out`` atomically (:func:`unosim.report.outfolder.writing`):
    ``design.csv``, ``design.md``/``.html`` with ``design/``, ``card.html``."""
    out = Path(out)
    marker = "unosim design: this folder may be replaced by unosim design --force\n"
    with outfolder.writing(out, DESIGN_FOLDER, force, marker) as tmp:
        esc.csv_frame(design_csv(d)).to_csv(
            tmp / CSV_NAME, index=False, float_format="%.6g", lineterminator="\n"
        )
        build_page(d, tmp, command or "unosim design")
        (tmp / CARD_NAME).write_text(card_html(d))
    return out
