"""The ``expert`` strategy on the Python side: its parameters and how a job runs it.

``expert:rollouts=64;policy=tuned;horizon=8;...`` (every parameter optional; the
defaults are ``DEFAULTS``). The search runs in the kernel (``kernel.expert.rounds``): flat Monte
Carlo over each decision with more than one choice, dealing the cards it cannot see
consistently with what the table saw. Each parameter's meaning and the expert's measured
strength are in ``docs/players.md``; what was tried to get there, in
``notes/expert.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..kernel.core import layout as L
from ..kernel.expert.rounds import N_X
from . import strategies as strat
from .params import EXPERT_PARAMS, Param, expert_slot

if TYPE_CHECKING:
    from ..game.rules import RuleSet

NAME = "expert"
# how it plays, in one sentence (``unosim strategies``)
SUMMARY = (
    "Plays each choice out many times before choosing (flat Monte Carlo): the "
    "strongest player, and about 1,000 times slower."
)
PARAMS = {p.name: p for p in EXPERT_PARAMS}
DEFAULTS = {p.name: p.default for p in EXPERT_PARAMS}
DEFAULT_ROLLOUTS = DEFAULTS["rollouts"]
DEFAULT_HORIZON = DEFAULTS["horizon"]
# The weighted player `unosim tune` found against 3 random (official, 4 players):
# examples/weighted-official-random-2.toml, 0.3416 +- 0.0006 on 2,000,000 fresh rounds
# (seed 2, 300,000,000 rounds, sigma 0.3, population 24, elite 6, 30 iterations), going
# on from examples/weighted-official-random.toml (seed 1, 6,000,000 rounds: 0.3358 on
# the same rounds).
TUNED = (
    "weighted:points=-1.581259;colour=0.605051;wild=-2.100325;action=0.200019;"
    "attack=1.645577;switch=0.100062;short=0.693184;scarce=5.407055;swap=2.104102;"
    "name_short=0.20121;name_scarce=2.871274;challenge=0;stack=1;jump=1;bluff=0;"
    "forget_uno=0"
)
# The documented budget of the strength figures (docs/players.md, "The expert"): the textbook
# rollout algorithm (each opponent plays its own strategy in the rollouts, which run to
# the end of the round: unbiased values of the policy's moves) at 512 determinizations
# per decision, reading each opponent's last 4 plays from the hand; it neither races nor
# stops extensions for futility, shuffles the pile and deals the hands for every rollout
# (``race=0;fut=0;pile=shuffled;reuse=1``, the games its strength was measured on).
# About 23 times the default expert's cost per round (`make bench`, docs/performance.md).
STRONG = (
    "expert:model=actual;horizon=0;rollouts=512;depth=4;tries=64;race=0;fut=0;pile=shuffled;reuse=1"
)
# STRONG's strength at about 6 times its speed: rollouts cut at 12 turns and scored by the
# fitted model (`value=fit`), 256 determinizations, racing and the futility stop; paired
# with STRONG on its 10,000 deals: +0.0009 +- 0.0041 against 3 random, -0.0011 +- 0.0038
# against 3 heuristic, at x5.97 and x5.66 its rounds per CPU-second (notes/expert.md;
# ``pile=shuffled;reuse=1``, the dealing it was measured with).
STRONG_FIT = (
    "expert:model=actual;depth=4;tries=64;horizon=12;rollouts=256;race=4;fut=10;value=fit;"
    "pile=shuffled;reuse=1"
)
# STRONG's strength at about 11 times its speed: STRONG_FIT with the unbiased dealing of
# kernel behaviour 8 (pile=lazy) and each deal of the hidden hands serving 4 rollouts
# (reuse=4); paired with STRONG on its 10,000 deals: +0.0024 +- 0.0044 against 3 random,
# +0.0012 +- 0.0043 against 3 heuristic, at x11.1 and x10.6 its speed (medians of 5
# alternated pairs; notes/expert.md, fifteenth pass).
STRONG_FAST = (
    "expert:model=actual;depth=4;tries=64;horizon=12;rollouts=256;race=4;fut=10;value=fit;"
    "reuse=4;pile=lazy"
)
DEALS = PARAMS["deal"].choices  # kernel.expert.rounds DEAL_* in this order
SCOPES = PARAMS["scope"].choices  # kernel.expert.rounds SCOPE_* in this order


def _value(p: Param, val: str) -> object:
    """``val`` (text) as parameter ``p``'s value, or StrategyError (one line)."""
    if p.type == "int":
        lo, hi = p.limits
        try:
            v = int(val)
        except ValueError:
            v = None
        if v is None or not lo <= v <= hi:
            raise strat.StrategyError(
                f"expert parameter {p.name!r} must be a whole number in [{lo}, {hi}], got {val!r}"
            )
        return v
    if p.type == "float":
        lo, hi = p.limits
        try:
            x = float(val)
        except ValueError:
            x = lo - 1.0
        if not lo <= x <= hi:
            raise strat.StrategyError(
                f"expert parameter {p.name!r} must be a number in [{lo:g}, {hi:g}], got {val!r}"
            )
        return round(x, 2)
    if p.type == "choice":
        if val not in p.choices:
            raise strat.StrategyError(
                f"expert {p.name} must be one of {', '.join(p.choices)}, got {val!r}"
            )
        return val
    # the policy: a built-in strategy name, `tuned`, or a strategy file
    if val != "tuned" and val not in strat.NAMES and not val.endswith(".toml"):
        raise strat.StrategyError(
            f"expert policy must be 'tuned', one of "
            f"{', '.join(strat.NAMES)} or a weighted "
            f"strategy file (.toml), got {val!r}"
        )
    return val


