"""The table's hint: each legal action's estimated chance to win the round, by the
expert's method (determinized rollouts), at a bounded cost.

For each rollout the hidden cards are dealt anew consistently with what the seat knows
(:meth:`State.resample_hidden`: never the real hands, so the hint tells the person
nothing their seat may not see), then every legal action is played on a copy of that
same deal (common random numbers: the actions are compared on the same deals) and the
round is played out: the seat itself and any other stepped seat by the ``random``
strategy, the built-in opponents by their own strategies. The action that wins most
often is the hint's choice. The cost is bounded by ``MAX_ROLLOUTS`` playouts in all and
a time limit; the answer says how many were played.
"""

from __future__ import annotations

import math
import time

import numpy as np

from ..sim.game import State

ROLLOUTS = 24  # deals tried per hint (each plays out every legal action once)
MAX_ROLLOUTS = 400  # playouts per hint, at most
SECONDS = 3.0  # time per hint, at most (the deals begun are finished)


def hint(
    state: State,
    seat: int,
    texts: dict[int, str] | None = None,
    rollouts: int = ROLLOUTS,
    seconds: float = SECONDS,
    seed: int | None = None,
) -> dict:
    """Each legal action of ``seat`` (at its decision) with its estimated chance to win.

    Returns ``{"actions": [{"id", "text", "win", "low", "high", "rollouts"}], "best",
    "deals", "note"}``; ``win`` the share of playouts won (``low``/``high`` a 95% Wilson
    interval), ``best`` the action winning most often (None where no hint is made:
    ``note`` says why)."""
    texts = texts or {}
    out: dict = {"actions": [], "best": None, "deals": 0, "note": ""}
    if state.is_terminal() or state.current_player != seat:
        out["note"] = "no decision of yours to hint at"
        return out
    legal = state.legal_actions()
    out["actions"] = [
        {"id": a, "text": texts.get(a, str(a)), "win": None, "low": None, "high": None}
        for a in legal
    ]
    if len(legal) == 1:
        out["best"] = legal[0]
        out["note"] = "one legal action"
        return out
    deals = max(1, min(rollouts, MAX_ROLLOUTS // len(legal)))
    rng = np.random.default_rng(seed)
    wins = np.zeros(len(legal), np.int64)
    end = time.monotonic() + seconds
    done = 0
    for _ in range(deals):
        base = state.clone()
        if not base.resample_hidden(seat, rng):
            break
        for j, a in enumerate(legal):
            c = base.clone()
            c.apply(a)
            while not c.is_terminal():
                c.play_builtin("random")
            wins[j] += int(c.returns()[seat] > 0)
        done += 1
        if time.monotonic() > end:
            break
    out["deals"] = done
    if done == 0:
        out["note"] = "no hint here: the hidden cards cannot be dealt anew at this decision"
        return out
    for j, row in enumerate(out["actions"]):
        low, high = _wilson(int(wins[j]), done)
        row.update(win=wins[j] / done, low=low, high=high)
    out["best"] = legal[int(np.argmax(wins))]
    return out


def _wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = k / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, mid - half), min(1.0, mid + half)
