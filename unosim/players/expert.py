"""The ``expert`` strategy on the Python side: its parameters and how a job runs it.

``expert:rollouts=128;policy=tuned;horizon=16;crn=1;draw=0;model=policy;z=2;endgame=0;
deal=voids;bluff=0;race=0;pad=1000;scope=all;infer=3;more=5;depth=1;tries=16`` (every
parameter optional; defaults as shown). The search itself is ``kernel.expert``. It
searches the card played on a normal turn with the colour named after it and the seat a
7 swaps with (Seven-Zero), whether to challenge, stack (which card, which colour) or
take a pending penalty, and whether to play a legal card just drawn (and its colour or
swap target); jump-ins, the extra cards of a multi-card play and Greninja's second
colour are its policy's.

  rollouts  determinizations per decision, each candidate played out once on each
            (the budget);
  policy    the rollout policy, which also makes the decisions the expert does not
            search: ``tuned`` (the weighted player tuned against 3 ``random`` under
            official rules, ``examples/weighted-official-random-2.toml``), any strategy
            name without parameters, or a weighted strategy file (``x.toml``, as
            ``unosim tune`` writes them);
  horizon   turns a rollout plays before it is scored by hand sizes (0: to the end);
  crn       1: every candidate is played out on the same deals and random streams;
  draw      1: drawing with a legal card in hand is a candidate (when the rules'
            ``voluntary_draw`` allows it);
  model     ``policy``: every seat plays the rollout policy in the rollouts; ``actual``:
            the opponents play their own strategies (the expert knows them);
  z         the policy's own move is kept unless another beats it by more than ``z``
            standard errors of the paired difference (0: plain best estimate);
  endgame   search only once some hand holds at most this many cards (0: always);
  deal      how the cards it cannot see are dealt in each determinization: ``uniform``,
            ``voids`` (no opponent gets a card of a colour or rank, or a wild-type card,
            that the table saw it lack when it last drew: ``layout.MEM_SHORT``), or
            ``open`` (the true hands: a diagnostic of what the hidden cards cost, not a
            fair player);
  bluff     1: an illegal Wild Draw Four is a candidate too (4.3; none of the built-in
            players ever challenges this expert, so a bluff is never punished);
  race      k > 0: every k rollouts, drop the candidates already worse than the policy's
            move by ``z`` standard errors (racing; 0: every candidate gets every rollout);
  pad       added to the variance of a paired difference, in thousandths of 1/rollouts
            (1000: 1/rollouts, so that a few identical differences are no certainty);
  scope     ``all``: every decision above is searched; ``turn``: only the normal turn's
            card and colour (and draw, bluff), the rest is the policy's (the expert
            before issue 16's item 1 was completed);
  infer     1: in each determinization a ``heuristic`` (or ``table``) opponent's hand
            agrees with the last colour it named after a wild-type card (a heuristic
            names the colour it holds most of), as far as the cards it played since
            allow, and lacks what that play showed it lacked (a heuristic plays a plain
            wild only without a legal coloured card); 2: also, if its last actions were
            cards from its hand, a hand with which the heuristic would have played them;
            3: also a ``random`` opponent's hand is dealt with the chance that ``random``
            made its last plays from it (each: the card's copies over the legal cards
            of the hand it then held, RULES.md 10), by rejection; 0: none of these
            (``kernel.expert.determinize``; what a seat's plays showed is forgotten
            once it draws or its hand moves);
  depth     the last plays from the hand per opponent that ``infer`` 2-3 read (1-4; all
            made since its hand last changed otherwise);
  tries     deals of an opponent's hand at most until one agrees with ``infer`` (the
            last one is kept if none does);
  more      k > 1: while a candidate beats the policy's move on average but not by ``z``
            standard errors, ``rollouts`` more rollouts are played, up to ``k`` x
            ``rollouts`` (adaptive rollouts: the budget goes to the close decisions;
            1: always ``rollouts``, the expert of kernel behaviour 3).

Tried and not adopted (paired, 4-player official against 3 random; ``README.md``):
``model=actual``, ``bluff=1``, ``horizon`` 8-32 and 0, 256-512 rollouts, ``endgame=3``,
``race=32`` with 256 rollouts, ``pad=10``, ``z`` 1-1.5: every gain over the default
within about +-0.005 of it. Against 3 heuristic, ``model=actual`` neither (-0.003 +-
0.005, 4,000 deals). ``infer=2`` is the default on a gain that is not established
(+0.005 +- 0.005 over ``infer=0`` on 4,000 deals, +0.002 +- 0.005 on 4,000 more;
``infer=1`` +0.001 and -0.000 +- 0.003).

Issue 16's strength targets (paired, 4-player official, ``benchmarks/expert_strength.py``
with 11 as the seed, 95% intervals). What the expert lacks is not search but the hidden
cards, and what the table sees of them is worth little against ``random``: dealing
uniformly instead of ``voids`` loses -0.005 +- 0.007 (2,000 deals). Keeping what a seat
lacked before its last draws for all but as many of its cards as it drew since (a
second layer of ``MEM_SHORT``, ``deal=layers``, not kept) gained +0.000 +- 0.004 (2,000
deals), although at an expert's decision such an older lack was known of an opponent
41% of the time (13% with nothing else known), for about half its hand. Scoring the
horizon by the share of hand sizes to the power 2 or 0.5 instead of 1: +0.002 and
+0.000 +- 0.005 (2,000 deals, not kept). What helped: a stronger rollout policy. Tuning
on from the old ``TUNED`` (``unosim tune --sigma 0.3``, 300,000,000 rounds) won +0.0058
+- 0.0006 against random and +0.0048 +- 0.0008 against heuristic as a player (400,000
and 200,000 deals), and the expert searching with it +0.0057 +- 0.0054 over the expert
with the old one against random (6,000 deals, ``FIRST=$((2**43))``; +0.0034 +- 0.0075
on 3,000 others) and +0.0008 +- 0.0049 against heuristic (6,000 deals; +0.0057 +-
0.0071 on 3,000 others): now ``TUNED``. A policy tuned against heuristic (60,000,000
rounds) was no better against heuristic than this one (-0.0005) and worse against
random; 150,000,000 more rounds from this one (``--sigma 0.1``) gained +0.0008 +-
0.0003 as a player (not kept): the linear player is near its ceiling. On fresh deals
(``FIRST=$((2**41 + 2**21))``) the expert wins 0.3471 +- 0.0087 against 3 random (2,500
deals, +0.0031 +- 0.0060 over its policy) and 0.2848 +- 0.0064 against 3 heuristic
(4,000 deals, +0.0104 +- 0.0047): short of the targets 0.36 and 0.295.

Issue 16's second pass (paired with the default expert on deals it was not chosen on,
against 3 random, 1 thread). ``more=5`` is the default: +0.0045 +- 0.0072 and +0.0045 +-
0.0072 (3,000 deals each, ``FIRST`` 2**45 and 2**46), then +0.0042 +- 0.0040 on 10,000
fresh deals (2**47; ``more=3``: +0.0076 +- 0.0076 and -0.0006 +- 0.0063 on 2,000 and
3,000), at 134 games/s against 301 for ``more=1`` (1 expert + 3 random, 1 thread; 165
for ``more=3``). Not kept: a learned leaf value (the chance each seat wins from the hand
sizes in turn order from the seat to act, capped at 10, counted over 4,000,000 rounds
of the tuned policy at every seat and shrunk towards the share of inverse hand sizes):
+0.0005 +- 0.0034 at horizon 16, and shorter horizons with it lose -0.011 +- 0.008 (8
turns), -0.027 +- 0.010 (4) and -0.039 +- 0.011 (2) (2,000 deals, 2**44): hand sizes
alone misjudge a position, and more turns of play judge it better; a weighted feature
``after`` (1 / cards of the seat a card hands the turn to: the seat after next for a
Skip, Draw Two or Wild Draw Four, the previous seat for a Reverse), tuned in from
``TUNED`` (100,000,000 rounds, sigma 0.3, to -0.16): +0.0007 +- 0.0004 as a player over
``TUNED``, +0.0005 +- 0.0002 of it the feature's (500,000 deals), too little for the
expert to show; ``draw=1`` +0.0006 +- 0.0011 (3,000 deals). On the fresh deals above
the expert with ``more=5`` wins 0.3513 +- 0.0088 against 3 random (+0.0073 +- 0.0089
over its policy, +0.0042 +- 0.0079 over ``more=1``; 2,500 deals) and 0.2933 +- 0.0064
against 3 heuristic (+0.0189 +- 0.0067 over its policy, +0.0085 +- 0.0061 over
``more=1``; 4,000 deals): still short of 0.36 and 0.295.

Issue 16's third pass (1 thread, deals from ``FIRST`` 2**48 and 2**49). What ``random``
opponents' plays tell pays after all: ``infer=3`` (a random seat's deal kept with the
chance that it made its last play from it) gains +0.0062 +- 0.0040 over ``infer=2``
against 3 random (0.3578 against 0.3517, 10,000 deals, 2**48) at the same speed (110
against 111 rounds/s), and is the default. Reading up to 4 plays (``depth=4;tries=64``):
+0.0020 +- 0.0037 and +0.0019 +- 0.0037 against random (10,000 deals each, 2**48, 2**49),
+0.0045 +- 0.0043 and +0.0026 +- 0.0043 against heuristic (6,000 deals each, 2**48,
2**49; ``depth=2`` +0.0036 +- 0.0038),
at 72-92 rounds/s against 108-110: not the default, which would fall to about the 200
games/s floor. A two-phase weighted policy (a second weight vector once the player holds
at most 2 cards, tuned from ``TUNED`` over 300,000,000 rounds) won +0.0015 +- 0.0005
against random and +0.0027 +- 0.0007 against heuristic as a player (400,000 and 200,000
deals), and as the expert's rollout policy +0.0013 +- 0.0064 and -0.0003 +- 0.0058 (4,000
deals each): not kept.

Issue 16's fourth pass (1 thread, 10,000 deals from ``FIRST`` 2**50, paired). Each of
the default's two approximations costs little alone; without both, the search is the
textbook rollout algorithm: with the opponents playing their own strategies in the
rollouts (``model=actual``) and the rollouts played to the end of the round
(``horizon=0``), a rollout's result is an unbiased sample of the value of a move
followed by the policy against these opponents (Tesauro and Galperin), and the budget
pays again. Against 3 random: ``model=actual`` +0.0028 +- 0.0041 over the default (122
against 108 rounds/s), with ``horizon=0`` +0.0073 +- 0.0045 (75 rounds/s), and at 96,
128 and 256 rollouts 0.3569, 0.3605 and 0.3631 (256 over 128: +0.0026 +- 0.0030; over
the default +0.0100 +- 0.0045, 38 rounds/s). Against 3 heuristic: ``model=actual``
-0.0008 +- 0.0039, with ``horizon=0`` +0.0016 +- 0.0043, at 256 rollouts 0.2902 (+0.0052
+- 0.0043 over the default, +0.0036 +- 0.0029 over 128). This was ``STRONG``, the
documented budget of the strength figures, until the fifth pass; the default stays the
faster expert (``model=actual;horizon=0`` at 128 rollouts plays 75 rounds/s on 1 thread
against the default's 108: about 165 games/s on 2 cores, below issue 16's 200; at 96
rollouts, 99 rounds/s, it gained +0.0037 +- 0.0045 over the default, not established).
On the 10,000 deals fixed for the final measurement (``FIRST=$((5<<41))``) ``STRONG``
wins 0.3635 +- 0.0044 against 3 random and 0.2928 +- 0.0041 against 3 heuristic (+0.0099
+- 0.0045 and +0.0076 +- 0.0042 over the default, +0.0213 +- 0.0039 and +0.0206 +-
0.0037 over its policy). The truncated rollouts' bias shows in ``bluff=1``:
``model=actual;bluff=1`` lost -0.0068 +- 0.0018 against ``model=actual``, but with
rollouts to the end +0.0008 +- 0.0009 (``model=actual;horizon=0;bluff=1`` against
``model=actual;horizon=0``): scored by hand sizes after 16 turns, a Wild Draw Four
played as a bluff looks better than it is (a card less, 4 more for the next seat), since
keeping it pays only later.

Issue 16's fifth pass. Against 3 heuristic the 256-rollout budget above fell short of
0.295 on its deals (0.2928 +- 0.0041), so ``STRONG`` became
``model=actual;horizon=0;rollouts=512;depth=4;tries=64``: twice the rollouts, and the
4 last plays read per opponent (the third pass's ``depth=4``, whose gains had been
largest against heuristic). Chosen on that earlier evidence, it was measured once, on
10,000 deals fixed before its runs (``FIRST=$((7<<41))``): 0.3649 +- 0.0044 against 3
random and 0.3030 +- 0.0042 against 3 heuristic (+0.0229 +- 0.0042 and +0.0267 +-
0.0041 over its policy, +0.0134 +- 0.0046 and +0.0150 +- 0.0044 over the default),
and 0.2673 +- 0.0069 against 3 of its policy (2,500 of those deals). On the same deals
the 256-rollout budget won 0.3606 +- 0.0044 and 0.2949 +- 0.0042: ``STRONG`` gains
+0.0043 +- 0.0038 and +0.0082 +- 0.0036 over it. These deals favour the expert a little
(its policy wins 0.2763 there against heuristic, 0.2722 on ``FIRST=$((5<<41))``); the
gains over the policy are the steadier figures. Against the old heuristic (README) it
wins 0.3154 +- 0.0042 there (+0.0318 +- 0.0042 over its policy). It plays 19 rounds/s on
1 thread against the default's 123-129 on those deals (``make bench``: 33 against 240
games/s on 2 cores).
"""
from __future__ import annotations

