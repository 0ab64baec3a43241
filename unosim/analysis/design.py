"""``unosim design``: search house rules for rule sets that meet targets.

A target bounds one metric of a round (:data:`METRICS`): ``turns=35..40``,
``seat0_edge<=2pp``, ``stack8_share<=5%`` (:func:`parse_target`). The search space is a
product of rules (:data:`SEARCHABLE`: house switches, numeric rules such as
``hand_size`` and penalty counts, deck counts ``deck.KEY``), each over a range inside
its declared bounds (:func:`parse_vary`). Every candidate is a rule set in the syntax
``unosim compare`` takes, built on ``--from``.

The search plays every candidate on the same games of one seed (common random numbers,
as :mod:`unosim.analysis.compare`): exhaustively when the budget gives every candidate
:data:`FULL_GAMES` rounds, else by successive halving (each rung keeps the best third
and plays it on 3 times as many games, the earlier games reused). Candidates rank by
targets met, then by distance to the targets (each in units of :data:`METRICS`'
``scale``), then by margin (how many standard errors the estimate sits inside its
nearest bound). The finalists and the ``--from`` rule set are then played again on a
fresh seed, and ranked on those games alone: that is what ``design.csv`` reports.
"""

from __future__ import annotations

import itertools
import math
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..game.rules import (
    CHOICES,
    MAX_COPIES,
    PRESETS,
    RULE_BY_NAME,
    RuleError,
    RuleSet,
    parse_house,
    resolve,
)
from ..stats import mean_ci, quantile_ci, wilson_ci
from .compare import _SPEC

__all__ = [
    "METRICS",
    "SEARCHABLE",
    "DEFAULT_VARY",
    "Target",
    "parse_target",
    "parse_targets",
    "parse_vary",
    "measure",
    "design",
    "Design",
]


@dataclass(frozen=True)
class Metric:
    """A metric a target may bound: its label, unit (``""``, ``pp`` or ``%``) and the
    difference a player would notice (``scale``, the unit of the distance to a target)."""

    label: str
    short: str
    unit: str
    scale: float
    digits: int


METRICS: dict[str, Metric] = {
    "turns": Metric("mean turns per round", "mean turns", "", 5.0, 2),
    "turns_median": Metric("median turns per round", "median turns", "", 5.0, 1),
    "seat0_edge": Metric(
        "seat 0's win rate over the fair share 1/n", "seat 0's edge", "pp", 1.0, 2
    ),
    "stack8_share": Metric(
        "rounds with a draw penalty of 8 cards or more", "penalties of 8+ cards", "%", 2.0, 2
    ),
    "points": Metric("points the winner scores per round", "points per round", "", 20.0, 1),
    "truncated_share": Metric("rounds stopped at max_turns", "truncated rounds", "%", 0.1, 3),
}
COLUMNS = ("turns", "winner", "points", "max_stack", "truncated")
BIG_PENALTY = 8  # stack8_share: rounds whose max_stack reaches this many cards

# rules a search may vary, with their default ranges (inside the declared bounds)
SEARCHABLE: dict[str, tuple] = {
    "stacking": CHOICES["stacking"],
    "seven_zero": (False, True),
    "jump_in": (False, True),
    "draw_rule": CHOICES["draw_rule"],
    "multi_play": (False, True),
    "after_draw": CHOICES["after_draw"],
    "last_card": CHOICES["last_card"],
    "wd4_restriction": CHOICES["wd4_restriction"],
    "challenge": (True, False),
    "hand_size": tuple(range(3, 11)),
    "uno_penalty": tuple(range(0, 5)),
    "challenge_penalty": tuple(range(0, 5)),
    "deck.skip": tuple(range(0, 5)),
    "deck.reverse": tuple(range(0, 5)),
    "deck.draw_two": tuple(range(0, 5)),
    "deck.wild": tuple(range(0, 9)),
    "deck.wild_draw_four": tuple(range(0, 9)),
}
DEFAULT_VARY = "stacking,seven_zero,jump_in,draw_rule,hand_size"

BUDGET = 3_000_000  # rounds the search plays by default
FULL_GAMES = 50_000  # rounds per candidate that make a search exhaustive
MIN_GAMES = 400  # rounds per candidate in the first rung at least
ETA = 3  # successive halving: keep 1/ETA, play ETA times as many rounds
FINALISTS = 5
CONFIRM_GAMES = 100_000
MAX_SPACE = 20_000  # candidates searched at most (larger spaces are sampled)

