"""``unosim report``: a report page for the user's own question.

``RULES...`` (the syntax of ``unosim compare``: a preset, a TOML file, or
``BASE+NAME=VALUE,...``; ``--house`` switches go on top of every one) are played on the
same games (common random numbers, :mod:`unosim.analysis.compare`) at each player count asked,
and compared with the first. The page is written by :class:`unosim.report.page.Page`, the
code of the ``make reports`` pages: Markdown, an HTML twin with its figures embedded
(it opens offline), the figures as SVG and PNG, a CSV of every table.

It opens with one plain sentence per metric and rule set (:mod:`unosim.report.findings`),
then the forest plot of every change against the baseline, the precision reached, the
distributions of round length and points, the seat win rates, each metric against the
number of players (with several counts), the tables, and how the page was made.

The folder is built under a temporary name beside ``--out`` and renamed into place, so
an existing folder is never half-overwritten; a folder that is not empty is refused
unless ``force``, and even then unless it is an earlier report (:data:`MARKER` in it,
nothing else added). A lock beside the folder keeps a second run out while one writes.
Names and titles reach the page, figures and CSVs through :mod:`unosim.report.escape`.
"""

from __future__ import annotations

import contextlib
import errno
import math
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..analysis.compare import parse_spec, run_arms
from ..game.rules import RuleSet
from ..stats import mean_ci, quantile_ci, win_rates
from . import escape as esc
from . import figures
from .findings import METRICS as FINDING_METRICS
from .findings import findings, findings_data, findings_table
from .page import Page, num

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
    """``"4"`` or ``"2,4,6"`` -> sorted distinct counts (each checked by the rules later)."""
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
    return sorted(set(items))


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
    """What the user asks: rule sets (the first is the baseline), player counts,
    strategies, games per rule set and count, seed, and an optional title."""

    rules: list[str]
    players: list[int]
    strategies: str = "random"
    games: int | None = None
    seed: int = 0
    house: str | None = None
    title: str | None = None

    @property
    def n_games(self) -> int:
        if self.games is None:
            return default_games(len(self.rules), len(self.players))
        return self.games


def prepare(q: Question) -> list[RuleSet]:
    """Validate everything before any game is played (the errors of ``simulate``);
    returns the rule sets (with ``house``)."""
    from ..sim.simulate import make_job

    if len(q.rules) < 2:
        raise ValueError("a report compares two or more rule sets (the first is the baseline)")
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


def _ci(t: tuple[float, float, float], digits: int, scale: float = 1.0) -> str:
    e, lo, hi = (x * scale for x in t)
    return f"{num(e, digits)} [{num(lo, digits)}, {num(hi, digits)}]"