import numpy as np

from . import strategies as strat
from ..kernel import layout as L
from ..kernel.expert import N_X
from .params import EXPERT_PARAMS, expert_slot

NAME = "expert"
PARAMS = {p.name: p for p in EXPERT_PARAMS}
DEFAULTS = {p.name: p.default for p in EXPERT_PARAMS}
DEFAULT_ROLLOUTS = DEFAULTS["rollouts"]
DEFAULT_HORIZON = DEFAULTS["horizon"]
# The weighted player `unosim tune` found against 3 random (official, 4 players):
# examples/weighted-official-random-2.toml, 0.3416 +- 0.0006 on 2,000,000 fresh rounds
# (seed 2, 300,000,000 rounds, sigma 0.3, population 24, elite 6, 30 iterations), going
# on from examples/weighted-official-random.toml (seed 1, 6,000,000 rounds: 0.3358 on
# the same rounds).
TUNED = ("weighted:points=-1.581259;colour=0.605051;wild=-2.100325;action=0.200019;"
         "attack=1.645577;switch=0.100062;short=0.693184;scarce=5.407055;swap=2.104102;"
         "name_short=0.20121;name_scarce=2.871274;challenge=0;stack=1;jump=1;bluff=0;"
         "forget_uno=0")
# The documented budget of the strength figures (README, "Strategies"): the textbook
# rollout algorithm (each opponent plays its own strategy in the rollouts, which run to
# the end of the round: unbiased values of the policy's moves) at 512 determinizations
# per decision, reading each opponent's last 4 plays from the hand; about 7x slower than
# the default, which stays above 200 games/s on 2 cores (``make bench``: 33 against 240
# games/s).
STRONG = "expert:model=actual;horizon=0;rollouts=512;depth=4;tries=64"
DEALS = PARAMS["deal"].choices  # kernel.expert DEAL_* in this order
SCOPES = PARAMS["scope"].choices  # kernel.expert SCOPE_* in this order