# bounds, checked before anything is allocated (docs/cli.md, "design"): the rounds kept
# in memory (12 bytes each) stay within about 1.2 GB for the search and a confirmation
MAX_BUDGET = 10**8  # --budget: rounds the search plays
MAX_CONFIRM_GAMES = 10**7  # --confirm-games: fresh rounds per confirmed rule set
MAX_FINALISTS = 100  # --finalists
MAX_SPACE_SIZE = 10**18  # rule sets a --vary space may hold (sampled beyond MAX_SPACE)
MAX_TARGET = 10**12  # a target's bounds, in the metric's unit
PLAY_PIECE = 1 << 20  # rounds played (and held as kernel records) at once


# ------------------------------------------------------------------------ targets


@dataclass(frozen=True)
class Target:
    """``lo <= metric <= hi`` in the metric's unit (``-inf``/``inf`` for one side)."""

    metric: str
    lo: float
    hi: float
    text: str

    def distance(self, x: float) -> float:
        """How far ``x`` lies outside the target, in units of the metric's scale."""
        if math.isnan(x):
            return math.inf
        return max(0.0, self.lo - x, x - self.hi) / METRICS[self.metric].scale

    def met(self, x: float) -> bool:
        return self.lo <= x <= self.hi

    def margin(self, est: float, lo: float, hi: float) -> float:
        """Standard errors between ``est`` and the nearest bound (negative outside)."""
        inside = min(est - self.lo, self.hi - est)
        se = (hi - lo) / (2 * 1.959964)
        if not math.isfinite(se) or se <= 0:
            return math.copysign(math.inf, inside) if inside else 0.0
        return inside / se

    def show(self) -> str:
        """The target in short words: "mean turns 35 to 40", "seat 0's edge at most 2 pp"."""
        m = METRICS[self.metric]
        unit = {"pp": " pp", "%": "%"}.get(m.unit, "")
        if math.isinf(self.lo):
            return f"{m.short} at most {self.hi:g}{unit}"
        if math.isinf(self.hi):
            return f"{m.short} at least {self.lo:g}{unit}"
        return f"{m.short} {self.lo:g} to {self.hi:g}{unit}"


_NUM = r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)"
_TARGET = re.compile(
    rf"^(?P<name>[A-Za-z0-9_]+)\s*(?P<op><=|>=|=)\s*(?P<a>{_NUM})\s*(?P<ua>pp|%)?"
    rf"(?:\s*\.\.\s*(?P<b>{_NUM})\s*(?P<ub>pp|%)?)?$"
)


def parse_target(text: str) -> Target:
    """``NAME=LO..HI``, ``NAME<=X`` or ``NAME>=X`` (units ``pp`` for ``seat0_edge``,
    ``%`` for shares, none for the others). A one-line :class:`RuleError` names the
    target."""
    t = str(text).strip()
    what = f"target {t!r}"
    m = _TARGET.match(t)
    if m is None:
        prefix = re.match(r"[A-Za-z0-9_]*", t)  # always matches (maybe empty)
        name = prefix.group(0) if prefix else ""
        if name and name not in METRICS:
            raise RuleError(f"{what}: unknown metric {name!r} (known: {', '.join(METRICS)})")
        raise RuleError(f"{what}: write NAME=LO..HI, NAME<=X or NAME>=X (e.g. turns=35..40)")
    name = m["name"]
    if name not in METRICS:
        raise RuleError(f"{what}: unknown metric {name!r} (known: {', '.join(METRICS)})")
    unit = METRICS[name].unit
    for u in (m["ua"], m["ub"]):
        if u and u != unit:
            want = f"in {unit}" if unit else "a plain number (no unit)"
            raise RuleError(f"{what}: {name} is {want}, not {u}")
    a = _bounded(what, m["a"])
    if m["op"] == "=":
        if m["b"] is None:
            raise RuleError(f"{what}: give a range, {name}=LO..HI (or {name}<=X, {name}>=X)")
        b = _bounded(what, m["b"])
        if a > b:
            raise RuleError(f"{what}: the range is empty ({m['a']} > {m['b']})")
        return Target(name, a, b, t)
    if m["b"] is not None:
        raise RuleError(f"{what}: a range takes '=' (write {name}=LO..HI)")
    if m["op"] == "<=":
        return Target(name, -math.inf, a, t)
    return Target(name, a, math.inf, t)