def _summary(
    frames: dict, names: list[str], counts: list[int]
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per rule set and count: shown table (strings) and its numbers (for the CSV and
    the figure against players)."""
    shown, data = [], []
    for n in counts:
        for name, df in zip(names, frames[n]):
            turns = df["turns"].to_numpy(np.float64)
            wr = win_rates(df["winner"].to_numpy(), n)  # seat 0: Wilson interval
            rate, lo, hi = (wr[c].to_numpy(np.float64)[0] for c in ("rate", "lo", "hi"))
            m = {
                "turns": mean_ci(turns),
                "seat0": (float(rate), float(lo), float(hi)),
                "points": mean_ci(df["points"].to_numpy(np.float64)),
                "cards_drawn": mean_ci(df["cards_drawn"].to_numpy(np.float64)),
                "max_stack": mean_ci(df["max_stack"].to_numpy(np.float64)),
            }
            med = quantile_ci(turns, 0.5)
            trunc = int(df["truncated"].sum())
            shown.append(
                {
                    "players": str(n),
                    "rule set": esc.code(name),
                    "rounds": f"{len(df):,}",
                    "mean turns [95%]": _ci(m["turns"], 2),
                    "median turns": num(med[0], 0),
                    "seat 0 wins, % [95%]": _ci(m["seat0"], 2, 100.0),
                    "winner's points [95%]": _ci(m["points"], 2),
                    "cards drawn [95%]": _ci(m["cards_drawn"], 2),
                    "largest penalty, cards [95%]": _ci(m["max_stack"], 3),
                    "truncated": f"{trunc:,}",
                }
            )
            for key, t in m.items():
                data.append(
                    {
                        "players": n,
                        "rules": name,
                        "metric": key,
                        "est": t[0],
                        "lo": t[1],
                        "hi": t[2],
                    }
                )
            data.append(
                {
                    "players": n,
                    "rules": name,
                    "metric": "median_turns",
                    "est": med[0],
                    "lo": med[1],
                    "hi": med[2],
                }
            )
            data.append(
                {
                    "players": n,
                    "rules": name,
                    "metric": "truncated",
                    "est": trunc / len(df),
                    "lo": math.nan,
                    "hi": math.nan,
                }
            )
    return pd.DataFrame(shown), pd.DataFrame(data)


def _rule_differences(rules: list[RuleSet]) -> pd.DataFrame:
    """Every rule whose value differs between the rule sets, one column per rule set
    (plain text: the rule, then each rule set's value)."""
    dicts = [rs.to_dict(with_name=False) for rs in rules]
    rows = []
    for key in dicts[0]:
        vals = [d.get(key) for d in dicts]
        if any(v != vals[0] for v in vals[1:]):
            rows.append([key] + [_value(v) for v in vals])
    return pd.DataFrame(rows, columns=["rule"] + [rs.name for rs in rules])


def _value(v) -> str:
    if isinstance(v, dict):
        return ", ".join(f"{k} {x}" for k, x in v.items())
    if isinstance(v, (list, tuple)):
        return " ".join(str(x) for x in v)
    return str(v).lower() if isinstance(v, bool) else str(v)


def _main_count(counts: list[int]) -> int:
    return 4 if 4 in counts else counts[0]


def build_page(
    q: Question,
    out: Path,
    rules: list[RuleSet] | None = None,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    command: str | None = None,
) -> Page:
    """Simulate, then write the page into ``out`` (``out/report.md`` ...); returns it."""
    import matplotlib
    import numba

    from .._version import __version__
    from ..kernel.rng import RNG_VERSION

    rules = rules if rules is not None else prepare(q)
    names = [rs.name for rs in rules]
    counts = list(q.players)
    main = _main_count(counts)
    g = q.n_games
    t0 = time.perf_counter()
    frames = {
        n: run_arms(rules, n, g, q.seed, q.strategies, threads, progress, columns=COLUMNS)
        for n in counts
    }
    sim_seconds = time.perf_counter() - t0
    fs = {n: findings(frames[n], names, n) for n in counts}

    base, others = names[0], names[1:]
    who = (
        f"{counts[0]} players"
        if len(counts) == 1
        else f"{', '.join(map(str, counts[:-1]))} and {counts[-1]} players"
    )
    strategies = q.strategies
    title = esc.md_text(q.title or f"{', '.join(others)} against {base}")
    question = (
        f"What do {', '.join(esc.code(o) for o in others)} change against "
        f"{esc.code(base)} with {who} (strategies {esc.code(strategies)}): how long "
        "rounds last, who wins, "
        "how many points, how many cards are drawn, how large penalties grow?"
    )
    page = Page(PAGE_NAME, title, question, out)

    # -- the answer: one sentence per finding. First the round lengths at the main
    # count, then the main figure, then the other metrics (changes first), then the
    # other counts; the table of differences lists them in the same order.
    def key(f):
        return (f.metric != "turns", others.index(f.rules), not f.detectable)

    ordered = {n: sorted(fs[n], key=key) for n in counts}
    lead = [f for f in ordered[main] if f.metric == "turns"]
    page.heading("Answer")
    if len(counts) > 1:
        page.para(f"**With {main} players** ({g:,} rounds per rule set):")
    page.bullets(f.text for f in lead)
    page.headline = " ".join(f.text for f in lead)

    # the main figure: every change against the baseline
    rows = [
        {
            "group": FINDING_METRICS[f.metric].label,
            "name": f.rules,
            "est": 100 * f.rel,
            "lo": 100 * f.rel_lo,
            "hi": 100 * f.rel_hi,
        }
        for f in fs[main]
        if math.isfinite(f.rel)
    ]
    if rows:
        page.figure(
            figures.forest(
                pd.DataFrame(rows),
                xlabel=f"change against {base} (% of {base}'s mean)",
                title=f"{main} players, {strategies}: relative change, 95% intervals",
            ),
            "changes",
            f"What each rule set changes against {esc.code(base)} "
            f"({main} players, same games): the relative difference of each mean, "
            "with its 95% interval (delta method on the paired rounds). 0 = no change.",
        )
    else:
        page.para(
            f"No relative change could be computed at {main} players (every mean of "
            f"{esc.code(base)} is 0): no figure of changes."
        )
    page.bullets(f.text for f in ordered[main][len(lead) :])
    for n in counts:
        if n != main:
            page.para(f"**With {n} players** ({g:,} rounds per rule set):")
            page.bullets(f.text for f in ordered[n])
    order = [f for n in [main, *(c for c in counts if c != main)] for f in ordered[n]]
    half = {
        k: max(max(f.diff - f.lo, f.hi - f.diff) for f in fs[main] if f.metric == k)
        for k in ("turns", "seat0", "points")
    }
    page.para(
        f"**Precision.** {g:,} rounds per rule set and player count, played on the "
        f"same games (seed {q.seed}). At {main} players the 95% intervals of the "
        f"differences from {esc.code(base)} are within ±{num(half['turns'], 2)} turns, "
        f"±{num(100 * half['seat0'], 2)} percentage points of seat 0's win rate and "
        f"±{num(half['points'], 2)} points; a difference is called a change only "
        "when its interval excludes 0. `--games` sets the rounds (the intervals "
        "shrink as 1/√games)."
    )

    other_deck = [rs.name for rs in rules[1:] if rs.deck != rules[0].deck]
    if other_deck:
        page.para(
            f"{', '.join(esc.code(n) for n in other_deck)} "
            f"{'uses' if len(other_deck) == 1 else 'use'} another deck than "
            f"{esc.code(base)}: "
            "the same seeds deal other cards, so those rounds are paired by seed only "
            "and their intervals are wider than with a common deck."
        )

    # -- figures ---------------------------------------------------------------------
    page.heading("Figures")
    fm = dict(zip(names, frames[main]))
    page.figure(
        figures.distributions(
            {k: v["turns"].to_numpy() for k, v in fm.items()},
            "turns per round",
            "turns",
            title=f"Round length, {main} players",
        ),
        "length",
        f"How long rounds last under each rule set, {main} players: share "
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
                title=f"Points per round, {main} players",
            ),
            "points",
            f"Points the winner of a round scores (the cards left in the "
            f"other hands), {main} players, completed rounds; the dashed line is the "
            "mean."
            + (
                f" No round was completed under {', '.join(esc.code(k) for k in none)}."
                if none
                else ""
            ),
        )
    else:
        page.para(
            f"No round was completed at {main} players (every round reached "
            "max_turns): no figure of points."
        )
    page.figure(
        figures.seat_rates(
            {k: win_rates(v["winner"].to_numpy(), main) for k, v in fm.items()},
            main,
            title=f"Who wins, {main} players",
        ),
        "seats",
        f"Share of rounds each seat wins, {main} players, with 95% Wilson "
        "intervals; the dotted line is the fair share.",
    )
    shown, data = _summary(frames, names, counts)
    if len(counts) > 1:
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
            ),
            "by-players",
            "Each metric at every player count simulated (means with 95% "
            "intervals; no line joins counts, only those shown were simulated).",
        )

    # -- tables ----------------------------------------------------------------------
    page.heading("Tables")
    page.heading("Differences from the baseline", 3)
    page.table(findings_table(order))
    page.para(
        "Difference: rule set minus baseline on the same games, with its 95% interval "
        "(Student t on the per-round differences; Newcombe's paired interval for seat "
        "0's win rate, in percentage points, pp). Relative: the ratio of the means "
        "minus 1, delta-method interval. Truncated rounds, if any, count with their "
        "turns (max_turns) and 0 points."
    )
    page.data(findings_data(order), "differences", "This table at full precision")
    page.heading("Each rule set", 3)
    page.table(shown)
    page.data(data, "summary", "Its numbers")
    rows = []
    for n in counts:
        for name, df in zip(names, frames[n]):
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
    seats = pd.DataFrame(rows)
    page.heading("Seat win rates", 3)
    wide = seats[seats["players"] == main].pivot(index="seat", columns="rules")
    tab = pd.DataFrame({"seat": [str(s) for s in wide.index]})
    for name in names:
        tab[f"{esc.code(name)}, % [95%]"] = [
            _ci((wide["rate", name][s], wide["lo", name][s], wide["hi", name][s]), 2, 100.0)
            for s in wide.index
        ]
    page.table(tab)
    page.data(seats, "seats", f"Every player count ({main} shown above)")
    page.heading("The rules compared", 3)
    diffs = _rule_differences(rules)
    if len(diffs):
        shown_diffs = pd.DataFrame({"rule": diffs["rule"].map(esc.code)})
        for i, name in enumerate(names, 1):  # by position: the columns are the names
            shown_diffs[esc.code(name)] = diffs.iloc[:, i].map(esc.md_text).to_numpy()
        page.table(shown_diffs)
        page.data(diffs, "rules", "The rules that differ")
    else:
        page.para("The rule sets have the same rules (only their names differ).")

    # -- provenance ------------------------------------------------------------------
    runs = pd.DataFrame(
        [
            {
                "rule set": esc.code(rs.name),
                "rules hash": esc.code(rs.hash()),
                "deck": f"{rs.deck_size()} cards",
                "players": ", ".join(map(str, counts)),
                "strategies": esc.md_text(strategies),
                "rounds each": f"{g:,}",
                "seed": str(q.seed),
            }
            for rs in rules
        ]
    )
    cmd = command or (
        "unosim report "
        + " ".join(q.rules)
        + (f" --house {q.house}" if q.house else "")
        + f" --players {','.join(map(str, counts))} --strategies {strategies}"
        f" --games {g} --seed {q.seed}"
    )
    page.provenance(
        [cmd],
        {
            "unosim": f"{__version__} (RNG {RNG_VERSION}); numba {numba.__version__}, numpy "
            f"{np.__version__}, pandas {pd.__version__}, matplotlib "
            f"{matplotlib.__version__}",
            "games": f"rounds 0 .. {g - 1:,} of seed {q.seed} under every rule set: round `i` "
            "is keyed by `(seed, i)`, so with the same deck it starts from the same "
            "deal under each rule set (common random numbers)",
            "simulated": f"{g * len(rules) * len(counts):,} rounds in {sim_seconds:.1f} s",
            "intervals": "95%: Student t for means and paired differences, Wilson for win "
            "rates, Newcombe for paired rates, delta method for relative changes",
        },
        runs,
    )
    page.write()
    return page