def options(rest: str) -> dict:
    """The parameters of ``expert:<rest>``, validated, defaults filled in."""
    opts = dict(DEFAULTS)
    for item in filter(None, (s.strip() for s in rest.replace(",", ";").split(";"))):
        key, eq, val = (x.strip() for x in item.partition("="))
        if not eq or key not in DEFAULTS:
            raise strat.StrategyError(
                f"unknown strategy parameter {item!r} for 'expert' (known: {', '.join(DEFAULTS)})"
            )
        opts[key] = _value(PARAMS[key], val)
    return opts


def label(opts: dict) -> str:
    extra = [f"{k}={v}" for k, v in opts.items() if v != DEFAULTS[k]]
    return NAME + (":" + ";".join(extra) if extra else "")


def parse_expert(rest: str) -> tuple[int, np.ndarray, str]:
    """(id, params, label) of ``expert:<rest>``: the id and parameters are the rollout
    policy's (the kernel's decisions outside the search), the label says ``expert``."""
    opts = options(rest)
    policy = opts["policy"]
    if policy == "tuned":
        policy = TUNED
    elif policy.endswith(".toml"):  # a file written by ``unosim tune``
        policy = f"weighted:{policy}"
    sid, params, _ = strat.parse_builtin(policy)
    return sid, params, label(opts)


def expert_array(labels: Sequence[str], rules: RuleSet | None = None) -> np.ndarray | None:
    """``int64[MAX_PLAYERS, N_X]`` expert parameters of each seat (``kernel.expert.rounds``), or
    None when no seat is an expert. ``rules`` (a RuleSet) gives ``voluntary_draw``."""
    xp = np.zeros((L.MAX_PLAYERS, N_X), dtype=np.int64)
    any_expert = False
    for s, lab in enumerate(labels):
        name, _, rest = lab.partition(":")
        if name.strip() != NAME:
            continue
        any_expert = True
        o = options(rest)
        for p in EXPERT_PARAMS:
            if p.slot:
                xp[s, expert_slot(p)] = p.encode(o[p.name])
        if rules is not None and not bool(getattr(rules, "voluntary_draw", True)):
            xp[s, expert_slot(PARAMS["draw"])] = 0  # no drawing with a legal card
    return xp if any_expert else None


def refuse_matches(labels: Iterable[str]) -> None:
    """Matches run in ``kernel.drivers.match``, which has no search: an expert would silently
    play as its rollout policy there, so it is refused. ``unosim.sim.assembled`` builds
    matches with an expert from independent single rounds instead."""
    if any(lab.partition(":")[0].strip() == NAME for lab in labels):
        raise strat.StrategyError(
            "the expert plays single rounds (simulate, tournament); "
            "matches with an expert are not run by the match kernel "
            "(unosim.sim.assembled.assembled_matches builds them from "
            "single rounds)"
        )