def _bounded(what: str, text: str) -> float:
    """A target's number: finite and within ``MAX_TARGET`` (``10**400`` would be read
    as infinity, and a page would then say the opposite of what was asked)."""
    x = float(text)
    if not (math.isfinite(x) and abs(x) <= MAX_TARGET):
        shown = text if len(text) <= 20 else text[:20] + "..."
        raise RuleError(f"{what}: {shown} is past the bound of a target, +-10^12")
    return x


def parse_targets(texts: Sequence[str]) -> list[Target]:
    """Every target, each metric at most once."""
    if not texts:
        raise RuleError("give at least one --target (e.g. --target 'turns=35..40')")
    out = [parse_target(t) for t in texts]
    seen: dict[str, str] = {}
    for t in out:
        if t.metric in seen:
            raise RuleError(
                f"target {t.text!r}: {t.metric} is already bounded by {seen[t.metric]!r}"
            )
        seen[t.metric] = t.text
    return out


# -------------------------------------------------------------------------- space


def _value(rule: str, text: str):
    """A --vary value (text) as the rule's type, checked against its declaration."""
    lo: float
    hi: float
    if rule.startswith("deck."):
        kind, lo, hi = "int", 0, MAX_COPIES
    else:
        r = RULE_BY_NAME[rule]
        kind = r.type
        lo, hi = r.bounds if r.bounds else (-math.inf, math.inf)  # every int rule has bounds
    t = text.strip().lower()
    if kind == "bool":
        if t in ("true", "false"):
            return t == "true"
        raise RuleError(f"--vary {rule}: {text!r} is not true or false")
    if kind == "choice":
        if t not in CHOICES[rule]:
            raise RuleError(f"--vary {rule}: {text!r} is not one of {', '.join(CHOICES[rule])}")
        return t
    if not re.fullmatch(r"[+-]?[0-9]+", t):
        raise RuleError(f"--vary {rule}: {text!r} is not a whole number")
    v = int(t)
    if not lo <= v <= hi:
        raise RuleError(f"--vary {rule}: {v} is outside its bounds {lo}..{hi}")
    return v


def parse_vary(text: str | None) -> dict[str, tuple]:
    """``"stacking,hand_size=4..8,wd4_restriction=colour|none"`` -> rule -> values.

    A rule alone takes its range from :data:`SEARCHABLE`; ``LO..HI`` (whole numbers) or
    ``A|B|C`` gives the values."""
    out: dict[str, tuple] = {}
    for item in filter(None, (s.strip() for s in (text or DEFAULT_VARY).split(","))):
        rule, eq, spec = (s.strip() for s in item.partition("="))
        if rule not in SEARCHABLE:
            raise RuleError(
                f"--vary: {rule!r} cannot be searched (searchable: {', '.join(SEARCHABLE)})"
            )
        if rule in out:
            raise RuleError(f"--vary: {rule!r} given twice")
        if not eq:
            out[rule] = SEARCHABLE[rule]
            continue
        m = re.fullmatch(r"([+-]?[0-9]+)\s*\.\.\s*([+-]?[0-9]+)", spec)
        if m:
            lo, hi = _value(rule, m[1]), _value(rule, m[2])
            if isinstance(lo, bool) or lo > hi:
                raise RuleError(f"--vary {item!r}: write LO..HI with LO <= HI")
            vals = tuple(range(lo, hi + 1))
        else:
            vals = tuple(dict.fromkeys(_value(rule, v) for v in spec.split("|")))
        if not vals:
            raise RuleError(f"--vary {item!r}: no values")
        out[rule] = vals
    if not out:
        raise RuleError("--vary: no rule to search")
    size = math.prod(len(v) for v in out.values())
    if size > MAX_SPACE_SIZE:
        raise RuleError(
            f"--vary: the space holds {_count(size)} rule sets, past the bound of "
            f"10^18; search fewer rules or narrower ranges"
        )
    return out


def _count(n: int) -> str:
    """``n`` in words a line can hold: ``1,234`` or ``about 3.4e+25``."""
    return f"{n:,}" if n < 10**12 else f"about {float(n):.2g}"


