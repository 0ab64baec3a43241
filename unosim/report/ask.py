"""``unosim report``: a report page for the user's own question.

``RULES...`` (the syntax of ``unosim compare``: a preset, a TOML file, or
``BASE+NAME=VALUE,...``; ``--house`` switches go on top of every one) are played on the
same games (common random numbers, :mod:`unosim.analysis.compare`) at each player count asked,
and compared with the first; a rule set alone is described without comparison. The page
calls each rule set by its ``--name`` or its display name (:mod:`unosim.game.names`);
the rule syntax stays in the provenance. It is written by
:class:`unosim.report.page.Page`, the code of the ``make reports`` pages: Markdown, an
HTML twin (it opens offline), the figures as SVG beside them (stored once, shown by both),
a CSV of every table.

It opens with one plain sentence per metric and rule set (:mod:`unosim.report.findings`),
then (with a baseline) the forest plot of every relative change, the precision reached,
for every player count in the order asked the distributions of round length and points
and the seat win rates, each metric against the number of players (with several
counts), the tables, and how the page was made.

The folder is written as one transaction (:mod:`unosim.report.outfolder`): built under
a temporary name beside ``--out`` and renamed into place; a folder that is not empty is
refused unless ``force``, and even then unless it is an earlier report (:data:`MARKER`
in it, nothing else added); a lock beside it keeps a second run out while one writes.
Names and titles reach the page, figures and CSVs through :mod:`unosim.report.escape`.
"""

from __future__ import annotations

import math
import shlex
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..analysis.compare import parse_spec, run_arms
from ..game.names import DISPLAY, display_players, display_ruleset, display_value
from ..game.rules import OFFICIAL, RuleSet
from ..stats import win_rates
from . import escape as esc
from . import figures, outfolder, palette
from . import pace as P
from .findings import METRICS as FINDING_METRICS
from .findings import describe, findings, findings_data, findings_table, measures, shown_ci
from .pace import SECONDS_PER_TURN
from .page import Page, num
from .rule_words import card_sentence

__all__ = [
    "Question",
    "default_games",
    "parse_players",
    "prepare",
    "build_page",
    "write_report",
    "PAGE_NAME",
]

PAGE_NAME = "report"  # DIR/report.md, DIR/report.html, figures and CSVs in DIR/report/
COLUMNS = ("game", "turns", "winner", "points", "truncated", "cards_drawn", "max_stack")
BUDGET = 1_500_000  # default rounds in all; see default_games
MAX_DEFAULT, MIN_DEFAULT = 500_000, 20_000


def default_games(n_rules: int, n_counts: int) -> int:
    """Rounds per rule set and player count by default: ``BUDGET`` shared out, between
    20,000 and 500,000 (3 rule sets at 4 players: 500,000 each)."""
    g = BUDGET // max(1, n_rules * n_counts)
    return int(min(MAX_DEFAULT, max(MIN_DEFAULT, g)))


def parse_players(text: str | int | Sequence[int]) -> list[int]:
    """``"4"`` or ``"6,2,4"`` -> distinct counts in the order given (each checked by the
    rules later); the first leads the page."""
    if isinstance(text, (int, np.integer)):
        items = [int(text)]
    elif isinstance(text, str):
        items = []
        for t in filter(None, (s.strip() for s in text.split(","))):
            try:
                items.append(int(t))
            except ValueError:
                raise ValueError(f"players must be whole numbers, got {t!r}") from None
    else:
        items = [int(t) for t in text]
    if not items:
        raise ValueError("no player count given")
    for n in items:
        if not 2 <= n <= 10:
            raise ValueError(f"players must be between 2 and 10, got {n}")
    return list(dict.fromkeys(items))


# bytes of a round's COLUMNS: game int64; turns, points, cards_drawn int32; max_stack
# int16; winner int8; truncated bool
ROW_BYTES = 24