# ---------------------------------------------------------------------- the folder

MARKER = ".unosim-report"  # written into every report folder: --force replaces only these
# what a report folder holds: the marker, the page, and its figures, tables and metadata
OWN_FILES = {MARKER, f"{PAGE_NAME}.md", f"{PAGE_NAME}.html"}
OWN_SUFFIXES = {".svg", ".png", ".csv", ".json"}
FILE_SUFFIXES = {".toml", ".md", ".html", ".parquet", ".csv", ".json", ".svg", ".png"}
TMP_ROOM = 24  # bytes a temporary name adds to --out's: ".NAME.tmp-XXXXXXXX"


def _resolve(out: Path) -> Path:
    """``out`` as an absolute path with every symlink followed (a symlinked folder is
    written through, never replaced); one-line ``ValueError`` for a dangling symlink or
    a loop."""
    try:
        real = (
            Path(os.path.realpath(out, strict=True))
            if out.is_symlink()
            else Path(os.path.realpath(out))
        )
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise ValueError(f"--out {out} is a symlink loop") from None
        raise ValueError(
            f"--out {out} is a symlink to {os.readlink(out)}, which does not exist"
        ) from None
    return real


def _foreign(folder: Path) -> str | None:
    """The first entry of ``folder`` that a report does not write, or ``None`` if the
    folder is an earlier report (its marker, page, figures and tables only)."""
    if not (folder / MARKER).is_file():
        return f"it has no {MARKER} file"
    for p in sorted(folder.iterdir()):
        if p.name in OWN_FILES and p.is_file() and not p.is_symlink():
            continue
        if p.name == PAGE_NAME and p.is_dir() and not p.is_symlink():
            for q in sorted(p.iterdir()):
                if not (q.is_file() and not q.is_symlink() and q.suffix in OWN_SUFFIXES):
                    return f"it holds {PAGE_NAME}/{q.name}"
            continue
        return f"it holds {p.name}"
    return None