def check_budgets(budget: object, finalists: object, confirm_games: object) -> None:
    """One-line :class:`RuleError` naming the option unless ``--budget``,
    ``--finalists`` and ``--confirm-games`` are whole numbers within their bounds
    (checked before anything is allocated)."""
    for name, v, lo, hi in (
        ("--budget", budget, MIN_GAMES, MAX_BUDGET),
        ("--finalists", finalists, 1, MAX_FINALISTS),
        ("--confirm-games", confirm_games, 2, MAX_CONFIRM_GAMES),
    ):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise RuleError(f"{name} must be a whole number, got {v!r}")
        if not lo <= v <= hi:
            raise RuleError(f"{name} must be from {lo:,} to {hi:,}, got {_count(int(v))}")


def split_base(spec: str) -> tuple[str, dict[str, str]]:
    """``--from`` as (preset or file, its switches): ``official+stacking=same`` ->
    ``("official", {"stacking": "same"})``."""
    text = str(spec).strip()
    if text in PRESETS or _is_file(text):
        return text, {}
    m = _SPEC.match(text)
    if m is None:
        resolve(text)  # the usual one-line error
        return text, {}
    return m["base"], parse_house(m["house"].replace("+", ","))


def _is_file(text: str) -> bool:
    from pathlib import Path

    try:
        return Path(text).is_file()
    except OSError:
        return False


def _rule_value(rs: RuleSet, rule: str):
    table, dot, entry = rule.partition(".")
    return rs.deck_dict[entry] if dot else getattr(rs, rule)


def _text(v) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def _switches(base_rs: RuleSet, fixed: dict, changes: dict) -> str:
    """``NAME=VALUE,...``: every switch whose value differs from ``base_rs``'s
    (``fixed``: the ``--from`` switches, then ``changes``)."""
    merged = {k: v for k, v in fixed.items()}
    merged.update({k: _text(v) for k, v in changes.items()})
    keep = []
    for k, v in merged.items():
        cur = _rule_value(base_rs, k)
        if _text(cur) != v:
            keep.append(f"{k}={v}")
    return ",".join(keep)


def spec_of(base: str, base_rs: RuleSet, fixed: dict, changes: dict) -> str:
    """The rule set in ``unosim compare`` syntax: ``base`` plus every switch whose value
    differs from ``base_rs``'s (``fixed``: the ``--from`` switches, then ``changes``)."""
    house = _switches(base_rs, fixed, changes)
    return base + ("+" + house if house else "")


def rules_of(base: str, base_rs: RuleSet, fixed: dict, changes: dict) -> RuleSet:
    """The rule set :func:`spec_of` names (the same name), built from ``base`` and the
    switches: the text is never tried as a file name (a spec of many switches is longer
    than a file name may be)."""
    house = _switches(base_rs, fixed, changes)
    return resolve(base, house) if house else resolve(base)


# ------------------------------------------------------------------------ measures


def measure(cols: dict[str, np.ndarray], n_players: int, metrics: Sequence[str]) -> dict:
    """Each metric's ``(estimate, lo, hi)`` (95%) from per-round columns (``COLUMNS``).

    ``turns``, ``points``: t interval; ``turns_median``: order-statistic interval;
    ``seat0_edge`` (pp), ``stack8_share`` and ``truncated_share`` (%): Wilson. Truncated
    rounds count with their turns and 0 points, as in ``unosim compare``."""
    n = len(cols["turns"])
    out = {}
    for name in metrics:
        if name == "turns":
            out[name] = mean_ci(cols["turns"].astype(np.float64))
        elif name == "turns_median":
            out[name] = quantile_ci(cols["turns"].astype(np.float64), 0.5)
        elif name == "points":
            out[name] = mean_ci(cols["points"].astype(np.float64))
        else:
            if name == "seat0_edge":
                k, shift = int((cols["winner"] == 0).sum()), 1.0 / n_players
            elif name == "stack8_share":
                k, shift = int((cols["max_stack"] >= BIG_PENALTY).sum()), 0.0
            elif name == "truncated_share":
                k, shift = int(cols["truncated"].sum()), 0.0
            else:
                raise ValueError(f"unknown metric {name!r}")
            lo, hi = wilson_ci(k, n)
            out[name] = (100.0 * (k / n - shift), 100.0 * (lo - shift), 100.0 * (hi - shift))
        est, lo, hi = out[name]
        out[name] = (float(est), float(lo), float(hi))
    return out


