"""The rules atlas's grid: every edition x house-switch mix x 2-10 players x two kinds
of players, the cells that share one simulation, and what each cell keeps.

A rule set of the grid is a deck (``DECKS``) plus one value per switch (``SWITCHES``),
written as a key: the deck's index, then one digit per switch (the value's index).
Editions (``EDITIONS``) are a deck with their own switch values: `copag` and
`portugal` use the official deck, so their rule sets are official ones.

Cells that cannot differ share one simulation (``sim_key``): ``random`` players never
forget UNO, never challenge and play one card at a time (RULES.md section 10,
``kernel/strategies/decide.py``: ``forget_uno``/``challenge`` are 0, so ``chance`` returns False
without a draw; ``next_extra`` returns -1), so ``uno_penalty``, ``challenge`` and
``multi_play`` change nothing for them; ``table`` players challenge ``smart``, which
never challenges under ``wd4_restriction = none`` (every play is legal), so there
``challenge`` changes nothing. ``tests/test_atlas.py`` checks both bit for bit.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from ..game.rules import RuleSet, resolve
from ..kernel.core import layout as L
from ..sim.simulate import make_job, run_block, thread_count
from .pace import SECONDS_PER_TURN

# the decks behind the editions: (id, preset, house switches)
DECKS = (
    ("official", "official", ""),
    ("official-2018", "official-2018", ""),
    ("official-2018-swap", "official-2018", "blank_card=swap_hands"),
    ("pokemon", "pokemon", ""),
    ("motu", "motu", ""),
)
# switches in key order: (rule, values); the first value is official's
SWITCHES = (
    ("stacking", ("none", "same", "progressive")),
    ("seven_zero", (False, True)),
    ("jump_in", (False, True)),
    ("draw_rule", ("one", "until_playable")),
    ("after_draw", ("play", "pass")),
    ("wd4_restriction", ("colour", "none", "strict")),
    ("multi_play", (False, True)),
    ("last_card", ("any", "number")),
    ("uno_penalty", (2, 1)),
    ("challenge", (True, False)),
)
SWITCH_NAMES = tuple(s for s, _ in SWITCHES)
# editions: (id, deck index, the switches the edition sets)
EDITIONS: tuple[tuple[str, int, dict[str, object]], ...] = (
    ("official", 0, {}),
    ("official-2018", 1, {}),
    ("official-2018-swap", 2, {}),
    ("pokemon", 3, {}),
    ("motu", 4, {}),
    ("copag", 0, {"wd4_restriction": "none", "challenge": False, "multi_play": True}),
    ("portugal", 0, {"uno_penalty": 1, "challenge": False}),
)
EDITION_RULES = {"official-2018-swap": "official-2018+blank_card=swap_hands"}
STRATEGIES = ("random", "table")
PLAYERS = tuple(range(2, 11))
# rounds per cell at SCALE 1 (the floor)
ROUNDS = {"random": 20_000, "table": 2_000}
SEED = 2026
# shared by random players: these switches take their official value
RANDOM_IGNORES = ("multi_play", "uno_penalty", "challenge")
TURN_BINS = 50  # turns histogram: TURN_BINS bins of turn_width(n) turns, then overflow
POINT_WIDTH, POINT_BINS = 20, 30  # points histogram: 0-19, 20-39, ... 580-599, overflow
BIG_PENALTY = 8  # "big penalties": a pending Draw Two / Wild Draw Four penalty of 8+


def turn_width(n_players: int) -> int:
    """Width in turns of one bin of the round-length histogram at ``n_players``."""
    return n_players


def valid(values: tuple) -> bool:
    """RULES.md 8.9: after_draw = pass cannot be combined with draw until playable."""
    d = dict(zip(SWITCH_NAMES, values))
    return not (d["after_draw"] == "pass" and d["draw_rule"] == "until_playable")


def all_switch_values() -> list[tuple]:
    """Every allowed tuple of switch values, in key order."""
    return [v for v in itertools.product(*(vals for _, vals in SWITCHES)) if valid(v)]


def key_of(deck: int, values: tuple) -> str:
    return str(deck) + "".join(str(SWITCHES[i][1].index(v)) for i, v in enumerate(values))


def values_of(key: str) -> tuple[int, tuple]:
    if len(key) != 1 + len(SWITCHES) or not key.isdigit():
        raise ValueError(f"not an atlas key: {key!r}")
    return int(key[0]), tuple(SWITCHES[i][1][int(c)] for i, c in enumerate(key[1:]))


def sim_key(key: str, strategy: str) -> str:
    """The key of the simulation that answers ``key`` for ``strategy`` players."""
    deck, values = values_of(key)
    d = dict(zip(SWITCH_NAMES, values))
    if strategy == "random":
        for s in RANDOM_IGNORES:
            d[s] = dict(SWITCHES)[s][0]
    elif d["wd4_restriction"] == "none":
        d["challenge"] = True
    return key_of(deck, tuple(d[s] for s in SWITCH_NAMES))


def sim_keys(deck: int, strategy: str) -> list[str]:
    """The distinct simulations of one deck for ``strategy`` players, sorted."""
    return sorted({sim_key(key_of(deck, v), strategy) for v in all_switch_values()})


def edition_key(edition: str) -> str:
    """The key of an edition as printed."""
    _, deck, sets = next(e for e in EDITIONS if e[0] == edition)
    return key_of(deck, tuple(sets.get(s, vals[0]) for s, vals in SWITCHES))


def rules_syntax(key: str) -> str:
    """The ``unosim compare`` syntax of a key: the deck's preset plus the switches that
    differ from official (``official+seven_zero=true,jump_in=true``)."""
    deck, values = values_of(key)
    _, preset, house = DECKS[deck]
    parts = [house] if house else []
    for (s, vals), v in zip(SWITCHES, values):
        if v != vals[0]:
            parts.append(f"{s}={str(v).lower()}")
    return preset + ("+" + ",".join(parts) if parts else "")


def rule_set(key: str) -> RuleSet:
    deck, values = values_of(key)
    _, preset, house = DECKS[deck]
    base = resolve(preset, house or None)
    return base.replace(name=rules_syntax(key), **dict(zip(SWITCH_NAMES, values)))


def counts() -> dict[str, int]:
    """How many combinations the grid answers, and how many simulations it runs."""
    switch = len(all_switch_values())
    rule_sets = len(DECKS) * switch
    sims = {s: len(DECKS) * len(sim_keys(0, s)) * len(PLAYERS) for s in STRATEGIES}
    return {
        "switch_mixes": switch,
        "editions": len(EDITIONS),
        "rule_sets": rule_sets,
        "labelled": len(EDITIONS) * switch * len(PLAYERS) * len(STRATEGIES),
        "answers": rule_sets * len(PLAYERS) * len(STRATEGIES),
        "sims_random": sims["random"],
        "sims_table": sims["table"],
    }


# ---------------------------------------------------------------- one cell's numbers

FIELDS = (
    "games",
    "truncated",
    "turns_sum",
    "turns_sumsq",
    "turns_median2",
    "turns_p90x2",
    "points_sum",
    "points_sumsq",
    "drawn_sum",
    "drawn_sumsq",
    "big_penalty",
    "challenges",
    "bluffs",
    "uno_penalties",
)


def cell_stats(out: np.ndarray, n_players: int) -> list:
    """What the atlas keeps of one cell's rounds (the kernel's records
    ``int32[games, N_COLS]``, ``simulate.run_block``): the ``FIELDS`` as integers
    (median and p90 of completed rounds' turns, times 2, numpy's linear interpolation),
    then the wins per seat, the turns histogram and the points histogram (trailing empty
    bins dropped). Sums are over completed rounds, except ``drawn_*`` and the counts,
    which are over every round."""
    col = lambda c: out[:, c].astype(np.int64)  # noqa: E731
    done = col(L.C_TRUNCATED) == 0
    turns, points, drawn = col(L.C_TURNS)[done], col(L.C_POINTS)[done], col(L.C_CARDS_DRAWN)
    med, p90 = np.percentile(turns, [50, 90]) if turns.size else (math.nan, math.nan)
    row = [
        len(out),
        int((~done).sum()),
        int(turns.sum()),
        int((turns**2).sum()),
        int(round(2 * med)),
        int(round(2 * p90)),
        int(points.sum()),
        int((points**2).sum()),
        int(drawn.sum()),
        int((drawn**2).sum()),
        int((col(L.C_MAX_STACK) >= BIG_PENALTY).sum()),
        int(col(L.C_CHALLENGES).sum()),
        int(col(L.C_BLUFFS).sum()),
        int(col(L.C_UNO_PENALTIES).sum()),
    ]
    wins = np.bincount(col(L.C_WINNER)[done], minlength=n_players)
    th = np.bincount(np.minimum(turns // turn_width(n_players), TURN_BINS), minlength=TURN_BINS + 1)
    ph = np.bincount(np.minimum(points // POINT_WIDTH, POINT_BINS), minlength=POINT_BINS + 1)
    return row + [wins.tolist(), _trim(th), _trim(ph)]


def run_cell(
    key: str, n_players: int, strategy: str, rounds: int, threads: int | None = None
) -> list:
    """Simulate one cell (games ``0 .. rounds - 1`` of ``SEED``: the same deals and
    streams in every cell) and return its ``cell_stats``."""
    job = make_job(rule_set(key), rounds, n_players, strategy, SEED)
    with thread_count(threads):
        out = run_block(job, 0, rounds, max(16, rounds // 8))
    return cell_stats(out, n_players)


def _trim(h: np.ndarray) -> list[int]:
    nz = np.flatnonzero(h)
    return h[: nz[-1] + 1 if nz.size else 0].tolist()


# ---------------------------------------------------------------- reading a choice


def edition_values(edition: str) -> tuple[int, tuple]:
    _, deck, sets = next(e for e in EDITIONS if e[0] == edition)
    return deck, tuple(sets.get(s, vals[0]) for s, vals in SWITCHES)


def parse_choice(text: str) -> tuple[str, str]:
    """``official+seven_zero=true,jump_in=true`` -> (edition, key), as the page reads its
    permalinks: an edition's preset, then switches changed from the edition's values
    (``blank_card=swap_hands`` after ``official-2018`` picks that edition)."""
    preset, _, house = text.partition("+")
    editions = [e for e, _, _ in EDITIONS if e != "official-2018-swap"]
    if preset not in editions:
        raise ValueError(f"unknown edition {preset!r}")
    edition, changes = preset, {}
    for item in filter(None, house.split(",")):
        rule, eq, value = item.partition("=")
        if not eq:
            raise ValueError(f"{item!r} must be rule=value")
        if (rule, value, preset) == ("blank_card", "swap_hands", "official-2018"):
            edition = "official-2018-swap"
            continue
        vals = dict(SWITCHES).get(rule)
        if vals is None or value not in [str(v).lower() for v in vals]:
            raise ValueError(f"no switch {item!r}")
        changes[rule] = vals[[str(v).lower() for v in vals].index(value)]
    deck, values = edition_values(edition)
    values = tuple(changes.get(s, v) for s, v in zip(SWITCH_NAMES, values))
    if not valid(values):
        raise ValueError("after_draw=pass cannot go with draw_rule=until_playable")
    return edition, key_of(deck, values)


def cell_metrics(cell: list, n_players: int) -> dict[str, float]:
    """The headline numbers of one cell (as the page computes them; minutes at the
    page's default pace)."""
    f = dict(zip(FIELDS, cell))
    g, done = f["games"], f["games"] - f["truncated"]
    wins = cell[len(FIELDS)]
    return {
        "turns_mean": f["turns_sum"] / done,
        "minutes_mean": f["turns_sum"] / done * SECONDS_PER_TURN / 60,
        "seconds_per_turn": SECONDS_PER_TURN,
        "turns_median": f["turns_median2"] / 2,
        "turns_p90": f["turns_p90x2"] / 2,
        "seat0_rate": wins[0] / g,
        "seat0_edge_pp": 100 * (wins[0] / g - 1 / n_players),
        "points_mean": f["points_sum"] / done,
        "cards_drawn_mean": f["drawn_sum"] / g,
        "stack8_share": f["big_penalty"] / g,
        "truncated_share": f["truncated"] / g,
        "rounds": g,
    }


# ---------------------------------------------------------------- Seven-Zero's chaos

SWING = 3  # a hand that grows or shrinks by this many cards in one step "swings"


def chaos(key: str, n_players: int, strategy: str, rounds: int) -> list[int]:
    """Turn-by-turn measures of games ``0 .. rounds - 1`` of a cell, from their traces
    (``engine.trace``): ``[rounds, lead changes, swings]``, summed over the
    rounds. The leader is the one player holding the fewest cards (on a tie the lead
    stays where it was); a swing is one step in which a hand grows or shrinks by
    ``SWING`` cards or more at once (a Seven-Zero swap or pass, a shuffle of hands;
    penalty cards are drawn one at a time and do not swing)."""
    from ..sim import engine

    job = make_job(rule_set(key), rounds, n_players, strategy, SEED)
    changes = swings = 0
    for game in range(rounds):
        _, trace = engine.trace(job.kernel, job.seed, game)
        sizes = engine.trace_hands(trace, n_players).sum(axis=2)
        swings += int((np.abs(np.diff(sizes, axis=0)) >= SWING).sum())
        lead = -1
        for row in sizes[1:]:  # after the deal
            low = row.min()
            if (row == low).sum() == 1:
                now = int(row.argmin())
                changes += lead >= 0 and now != lead
                lead = now
    return [rounds, int(changes), swings]
