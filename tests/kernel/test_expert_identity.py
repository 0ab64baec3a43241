"""Same seed, same expert games: the ``expert``'s rounds, traces and search tallies on
built-in rule sets against digests of its games as they were before declared cards (the
code of that time gives the same digests), which must not change its games on built-in
rule sets.
``tests/kernel/test_bit_identity.py`` covers the other strategies, not the expert.

Covered: every search parameter that changes how it plays, at small budgets, on the
presets and player counts below, and one case at the default budget.
``python -m tests.test_expert_identity --write`` (from the repository root) rewrites the digest
file: only when a change of the expert's games is intended, and said so in its commit message.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.helpers import digest_of
from unosim.sim import engine
from unosim.sim.simulate import make_job

DIGESTS = Path(__file__).with_name("expert_identity.json")
# the expert's defaults of the games pinned here that have changed since (kernel
# behaviour 6: race=4, fut=10; 7: value=fit, rollouts=64; 8: pile=lazy, reuse=2; 9:
# horizon=8), spelled out for every expert seat; a parameter a case sets itself is kept
PINNED = {
    "race": "0",
    "fut": "0",
    "value": "hands",
    "rollouts": "128",
    "pile": "shuffled",
    "reuse": "1",
    "horizon": "16",
}
SEED = 7
# (rule set, players, seats, games)
CASES = [
    ("official", 4, "expert:rollouts=8,random,random,random", 24),
    ("official", 2, "expert:rollouts=8;scope=turn,heuristic", 24),
    ("official", 3, "expert:rollouts=8;crn=0;model=actual,heuristic,random", 16),
    ("seven-zero", 4, "expert:rollouts=8,heuristic,random,weighted", 16),
    ("copag", 3, "expert:rollouts=8;deal=uniform;infer=0,random,heuristic", 16),
    ("pokemon", 4, "expert:rollouts=8;bluff=1;draw=1,random,heuristic,random", 16),
    ("progressive", 4, "expert:rollouts=8;horizon=0;race=4,random,heuristic,points-dumper", 16),
    ("jump-in", 4, "expert:rollouts=8;infer=3;depth=3,random,random,heuristic", 16),
    (
        "official-2018",
        5,
        "expert:rollouts=8;deal=open,heuristic,random,aggressive,colour-counter",
        12,
    ),
    ("draw-until-playable", 2, "expert:rollouts=8,random", 16),
    ("motu", 4, "expert:rollouts=8,random,heuristic,random", 12),
    ("official", 4, "expert,random,random,random", 4),
    ("official", 4, "expert:rollouts=8;value=fit,random,random,random", 16),
    ("seven-zero", 3, "expert:rollouts=8;horizon=6;value=fit;model=actual,heuristic,random", 12),
    ("official", 4, "expert:rollouts=8;reuse=4;model=actual;depth=4,heuristic,random,random", 12),
    (
        "official",
        4,
        "expert:rollouts=8;pile=lazy;model=actual;depth=4;tries=64,heuristic,random,random",
        12,
    ),
    ("stacking", 4, "expert:rollouts=8;pile=lazy;reuse=4;value=fit,random,heuristic,random", 12),
    ("copag", 3, "expert:rollouts=8;pile=lazy;deal=open,random,heuristic", 12),
]


def pinned(seats: str) -> str:
    """``seats`` with ``PINNED``'s parameters spelled out for each expert seat (its own
    settings first, so a case's own value of one of them wins)."""
    out = []
    for seat in seats.split(","):
        name, _, rest = seat.partition(":")
        if name == "expert":
            own = {item.partition("=")[0] for item in rest.split(";") if item}
            extra = [f"{k}={v}" for k, v in PINNED.items() if k not in own]
            seat = "expert:" + ";".join(filter(None, [rest, *extra]))
        out.append(seat)
    return ",".join(out)


def digest(rules: str, n: int, seats: str, games: int) -> str:
    """Its rounds (``engine.rounds``), the traces of its first 3 games and the tally of
    its first 4 (the expert seats with ``PINNED``'s parameters)."""
    job = make_job(rules, games, n, pinned(seats), SEED)
    rows = engine.rounds(job.kernel, job.seed, 0, games, 4)
    traces = [engine.trace(job.kernel, job.seed, g)[1] for g in range(3)]
    tally = engine.expert_tally(job.kernel, job.seed, 0, 4)
    return digest_of(rows, *traces, tally)


def _key(case) -> str:
    rules, n, seats, _ = case
    return f"{rules}/{n}/{seats}"


@pytest.mark.parametrize("case", CASES, ids=[_key(c) for c in CASES])
def test_expert_games_are_unchanged(case):
    want = json.loads(DIGESTS.read_text())[_key(case)]
    assert digest(*case) == want


# Racing at z=0 drops most candidates early: the rounds and traces of these games as
# they were when every search played out its whole budget, and the rollout turns of
# its first 4 games then.
RACED = ("official", 4, "expert:rollouts=32;race=2;z=0,random,random,random", 16)
RACED_GAMES = "7f51c9088b0faaec57e7b090"
RACED_WHOLE_TURNS = 18506


def test_racing_ends_a_search_without_changing_its_games():
    """A raced search ends once only the policy's move is left (``expert_search.search``):
    the same games as with its whole budget played out, in fewer rollout turns."""
    from unosim.kernel.expert.rounds import T_TURNS

    rules, n, seats, games = RACED
    job = make_job(rules, games, n, pinned(seats), SEED)
    rows = engine.rounds(job.kernel, job.seed, 0, games, 4)
    traces = [engine.trace(job.kernel, job.seed, g)[1] for g in range(3)]
    assert digest_of(rows, *traces) == RACED_GAMES
    turns = engine.expert_tally(job.kernel, job.seed, 0, 4)[T_TURNS]
    assert turns < 0.9 * RACED_WHOLE_TURNS, turns


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    DIGESTS.write_text(json.dumps({_key(c): digest(*c) for c in CASES}, indent=1) + "\n")