@dataclass
class Candidate:
    """One rule set of the search: its spec, the values of the rules searched, and the
    columns of the rounds played so far (on the search seed)."""

    spec: str
    rules: RuleSet
    values: dict
    cols: dict = field(default_factory=dict)
    games: int = 0
    measures: dict = field(default_factory=dict)
    score: tuple = ()
    search: Candidate | None = None  # a confirmed rule set: its candidate in the search
    first: dict = field(default_factory=dict)  # its measures in the first rung


def _score(targets: list[Target], m: dict) -> tuple[int, float, float]:
    met = sum(t.met(m[t.metric][0]) for t in targets)
    dist = sum(t.distance(m[t.metric][0]) for t in targets)
    margin = min(t.margin(*m[t.metric]) for t in targets)
    return (met, dist, margin)


def _rank_key(c: Candidate) -> tuple:
    met, dist, margin = c.score
    return (-met, dist, -margin, c.spec)


class Rounds:
    """Plays rounds of a rule set on a seed and keeps :data:`COLUMNS`."""

    def __init__(self, n_players: int, strategies: str, threads: int | None, progress):
        self.n_players, self.strategies = n_players, strategies
        self.threads, self.progress = threads, progress
        self.played = 0

    def job(self, rs: RuleSet, seed: int):
        from ..sim.simulate import make_job

        return make_job(rs, 1, self.n_players, self.strategies, seed)

    def play(self, job, first: int, count: int) -> dict[str, np.ndarray]:
        from ..sim.results import rounds_frame
        from ..sim.simulate import CHUNK, run_block, thread_count

        parts = []
        with thread_count(self.threads) as tc:  # small calls still use every thread
            chunk = int(max(16, min(CHUNK, count // (4 * tc.threads) or 1)))
            for start in range(first, first + count, PLAY_PIECE):  # records held: a piece's
                n = min(PLAY_PIECE, first + count - start)
                f = rounds_frame(run_block(job, start, n, chunk), self.n_players, start)
                parts.append({c: f[c].to_numpy() for c in COLUMNS})
                del f
                self.played += n
                if self.progress is not None:
                    self.progress(n)
        if len(parts) == 1:
            return parts[0]
        return {c: np.concatenate([p[c] for p in parts]) for c in COLUMNS}


def _extend(c: Candidate, new: dict) -> None:
    c.cols = {k: np.concatenate([c.cols[k], new[k]]) for k in COLUMNS} if c.cols else new
    c.games = len(c.cols["turns"])


# -------------------------------------------------------------------------- search


def schedule(n: int, budget: int, finalists: int) -> list[tuple[int, int]]:
    """The rungs ``(candidates, rounds each)``: one rung of ``budget // n`` rounds when
    that reaches :data:`FULL_GAMES` (exhaustive), else successive halving whose rungs
    together play about ``budget`` rounds (``[]`` if the first rung would get fewer
    than :data:`MIN_GAMES`)."""
    if n * FULL_GAMES <= budget or n <= finalists:
        return [(n, budget // max(n, 1))]
    sizes = [n]
    while math.ceil(sizes[-1] / ETA) > finalists:
        sizes.append(math.ceil(sizes[-1] / ETA))
    unit = sum(s * (ETA**r - (ETA ** (r - 1) if r else 0)) for r, s in enumerate(sizes))
    g0 = budget // unit
    if g0 < MIN_GAMES:
        return []
    return [(s, g0 * ETA**r) for r, s in enumerate(sizes)]


def _fits(n: int, budget: int, finalists: int) -> bool:
    return bool(schedule(n, budget, finalists))


def candidates(
    base_text: str,
    fixed: dict,
    vary: dict[str, tuple],
    n_players: int,
    budget: int,
    finalists: int,
    seed: int,
) -> tuple[list[Candidate], int, int, bool]:
    """The candidates to search: (list, size of the space, invalid ones, sampled?).

    A space too large for the budget is sampled uniformly (seeded by ``seed``); the
    ``--from`` rule set is always a candidate."""
    preset = resolve(base_text)
    base_rs = rules_of(base_text, preset, fixed, {})
    names = list(vary)
    sizes = [len(vary[k]) for k in names]
    total = math.prod(sizes)
    if total > MAX_SPACE_SIZE:
        raise RuleError(
            f"--vary: the space holds {_count(total)} rule sets, past the bound of 10^18"
        )
    lo, hi = 0, min(total, MAX_SPACE)
    while lo < hi:  # the most candidates the budget can search, besides --from's
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if _fits(mid + 1, budget, finalists) else (lo, mid - 1)
    if lo == 0:
        raise RuleError(
            f"budget {budget:,} is too small to search (at least {MIN_GAMES:,} rounds per rule set)"
        )
    sampled = total > lo
    if sampled:
        rng = np.random.default_rng([seed, 0xD51])
        idx = np.sort(rng.choice(total, size=lo, replace=False))
        combos: Iterable[tuple] = (np.unravel_index(i, sizes) for i in idx)
    else:
        combos = itertools.product(*(range(s) for s in sizes))
    out, seen, invalid = [], set(), 0
    base_values = {k: _rule_value(base_rs, k) for k in names}
    todo = [base_values] + [{k: vary[k][j] for k, j in zip(names, c)} for c in combos]
    for values in todo:
        spec = spec_of(base_text, preset, fixed, values)
        if spec in seen:
            continue
        seen.add(spec)
        try:
            rs = rules_of(base_text, preset, fixed, values)
            rs.check_players(n_players)
        except RuleError:
            invalid += 1
            continue
        out.append(Candidate(spec, rs, values))
    if not out:
        raise RuleError("no rule set of the search space can be played (every one is invalid)")
    return out, total, invalid, sampled


@dataclass
class Design:
    """What :func:`design` found. ``table`` is ``design.csv``: the confirmed rule sets
    ranked best first, then every other candidate by the rung it reached, then its results there."""

    targets: list[Target]
    vary: dict[str, tuple]
    base: str
    n_players: int
    strategies: str
    seed: int
    confirm_seed: int
    space: int
    invalid: int
    sampled: bool
    rungs: list[tuple[int, int]]
    confirmed: list[Candidate]
    searched: list[Candidate]
    first_rung: pd.DataFrame
    table: pd.DataFrame
    games: int
    seconds: float
    base_candidate: Candidate | None = None
    first_rung_candidates: list[Candidate] = field(default_factory=list)

    @property
    def best(self) -> Candidate:
        return self.confirmed[0]

    @property
    def exhaustive(self) -> bool:
        return len(self.rungs) == 1 and not self.sampled


def _row(c: Candidate, targets: list[Target], stage: str, seed: int) -> dict:
    met, dist, margin = c.score
    row: dict[str, object] = {"rules": c.spec}
    for t in targets:
        est, lo, hi = c.measures[t.metric]
        row[t.metric] = est
        row[f"{t.metric}_lo"] = lo
        row[f"{t.metric}_hi"] = hi
        row[f"{t.metric}_met"] = t.met(est)
    row.update(
        {
            "targets_met": met,
            "all_met": met == len(targets),
            "distance": dist,
            "margin_se": margin,
            "stage": stage,
            "games": c.games,
            "seed": seed,
        }
    )
    return row


def design(
    targets: Sequence[Target | str],
    n_players: int = 5,
    base: str = "official",
    vary: str | dict | None = None,
    strategies: str = "random",
    budget: int = BUDGET,
    finalists: int = FINALISTS,
    confirm_games: int = CONFIRM_GAMES,
    seed: int = 0,
    confirm_seed: int | None = None,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
    note: Callable[[str], None] | None = None,
) -> Design:
    """Search rule sets meeting every target (see the module docstring).

    ``budget``: rounds the search plays (the confirmation adds ``confirm_games`` for
    each finalist and the ``base`` rule set); ``confirm_seed`` (default ``seed + 1``)
    must differ from ``seed``. ``progress(games)`` after each batch of rounds,
    ``note(text)`` at each stage."""
    t0 = time.perf_counter()
    tg = parse_targets([t.text if isinstance(t, Target) else t for t in targets])
    space = parse_vary(vary) if not isinstance(vary, dict) else vary
    confirm_seed = seed + 1 if confirm_seed is None else confirm_seed
    if confirm_seed == seed:
        raise RuleError("the confirmation seed must differ from the search seed (fresh games)")
    check_budgets(budget, finalists, confirm_games)
    base_text, fixed = split_base(base)
    player = Rounds(n_players, strategies, threads, progress)
    base_rs = rules_of(base_text, resolve(base_text), fixed, {})
    player.job(base_rs, seed)  # players, strategies, seed: checked before any game
    say = note or (lambda _msg: None)
    if math.prod(len(v) for v in space.values()) > 1000:
        say("choosing the rule sets to search")
    cands, total, invalid, sampled = candidates(
        base_text, fixed, space, n_players, budget, finalists, seed
    )
    rungs = schedule(len(cands), budget, finalists)
    if not rungs:
        raise RuleError(f"budget {budget:,} is too small for {len(cands):,} rule sets")
    how = "exhaustive" if len(rungs) == 1 and not sampled else "successive halving"
    say(
        f"search: {len(cands):,} rule sets ({total:,} in the space"
        + (", sampled" if sampled else "")
        + (f", {invalid:,} invalid" if invalid else "")
        + f"), {how}, {len(rungs)} rung{'s' if len(rungs) > 1 else ''}, seed {seed}"
    )
    metrics = [t.metric for t in tg]
    alive = cands
    first_rung = pd.DataFrame()
    for r, (size, games) in enumerate(rungs):
        alive = alive[:size]
        say(f"rung {r + 1}/{len(rungs)}: {len(alive):,} rule sets x {games:,} rounds")
        for c in alive:
            job = player.job(c.rules, seed)
            _extend(c, player.play(job, c.games, games - c.games))
            c.measures = measure(c.cols, n_players, metrics)
            c.score = _score(tg, c.measures)
            if r == 0:
                c.first = c.measures
        alive.sort(key=_rank_key)
        if r == 0:
            first_cands = list(alive)
            first_rung = pd.DataFrame(
                [{**c.values, **{m: c.measures[m][0] for m in metrics}} for c in alive]
            )
        for c in alive[rungs[r + 1][0] if r + 1 < len(rungs) else 0 :]:
            c.cols = {}  # eliminated (or the search is over): its rounds are not needed
    final = alive[:finalists]
    base_spec = spec_of(base_text, resolve(base_text), fixed, {})
    base_c = next((c for c in cands if c.spec == base_spec), None)
    conf = list(final) + ([base_c] if base_c is not None and base_c not in final else [])
    say(
        f"confirmation: {len(conf)} rule sets x {confirm_games:,} rounds on fresh seed "
        f"{confirm_seed}"
    )
    confirmed = []
    for c in conf:
        d = Candidate(c.spec, c.rules, c.values, search=c)
        job = player.job(d.rules, confirm_seed)
        _extend(d, player.play(job, 0, confirm_games))
        d.measures = measure(d.cols, n_players, list(METRICS))
        d.score = _score(tg, d.measures)
        d.cols = {}  # measured: its rounds are not needed (memory for the next one)
        confirmed.append(d)
    confirmed.sort(key=_rank_key)
    base_conf = next(d for d in confirmed if d.search is base_c) if base_c else None
    in_conf = {id(c) for c in conf}
    rest = sorted(  # the rung each reached first (more rounds), then its results there
        (c for c in cands if id(c) not in in_conf and c.measures),
        key=lambda c: (-c.games, *_rank_key(c)),
    )
    rows = [_row(d, tg, "confirmed", confirm_seed) for d in confirmed]
    rows += [_row(c, tg, "search", seed) for c in rest]
    table = pd.DataFrame(rows)
    table.insert(0, "rank", np.arange(1, len(table) + 1))
    return Design(
        tg,
        space,
        base,
        n_players,
        strategies,
        seed,
        confirm_seed,
        total,
        invalid,
        sampled,
        rungs,
        confirmed,
        cands,
        first_rung,
        table,
        player.played,
        time.perf_counter() - t0,
        base_conf,
        first_cands,
    )


def effects(d: Design) -> list[dict]:
    """Each searched rule value's effect on every target metric, from the first rung
    (every candidate on the same rounds): the mean over the candidates with that value
    minus the mean over those with the ``--from`` value, averaged over the other rules."""
    df = d.first_rung
    base_values = d.base_candidate.values if d.base_candidate else d.searched[0].values
    out = []
    for rule in d.vary:
        if rule not in df or df[rule].nunique() < 2:
            continue
        b = base_values[rule]
        ref = df[df[rule] == b]
        if ref.empty:
            continue
        for v in d.vary[rule]:
            if v == b:
                continue
            sub = df[df[rule] == v]
            if sub.empty:
                continue
            out.append(
                {
                    "rule": rule,
                    "from": b,
                    "to": v,
                    "candidates": len(sub),
                    **{
                        t.metric: float(sub[t.metric].mean() - ref[t.metric].mean())
                        for t in d.targets
                    },
                }
            )
    return out