def check_memory(n_rules: int, n_counts: int, games: int) -> None:
    """One-line ``ValueError`` if every round of every rule set and player count, all
    held at once for the page, would pass :data:`unosim.analysis.compare.MAX_ROWS`."""
    from ..analysis.compare import MAX_ROWS

    rows = n_rules * n_counts * games
    if rows > MAX_ROWS:
        raise ValueError(
            f"games: {n_rules} rule sets x {n_counts} player counts x "
            f"{games:,} rounds = {rows:,} rounds held in memory together, "
            f"at least {rows * ROW_BYTES / 1e9:,.0f} GB; a report holds at "
            f"most {MAX_ROWS:,} ({MAX_ROWS * ROW_BYTES / 1e9:.1f} GB)"
        )


@dataclass
class Question:
    """What the user asks: rule sets (the first is the baseline; one alone is described
    without comparison), player counts (the first leads the page), strategies, games per
    rule set and count, seed, an optional title, and optional labels (``names``, one per
    rule set; default: their display names)."""

    rules: list[str]
    players: list[int]
    strategies: str = "random"
    games: int | None = None
    seed: int = 0
    house: str | None = None
    title: str | None = None
    names: list[str] | None = None
    seconds_per_turn: float = SECONDS_PER_TURN

    @property
    def n_games(self) -> int:
        if self.games is None:
            return default_games(len(self.rules), len(self.players))
        return self.games


MAX_NAME = 60  # characters of a --name


def check_names(names: Sequence[str] | None, n_rules: int) -> None:
    """One-line ``ValueError`` unless ``names`` (from ``--name``) are one per rule set,
    not blank, at most :data:`MAX_NAME` characters and distinct."""
    if names is None:
        return
    if len(names) != n_rules:
        raise ValueError(
            f"--name: {len(names)} name{'s' if len(names) != 1 else ''} for {n_rules} rule "
            f"set{'s' if n_rules != 1 else ''}: give one --name per rule set, in their order"
        )
    for name in names:
        if not str(name).strip():
            raise ValueError("--name: a name is empty")
        if len(name) > MAX_NAME:
            shown = esc.plain(name[:24])
            raise ValueError(f"--name {shown}...: {len(name)} characters, at most {MAX_NAME}")
    if len(set(names)) < len(names):
        raise ValueError(f"--name: a name is given twice: {esc.plain(', '.join(names))}")


def labels(q: Question, rules: Sequence[RuleSet]) -> list[str]:
    """What the page calls each rule set: its ``--name``, else its display name
    (:func:`unosim.game.names.display_ruleset`: "Official UNO with stacking (same card)"),
    or its rule syntax where two display names would read alike."""
    if q.names is not None:
        return list(q.names)
    shown = [display_ruleset(rs) for rs in rules]
    return [rs.name if shown.count(s) > 1 else s for s, rs in zip(shown, rules)]


def prepare(q: Question) -> list[RuleSet]:
    """Validate everything before any game is played (the errors of ``simulate``, and
    the ``--name`` labels); returns the rule sets (with ``house``)."""
    from ..sim.simulate import make_job

    if not q.rules:
        raise ValueError("a report needs a rule set (or several, compared with the first)")
    check_names(q.names, len(q.rules))
    P.check_pace(q.seconds_per_turn)
    if isinstance(q.games, int) and q.games == 1:
        raise ValueError(
            "games: a report needs at least 2 rounds per rule set (its "
            "intervals come from the spread between rounds)"
        )
    check_memory(len(q.rules), len(q.players), q.n_games)
    specs = [parse_spec(r) for r in q.rules]
    out = []
    for rs in specs:
        for n in q.players:
            job = make_job(rs, q.n_games, n, q.strategies, q.seed, q.house)
        out.append(job.rules)
    names = [rs.name for rs in out]
    if len(set(names)) < len(names):
        raise ValueError(f"a rule set is given twice: {', '.join(names)}")
    return out