def _value(p, val: str):
    """``val`` (text) as parameter ``p``'s value, or StrategyError (one line)."""
    if p.type == "int":
        lo, hi = p.bounds
        try:
            v = int(val)
        except ValueError:
            v = None
        if v is None or not lo <= v <= hi:
            raise strat.StrategyError(f"expert parameter {p.name!r} must be a whole "
                                      f"number in [{lo}, {hi}], got {val!r}")
        return v
    if p.type == "float":
        lo, hi = p.bounds
        try:
            v = float(val)
        except ValueError:
            v = lo - 1.0
        if not lo <= v <= hi:
            raise strat.StrategyError(f"expert parameter {p.name!r} must be a number in "
                                      f"[{lo:g}, {hi:g}], got {val!r}")
        return round(v, 2)
    if p.type == "choice":
        if val not in p.choices:
            raise strat.StrategyError(f"expert {p.name} must be one of "
                                      f"{', '.join(p.choices)}, got {val!r}")
        return val
    # the policy: a built-in strategy name, `tuned`, or a strategy file
    if val != "tuned" and val not in strat.NAMES and not val.endswith(".toml"):
        raise strat.StrategyError(f"expert policy must be 'tuned', one of "
                                  f"{', '.join(strat.NAMES)} or a weighted "
                                  f"strategy file (.toml), got {val!r}")
    return val


def options(rest: str) -> dict:
    """The parameters of ``expert:<rest>``, validated, defaults filled in."""
    opts = dict(DEFAULTS)
    for item in filter(None, (s.strip() for s in rest.replace(",", ";").split(";"))):
        key, eq, val = (x.strip() for x in item.partition("="))
        if not eq or key not in DEFAULTS:
            raise strat.StrategyError(f"unknown strategy parameter {item!r} for 'expert' "
                                      f"(known: {', '.join(DEFAULTS)})")
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
        for p in EXPERT_PARAMS:
            if p.slot:
                xp[s, expert_slot(p)] = p.encode(o[p.name])
        if rules is not None and not bool(getattr(rules, "voluntary_draw", True)):
            xp[s, expert_slot(PARAMS["draw"])] = 0  # no drawing with a legal card
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