def _check_name(path: Path, out: Path) -> None:
    """One-line ``ValueError`` if a part of ``path`` is longer than a name may be, or
    its last part leaves no room for the temporary names beside it (``TMP_ROOM``)."""
    path = Path(os.path.abspath(path))
    name_max = 255
    try:
        probe = next(p for p in path.parents if p.is_dir())
        name_max = os.pathconf(probe, "PC_NAME_MAX")
    except (OSError, ValueError, StopIteration):
        pass
    for part, room in [(p, 0) for p in path.parts[:-1]] + [(path.name, TMP_ROOM)]:
        size = len(os.fsencode(part))
        if size + room > name_max:
            shown = str(out) if len(str(out)) <= 80 else str(out)[:80] + "..."
            raise ValueError(
                f"--out {shown}: a name in it is too long ({size} "
                f"bytes; at most {name_max - room} here)"
            )


def check_out(out: Path, force: bool = False) -> Path:
    """Refuse an ``out`` that cannot become the report folder, in one line
    (``ValueError``): the current folder or a parent of it, a dangling or looping symlink,
    a file, a name like a file's (``x.toml``) or too long, a folder with files (unless
    ``force``, and then only an earlier report), a place that cannot be written.
    Returns the folder to write (``out`` with its symlinks followed)."""
    out = Path(out)
    _check_name(out, out)
    real = _resolve(out)
    _check_name(real, out)
    cwd = Path(os.path.realpath(os.getcwd()))
    if real == cwd or real in cwd.parents:
        where = "the current folder" if real == cwd else "a parent of the current folder"
        raise ValueError(f"--out {out} is {where}: give a folder of its own")
    if real.suffix.lower() in FILE_SUFFIXES:
        raise ValueError(
            f"--out {out} is named like a file ({real.suffix}): --out is the "
            "folder the report is written into"
        )
    if real.exists() and not real.is_dir():
        raise ValueError(f"--out {out} exists and is not a folder")
    if real.is_dir() and any(real.iterdir()):
        if not force:
            raise ValueError(f"--out {out} is not empty (use --force to replace an earlier report)")
        why = _foreign(real)
        if why is not None:
            raise ValueError(
                f"--out {out} is not an earlier unosim report ({why}): not "
                "replaced; choose another folder or empty it yourself"
            )
    from ..sim.results import probe_writable

    probe_writable(real)
    return real