# ---------------------------------------------------------------------------- page


def _summary(
    frames: dict, names: list[str], counts: list[int], syntax: list[str]
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per rule set and count: shown table (strings) and its numbers (for the CSV and
    the figure against players)."""
    shown, data = [], []
    for n in counts:
        for name, rules, df in zip(names, syntax, frames[n]):
            m = measures(df, n)
            med = m.pop("median_turns")
            trunc = int(df["truncated"].sum())
            shown.append(
                {
                    "players": str(n),
                    "rule set": esc.md_text(name),
                    "rounds": f"{len(df):,}",
                    "mean turns [95%]": shown_ci(m, "turns"),
                    "median turns": num(med[0], 0),
                    "seat 0 wins, % [95%]": shown_ci(m, "seat0"),
                    "winner's points [95%]": shown_ci(m, "points"),
                    "cards drawn [95%]": shown_ci(m, "cards_drawn"),
                    "largest penalty, cards [95%]": shown_ci(m, "max_stack"),
                    "truncated": f"{trunc:,}",
                }
            )
            rows = [(key, *t) for key, t in m.items()]
            rows += [("median_turns", *med), ("truncated", trunc / len(df), math.nan, math.nan)]
            data += [
                {
                    "players": n,
                    "rules": name,
                    "syntax": rules,
                    "metric": key,
                    "est": e,
                    "lo": lo,
                    "hi": hi,
                }
                for key, e, lo, hi in rows
            ]
    return pd.DataFrame(shown), pd.DataFrame(data)


def _rule_differences(rules: list[RuleSet], names: list[str]) -> pd.DataFrame:
    """Every rule whose value differs between the rule sets, one column per rule set
    (plain text: the rule, then each rule set's value); declared cards (``cards``) are
    compared too, though only some of the rule sets declare any."""
    dicts = [rs.to_dict(with_name=False) for rs in rules]
    keys = list(dicts[0]) + [k for d in dicts[1:] for k in d if k not in dicts[0]]
    rows = []
    for key in dict.fromkeys(keys):
        vals = [d.get(key) for d in dicts]
        if any(v != vals[0] for v in vals[1:]):
            rows.append([key] + [_value(v) if v is not None else "" for v in vals])
    return pd.DataFrame(rows, columns=["rule"] + list(names))


def _rules_in_words(rules: list[RuleSet], names: list[str]) -> pd.DataFrame:
    """The rules that differ, as a reader reads them: a house switch by its display name
    and value, each declared card with its effect in words (from its declaration)."""
    dicts = [rs.to_dict(with_name=False) for rs in rules]
    keys = list(dicts[0]) + [k for d in dicts[1:] for k in d if k not in dicts[0]]
    rows = []
    for key in dict.fromkeys(keys):
        vals = [d.get(key) for d in dicts]
        if all(v == vals[0] for v in vals[1:]):
            continue
        if key == "cards":
            words = [
                " ".join(card_sentence(c) for c in rs.cards) or "no declared cards" for rs in rules
            ]
            rows.append(["declared cards"] + words)
        elif key in DISPLAY:
            rows.append([DISPLAY[key][0]] + [display_value(key, v) for v in vals])
        else:
            rows.append([key] + [_value(v) for v in vals])
    return pd.DataFrame(rows, columns=["rule"] + list(names))


def _value(v) -> str:
    if isinstance(v, dict):
        return ", ".join(f"{k} {x}" for k, x in v.items())
    if isinstance(v, (list, tuple)):
        return " ".join(str(x) for x in v)
    return str(v).lower() if isinstance(v, bool) else str(v)


def _who(counts: list[int]) -> str:
    if len(counts) == 1:
        return f"{counts[0]} players"
    return f"{', '.join(map(str, counts[:-1]))} and {counts[-1]} players"


@dataclass
class Played:
    """The rounds a report rests on: every rule set at every player count asked, on the
    same games, with what the page calls them."""

    q: Question
    rules: list[RuleSet]
    names: list[str]  # the page's names of the rule sets
    palette: dict[str, str]  # name -> colour (following the rules)
    counts: list[int]  # in the order asked: the first leads
    frames: dict[int, list[pd.DataFrame]]  # player count -> one frame per rule set
    seconds: float  # of simulation

    @property
    def alone(self) -> bool:
        return len(self.rules) == 1

    @property
    def syntax(self) -> list[str]:
        return [rs.name for rs in self.rules]


def play(
    q: Question,
    rules: list[RuleSet],
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Played:
    """Simulate every rule set at every player count asked (common random numbers)."""
    names = labels(q, rules)
    pal = dict(zip(names, palette.colours([rs.name for rs in rules]).values()))
    counts = list(q.players)
    t0 = time.perf_counter()
    frames = {
        n: run_arms(rules, n, q.n_games, q.seed, q.strategies, threads, progress, columns=COLUMNS)
        for n in counts
    }
    return Played(q, rules, names, pal, counts, frames, time.perf_counter() - t0)


def build_page(
    q: Question,
    out: Path,
    rules: list[RuleSet] | None = None,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    command: str | None = None,
) -> Page:
    """Simulate, then write the page into ``out`` (``out/report.md`` ...); returns it.
    The page's :attr:`~unosim.report.page.Page.opening` holds its plain findings at the
    first player count (what ``unosim report`` prints)."""
    rules = rules if rules is not None else prepare(q)
    return render_page(play(q, rules, threads, progress), out, command)


def render_page(p: Played, out: Path, command: str | None = None) -> Page:
    """Write the page of the rounds ``p`` into ``out``; returns it."""
    q, names, counts = p.q, p.names, p.counts
    page = Page(PAGE_NAME, *_title_and_question(p), out)
    page.heading("Answer")
    if p.alone:
        order = _answer_alone(
            page, p.frames, names[0], counts, q.n_games, q.seed, q.seconds_per_turn
        )
    else:
        order = _answer_compared(
            page, p.frames, names, p.rules, counts, q.n_games, q.seed, q.strategies, p.palette
        )
        minutes = minutes_sentence(p.frames[counts[0]], names, q.seconds_per_turn)
        page.para(f"**At the table** ({counts[0]} players). {minutes}")
        page.at_the_table = [minutes]
    page.para(esc.md_text(P.pace_note(q.seconds_per_turn)))
    page.heading("Figures")
    for n in counts:
        if len(counts) > 1:
            page.heading(f"{n} players", 3)
        _figures(
            page, dict(zip(names, p.frames[n])), n, "" if len(counts) == 1 else f"-{n}", p.palette
        )
    shown, data = _summary(p.frames, names, counts, p.syntax)
    if len(counts) > 1:
        _by_players_figure(page, data, q.strategies, p.palette)
    _tables(page, p, order, shown, data)
    _rules_played(page, p)
    _provenance(page, p, command)
    page.write()
    return page


def _title_and_question(p: Played) -> tuple[str, str]:
    """The page's title (``--title``, or the rule sets compared) and its question."""
    q, names = p.q, p.names
    who = _who(p.counts)
    sep = "; " if any("," in x for x in names) else ", "  # names with commas in them
    # who plays, in words for one strategy at every seat; seat by seat as typed otherwise
    if "," in q.strategies:
        playing = f"seats {esc.code(q.strategies)}"
    else:
        playing = esc.md_text(display_players(q.strategies))
    shown_names = sep.join(esc.md_text(x) for x in names)
    if p.alone:
        title = esc.md_text(q.title or names[0])
        question = (
            f"How do rounds go under {shown_names} with {who} ({playing}): how long they "
            "last, who wins, how many points, how "
            "many cards are drawn, how large penalties grow?"
        )
    else:
        base, others = names[0], names[1:]
        title = esc.md_text(q.title or f"{sep.join(others)} against {base}")
        question = (
            f"What do {sep.join(esc.md_text(o) for o in others)} change against "
            f"{esc.md_text(base)} with {who} ({playing}): how "
            "long rounds last, who wins, how many points, how many cards are drawn, how "
            "large penalties grow?"
        )
    return title, question


def _by_players_figure(page: Page, data: pd.DataFrame, strategies: str, pal: dict) -> None:
    """Each metric against the number of players (with several counts)."""
    page.heading("Against the number of players", 3)
    d = data.copy()
    s0 = d["metric"] == "seat0"
    for c in ("est", "lo", "hi"):  # seat 0's wins relative to the fair share 1/n
        d.loc[s0, c] = d.loc[s0, c] * d.loc[s0, "players"]
    page.figure(
        figures.by_players(
            d.rename(columns={"rules": "name"}),
            [
                ("turns", "mean turns per round"),
                ("seat0", "seat 0 wins ÷ fair share 1/n"),
                ("points", "winner's points per round"),
                ("cards_drawn", "cards drawn per round"),
                ("max_stack", "largest draw penalty (cards)"),
            ],
            title=f"Against the number of players ({strategies})",
            palette=pal,
        ),
        "by-players",
        "Each metric at every player count simulated (means with 95% "
        "intervals; no line joins counts, only those shown were simulated).",
    )


def _tables(page: Page, p: Played, order: list, shown: pd.DataFrame, data: pd.DataFrame) -> None:
    """The analysts' fold: the differences from the baseline, each rule set's numbers
    and every seat's win rate."""
    page.fold("For analysts: the tables (intervals, tests, every seat)")
    page.heading("Tables")
    if not p.alone:
        page.heading("Differences from the baseline", 3)
        page.table(findings_table(order, show=esc.md_text), scroll=True)
        page.para(
            "Difference: rule set minus baseline on the same games, with its 95% interval "
            "(Student t on the per-round differences; Newcombe's paired interval for seat "
            "0's win rate, in percentage points, pp). Relative: the ratio of the means "
            "minus 1, delta-method interval; a rate changes in percentage points only. "
            "Truncated rounds, if any, count with their turns (max_turns) and 0 points."
        )
        page.data(findings_data(order), "differences", "This table at full precision")
    page.heading("The rule set" if p.alone else "Each rule set", 3)
    page.table(shown, scroll=True)
    page.data(data, "summary", "Its numbers")
    seats = _seat_rates(p)
    page.heading("Seat win rates", 3)
    for n in p.counts:
        wide = seats[seats["players"] == n]
        tab = pd.DataFrame({"seat": [str(s) for s in range(n)]})
        for name in p.names:
            w = wide[wide["rules"] == name].set_index("seat")
            head = f"{esc.md_text(name)}, % [95%]"
            if len(p.counts) > 1:
                head = f"{n} players: {head}"
            tab[head] = [
                _pct_ci(w.loc[s, "rate"], w.loc[s, "lo"], w.loc[s, "hi"]) for s in range(n)
            ]
        page.table(tab, scroll=True)
    page.data(seats, "seats", "Every seat at every player count")
    page.end_fold()


def _seat_rates(p: Played) -> pd.DataFrame:
    """Every seat's wins and win rate (Wilson interval), per player count and rule set."""
    rows = []
    for n in p.counts:
        for name, df in zip(p.names, p.frames[n]):
            wr = win_rates(df["winner"].to_numpy(), n)
            rows += [
                {
                    "players": n,
                    "rules": name,
                    "seat": int(seat),
                    "wins": int(wins),
                    "games": int(games),
                    "rate": rate,
                    "lo": lo,
                    "hi": hi,
                }
                for seat, wins, games, rate, lo, hi in zip(
                    *(wr[c].to_numpy() for c in ("seat", "wins", "games", "rate", "lo", "hi"))
                )
            ]
    return pd.DataFrame(rows)


def _rules_played(page: Page, p: Played) -> None:
    """The rules that differ, in words (one rule set: against Official UNO)."""
    compared, compared_names = (
        ([OFFICIAL, *p.rules], ["Official UNO as printed", *p.names])
        if p.alone
        else (p.rules, p.names)
    )
    page.heading("The rules played" if p.alone else "The rules compared")
    diffs = _rule_differences(compared, compared_names)
    if len(diffs):
        worded = _rules_in_words(compared, compared_names)
        shown_diffs = pd.DataFrame({"rule": worded["rule"].map(esc.md_text)})
        for i, name in enumerate(compared_names, 1):  # by position: columns are the names
            shown_diffs[esc.md_text(name)] = worded.iloc[:, i].map(esc.md_text).to_numpy()
        page.table(shown_diffs, scroll=True)
        page.data(diffs, "rules", "The rules that differ, in rule syntax")
    elif p.alone:
        page.para("These are the rules of Official UNO as printed.")
    else:
        page.para("The rule sets have the same rules (only their names differ).")


def _provenance(page: Page, p: Played, command: str | None) -> None:
    """How the page was made: the command, the versions, the games and every run."""
    import matplotlib
    import numba

    from .._version import __version__
    from ..versions import RNG_VERSION

    q, g, counts, strategies = p.q, p.q.n_games, p.counts, p.q.strategies
    runs = pd.DataFrame(
        [
            {
                "rule set": esc.md_text(name),
                "rules": esc.code(rs.name),
                "rules hash": esc.code(rs.hash()),
                "deck": f"{rs.deck_size()} cards",
                "players": ", ".join(map(str, counts)),
                "strategies": esc.md_text(strategies),
                "rounds each": f"{g:,}",
                "seed": str(q.seed),
            }
            for name, rs in zip(p.names, p.rules)
        ]
    )
    cmd = command or (
        "unosim report "
        + " ".join(q.rules)
        + (f" --house {q.house}" if q.house else "")
        + f" --players {','.join(map(str, counts))} --strategies {strategies}"
        f" --games {g} --seed {q.seed}"
        + "".join(f" --name {shlex.quote(x)}" for x in q.names or [])
    )
    page.provenance(
        [cmd],
        {
            "unosim": f"{__version__} (RNG {RNG_VERSION}); numba {numba.__version__}, numpy "
            f"{np.__version__}, pandas {pd.__version__}, matplotlib "
            f"{matplotlib.__version__}",
            "games": f"rounds 0 .. {g - 1:,} of seed {q.seed}"
            + (
                ""
                if p.alone
                else " under every rule set: round `i` is keyed by `(seed, i)`, so with the "
                "same deck it starts from the same deal under each rule set (common random "
                "numbers)"
            ),
            "simulated": f"{g * len(p.rules) * len(counts):,} rounds in {p.seconds:.1f} s",
            "intervals": "95%: Student t for means and paired differences, Wilson for win "
            "rates, Newcombe for paired rates, delta method for relative changes",
        },
        runs,
    )


def _pct_ci(rate: float, lo: float, hi: float) -> str:
    return f"{num(100 * rate, 2)} [{num(100 * lo, 2)}, {num(100 * hi, 2)}]"


def minutes_sentence(frames: list, names: list[str], pace: float) -> str:
    """How long a round takes at the table, in minutes beside turns, at ``pace``
    seconds a turn (stated as the assumption it is)."""
    turns = [float(df["turns"].mean()) for df in frames]
    each = [f"{esc.md_text(n)}: {P.minutes_text(t, pace)}" for n, t in zip(names, turns)]
    if len(each) == 1:
        how = P.minutes_text(turns[0], pace)
        return f"At the table a round takes {how}, at {pace:g} seconds a turn (an assumption)."
    return (
        f"At the table, at {pace:g} seconds a turn (an assumption), a round takes "
        + "; ".join(each)
        + "."
    )


def _answer_alone(
    page: Page,
    frames: dict,
    name: str,
    counts: list[int],
    g: int,
    seed: int,
    pace: float = SECONDS_PER_TURN,
):
    """The answer about one rule set: its plain sentences at every count, in order."""
    for i, n in enumerate(counts):
        said = describe(frames[n][0], name, n, show=esc.md_text)
        seat0 = win_rates(frames[n][0]["winner"].to_numpy(), n).iloc[0]
        table = [
            minutes_sentence(frames[n], [name], pace),
            P.first_player_sentence(seat0["rate"], n, (seat0["lo"], seat0["hi"])),
        ]
        if i == 0:
            page.at_the_table = table
            page.headline = said[0]
            page.opening = said
        if len(counts) > 1:
            page.para(f"**With {n} players** ({g:,} rounds):")
        page.bullets(said)
        page.para("**At the table.** " + " ".join(table))
    page.para(
        f"**Precision.** {g:,} rounds per player count (seed {seed}); the brackets are "
        "95% intervals. `--games` sets the rounds (the intervals shrink as 1/√games)."
    )
    return []


def _answer_compared(page, frames, names, rules, counts, g, seed, strategies, pal) -> list:
    """The answer of a comparison: one sentence per finding, round lengths at the first
    count first, then the figure of every change, then the other metrics (changes
    first), then the other counts. Returns the findings in that order."""
    base, others = names[0], names[1:]
    main = counts[0]
    fs = {n: findings(frames[n], names, n, show=esc.md_text) for n in counts}

    def key(f):
        return (f.metric != "turns", others.index(f.rules), not f.detectable)

    ordered = {n: sorted(fs[n], key=key) for n in counts}
    lead = [f for f in ordered[main] if f.metric == "turns"]
    if len(counts) > 1:
        page.para(f"**With {main} players** ({g:,} rounds per rule set):")
    page.bullets(f.text for f in lead)
    page.headline = " ".join(f.text for f in lead)
    page.opening = [f.text for f in ordered[main]]
    # the main figure: every relative change against the baseline (rates change in
    # percentage points: they are in the sentences and the table, not here)
    rows = [
        {
            "group": FINDING_METRICS[f.metric].label,
            "name": f.rules,
            "est": 100 * f.rel,
            "lo": 100 * f.rel_lo,
            "hi": 100 * f.rel_hi,
        }
        for f in fs[main]
        if math.isfinite(f.rel) and not FINDING_METRICS[f.metric].rate
    ]
    b = esc.md_text(base)
    if rows:
        page.figure(
            figures.forest(
                pd.DataFrame(rows),
                xlabel=f"change against {base} (% of {base}'s mean)",
                title=f"{main} players, {strategies}: relative change, 95% intervals",
                palette=pal,
            ),
            "changes",
            f"What each rule set changes against {b} ({main} players, same games): the "
            "relative difference of each mean, with its 95% interval (delta method on the "
            "paired rounds). 0 = no change. Win rates change in percentage points: see "
            "the sentences and the table.",
        )
    else:
        page.para(
            f"No relative change could be computed at {main} players (every mean of "
            f"{b} is 0): no figure of changes."
        )
    page.bullets(f.text for f in ordered[main][len(lead) :])
    for n in counts[1:]:
        page.para(f"**With {n} players** ({g:,} rounds per rule set):")
        page.bullets(f.text for f in ordered[n])
    half = {
        k: max(max(f.diff - f.lo, f.hi - f.diff) for f in fs[main] if f.metric == k)
        for k in ("turns", "seat0", "points")
    }
    page.para(
        f"**Precision.** {g:,} rounds per rule set and player count, played on the "
        f"same games (seed {seed}). At {main} players the 95% intervals of the "
        f"differences from {b} are within ±{num(half['turns'], 2)} turns, "
        f"±{num(100 * half['seat0'], 2)} percentage points of seat 0's win rate and "
        f"±{num(half['points'], 2)} points; a difference is called a change only "
        "when its interval excludes 0. `--games` sets the rounds (the intervals "
        "shrink as 1/√games)."
    )
    other_deck = [n for n, rs in zip(names[1:], rules[1:]) if rs.deck != rules[0].deck]
    if other_deck:
        page.para(
            f"{', '.join(esc.md_text(n) for n in other_deck)} "
            f"{'uses' if len(other_deck) == 1 else 'use'} another deck than {b}: "
            "the same seeds deal other cards, so those rounds are paired by seed only "
            "and their intervals are wider than with a common deck."
        )
    return [f for n in counts for f in ordered[n]]


def _figures(page: Page, fm: dict, n: int, suffix: str, pal: dict) -> None:
    """Round length, points and seat win rates at ``n`` players (``fm``: name ->
    frame)."""
    under = "each rule set" if len(fm) > 1 else esc.md_text(next(iter(fm)))
    page.figure(
        figures.distributions(
            {k: v["turns"].to_numpy() for k, v in fm.items()},
            "turns per round",
            "turns",
            title=f"Round length, {n} players",
            palette=pal,
        ),
        f"length{suffix}",
        f"How long rounds last under {under}, {n} players: share "
        "of rounds at each length; the dashed line is the mean.",
    )
    done = {k: v.loc[~v["truncated"].to_numpy(bool), "points"].to_numpy() for k, v in fm.items()}
    none = [k for k, v in done.items() if v.size == 0]
    if len(none) < len(done):
        page.figure(
            figures.distributions(
                {k: v for k, v in done.items() if v.size},
                "points scored by the winner",
                "points",
                title=f"Points per round, {n} players",
                palette=pal,
            ),
            f"points{suffix}",
            f"Points the winner of a round scores (the cards left in the "
            f"other hands), {n} players, completed rounds; the dashed line is the "
            "mean."
            + (
                f" No round was completed under {', '.join(esc.md_text(k) for k in none)}."
                if none
                else ""
            ),
        )
    else:
        page.para(
            f"No round was completed at {n} players (every round reached "
            "max_turns): no figure of points."
        )
    page.figure(
        figures.seat_rates(
            {k: win_rates(v["winner"].to_numpy(), n) for k, v in fm.items()},
            n,
            title=f"Who wins, {n} players",
            palette=pal,
        ),
        f"seats{suffix}",
        f"Share of rounds each seat wins, {n} players, with 95% Wilson "
        "intervals; the dotted line is the fair share.",
    )


# ---------------------------------------------------------------------- the folder

MARKER = ".unosim-report"  # written into every report folder: --force replaces only these
REPORT_FOLDER = outfolder.FolderKind("report", MARKER, PAGE_NAME)


def check_out(out: Path, force: bool = False) -> Path:
    """Refuse an ``out`` that cannot become the report folder, in one line
    (``ValueError``; :func:`unosim.report.outfolder.check_out`). Returns the folder to
    write (``out`` with its symlinks followed)."""
    return outfolder.check_out(out, REPORT_FOLDER, force)


def write_report(
    q: Question,
    out: Path,
    force: bool = False,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    command: str | None = None,
) -> Page:
    """Validate, simulate and write the report folder ``out`` atomically: built under a
    temporary name beside it, then renamed into place (an existing ``out``, with
    ``force``, is replaced only if it is an earlier report, and only once the new one is
    complete). A symlinked ``out`` is written through; a run to a folder another run is
    writing is refused."""
    rules = prepare(q)
    out = Path(out)
    marker = f"unosim report {_version()}: this folder may be replaced by unosim report --force\n"
    with outfolder.writing(out, REPORT_FOLDER, force, marker) as tmp:
        page = build_page(q, tmp, rules, threads, progress, command)
    page.out = out
    return page


def _version() -> str:
    from .._version import __version__

    return __version__
