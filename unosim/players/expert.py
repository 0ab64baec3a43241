"""The ``expert`` strategy on the Python side: its parameters and how a job runs it.

``expert:rollouts=128;policy=tuned;horizon=16;...`` (every parameter optional; the
defaults are ``DEFAULTS``). The search runs in the kernel (``kernel.expert``): flat Monte
Carlo over each decision with more than one choice, dealing the cards it cannot see
consistently with what the table saw. Each parameter's meaning and the expert's measured
strength are in ``docs/players.md``; what was tried to get there, in
``docs/notes/expert.md``.
"""
from __future__ import annotations

import numpy as np

from . import strategies as strat
from ..kernel import layout as L
from ..kernel.expert import (
    N_X,
    X_BLUFF,
    X_CRN,
    X_DEAL,
    X_DEPTH,
    X_DRAW,
    X_ENDGAME,
    X_HORIZON,
    X_MODEL,
    X_PAD,
    X_RACE,
    X_ROLLOUTS,
    X_INFER,
    X_MORE,
    X_SCOPE,
    X_TRIES,
    X_Z,
)

NAME = "expert"
DEFAULT_ROLLOUTS = 128
# The weighted player `unosim tune` found against 3 random (official, 4 players):
# examples/weighted-official-random-2.toml, 0.3416 +- 0.0006 on 2,000,000 fresh rounds
# (seed 2, 300,000,000 rounds, sigma 0.3, population 24, elite 6, 30 iterations), going
# on from examples/weighted-official-random.toml (seed 1, 6,000,000 rounds: 0.3358 on
# the same rounds).
TUNED = ("weighted:points=-1.581259;colour=0.605051;wild=-2.100325;action=0.200019;"
         "attack=1.645577;switch=0.100062;short=0.693184;scarce=5.407055;swap=2.104102;"
         "name_short=0.20121;name_scarce=2.871274;challenge=0;stack=1;jump=1;bluff=0;"
         "forget_uno=0")
DEFAULT_HORIZON = 16
DEFAULTS = {"rollouts": DEFAULT_ROLLOUTS, "policy": "tuned", "horizon": DEFAULT_HORIZON,
            "crn": 1, "draw": 0, "model": "policy", "z": 2.0, "endgame": 0, "deal": "voids",
            "bluff": 0, "race": 0, "pad": 1000, "scope": "all",
            "infer": 3, "more": 5, "depth": 1, "tries": 16}
# The documented budget of the strength figures (docs/players.md, "The expert"):
# the textbook rollout algorithm (each opponent plays its own strategy in the rollouts,
# which run to the end of the round: unbiased values of the policy's moves) at 512
# determinizations per decision, reading each opponent's last 4 plays from the hand;
# about 7x slower than the default, which stays above 200 games/s on 2 cores (``make
# bench``: 33 against 240 games/s).
STRONG = "expert:model=actual;horizon=0;rollouts=512;depth=4;tries=64"
DEALS = ("uniform", "voids", "open")  # kernel.expert DEAL_* in this order
SCOPES = ("turn", "all")  # kernel.expert SCOPE_* in this order
_INTS = {"rollouts": (1, 1 << 20), "horizon": (0, 1 << 20), "crn": (0, 1), "draw": (0, 1),
         "bluff": (0, 1), "infer": (0, 3),
         "race": (0, 1 << 20), "pad": (0, 1000), "more": (1, 64), "depth": (1, L.PLAYED_DEPTH),
         "tries": (1, 1024),
         "endgame": (0, 1000)}


def options(rest: str) -> dict:
    """The parameters of ``expert:<rest>``, validated, defaults filled in."""
    opts = dict(DEFAULTS)
    for item in filter(None, (s.strip() for s in rest.replace(",", ";").split(";"))):
        key, eq, val = (x.strip() for x in item.partition("="))
        if not eq or key not in DEFAULTS:
            raise strat.StrategyError(f"unknown strategy parameter {item!r} for 'expert' "
                                      f"(known: {', '.join(DEFAULTS)})")
        if key in _INTS:
            lo, hi = _INTS[key]
            try:
                v = int(val)
            except ValueError:
                v = None
            if v is None or not lo <= v <= hi:
                raise strat.StrategyError(f"expert parameter {key!r} must be a whole "
                                          f"number in [{lo}, {hi}], got {val!r}")
            opts[key] = v
        elif key == "z":
            try:
                v = float(val)
            except ValueError:
                v = -1.0
            if not 0.0 <= v <= 100.0:
                raise strat.StrategyError(f"expert parameter 'z' must be a number in "
                                          f"[0, 100], got {val!r}")
            opts[key] = round(v, 2)
        elif key == "policy":
            if val != "tuned" and val not in strat.NAMES and not val.endswith(".toml"):
                raise strat.StrategyError(f"expert policy must be 'tuned', one of "
                                          f"{', '.join(strat.NAMES)} or a weighted "
                                          f"strategy file (.toml), got {val!r}")
            opts[key] = val
        elif key in ("deal", "scope"):
            allowed = DEALS if key == "deal" else SCOPES
            if val not in allowed:
                raise strat.StrategyError(f"expert {key} must be one of "
                                          f"{', '.join(allowed)}, got {val!r}")
            opts[key] = val
        else:
            if val not in ("policy", "actual"):
                raise strat.StrategyError(f"expert model must be 'policy' or 'actual', "
                                          f"got {val!r}")
            opts[key] = val
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


def expert_array(labels, rules=None) -> np.ndarray | None:
    """``int64[MAX_PLAYERS, N_X]`` expert parameters of each seat (``kernel.expert``), or
    None when no seat is an expert. ``rules`` (a RuleSet) gives ``voluntary_draw``."""
    xp = np.zeros((L.MAX_PLAYERS, N_X), dtype=np.int64)
    any_expert = False
    for s, lab in enumerate(labels):
        name, _, rest = lab.partition(":")
        if name.strip() != NAME:
            continue
        any_expert = True
        o = options(rest)
        xp[s, X_ROLLOUTS] = o["rollouts"]
        xp[s, X_HORIZON] = o["horizon"]
        xp[s, X_CRN] = o["crn"]
        voluntary = True if rules is None else bool(getattr(rules, "voluntary_draw", True))
        xp[s, X_DRAW] = o["draw"] if voluntary else 0
        xp[s, X_MODEL] = 1 if o["model"] == "actual" else 0
        xp[s, X_Z] = round(o["z"] * 100)
        xp[s, X_ENDGAME] = o["endgame"]
        xp[s, X_DEAL] = DEALS.index(o["deal"])
        xp[s, X_BLUFF] = o["bluff"]
        xp[s, X_RACE] = o["race"]
        xp[s, X_PAD] = o["pad"]
        xp[s, X_SCOPE] = SCOPES.index(o["scope"])
        xp[s, X_INFER] = o["infer"]
        xp[s, X_MORE] = o["more"]
        xp[s, X_DEPTH] = o["depth"]
        xp[s, X_TRIES] = o["tries"]
    return xp if any_expert else None


def refuse_matches(labels) -> None:
    """Matches run in ``kernel.match``, which has no search: an expert would silently
    play as its rollout policy there, so it is refused. ``unosim.sim.assembled`` builds
    matches with an expert from independent single rounds instead."""
    if any(lab.partition(":")[0].strip() == NAME for lab in labels):
        raise strat.StrategyError("the expert plays single rounds (simulate, tournament); "
                                  "matches with an expert are not run by the match kernel "
                                  "(unosim.sim.assembled.assembled_matches builds them from "
                                  "single rounds)")