@contextlib.contextmanager
def _claim(real: Path, out: Path):
    """Hold the lock ``.NAME.lock`` beside ``real`` while a report is written there, so
    two runs to one folder cannot both write it; removes the temporaries a killed run
    left (``.NAME.tmp-*``, ``.NAME.old-*``)."""
    import fcntl

    lock = real.parent / f".{real.name}.lock"
    while True:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise ValueError(f"--out {out}: another unosim report is writing it now") from None
        try:  # the lock file may have been removed and made again meanwhile
            same = os.path.samestat(os.fstat(fd), os.stat(lock))
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    try:
        from ..sim.results import glob_escape

        stem = f".{glob_escape(real.name)}"
        for p in real.parent.glob(f"{stem}.old-*"):  # killed between its two renames
            if not real.exists():
                os.replace(p, real)  # the earlier report comes back
            else:
                shutil.rmtree(p, ignore_errors=True)
        for p in real.parent.glob(f"{stem}.tmp-*"):
            shutil.rmtree(p, ignore_errors=True)
        yield
    finally:
        try:
            os.unlink(lock)
        finally:
            os.close(fd)


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
    real = check_out(out, force)
    try:
        real.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ValueError(f"--out {out}: cannot write in {real.parent}: {e.strerror or e}") from None
    with _claim(real, out):
        check_out(out, force)  # again: another run may have written it meanwhile
        try:
            tmp = Path(tempfile.mkdtemp(prefix=f".{real.name}.tmp-", dir=real.parent))
        except OSError as e:
            raise ValueError(
                f"--out {out}: cannot write in {real.parent}: {e.strerror or e}"
            ) from None
        try:
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(tmp, 0o777 & ~mask)  # mkdtemp makes it private; it is for reading
            page = build_page(q, tmp, rules, threads, progress, command)
            (tmp / MARKER).write_text(
                f"unosim report {_version()}: this folder may be "
                "replaced by unosim report --force\n"
            )
            old = None
            if real.exists():
                old = real.parent / f".{real.name}.old-{tmp.name.rsplit('-', 1)[-1]}"
                os.replace(real, old)
            try:
                os.replace(tmp, real)
            except OSError:
                if old is not None:
                    os.replace(old, real)
                raise
            if old is not None:
                shutil.rmtree(old, ignore_errors=True)
        except OSError as e:
            raise ValueError(f"--out {out}: cannot write the report: {e.strerror or e}") from None
        finally:
            if tmp.exists():
                shutil.rmtree(tmp, ignore_errors=True)
    page.out = out
    return page


def _version() -> str:
    from .._version import __version__

    return __version__
