"""Fit the expert's cut-off value (``unosim/kernel/expert/value.py``) and print its tables.

    python tools/fit_cut_value.py [--rounds 20000] [--seed 101]

Plays ``--rounds`` official 4-player rounds per seat of the tuned policy, against 3 random
and against 3 heuristic players (``4 x 2 x rounds`` in all), each traced; at the start of
every turn (nothing pending, the seat to move known) it records each seat's hand features
(those ``expert_value.fitted_share`` reads) and the round's winner. A conditional logit
(each seat's utility a sum of table entries, the winner a softmax over the seats) is fitted
by maximum likelihood (L-BFGS, analytic gradient) on a random 80%; the log loss on the
other 20% is printed beside that of the inverse hand sizes (``value=hands``) and of a
uniform guess, then the tables as Python text for ``expert_value.py``. At the default
size it takes about 12 minutes of CPU (user and system) and 8 GB of memory.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
from scipy.optimize import minimize

from unosim.kernel.core import layout as L
from unosim.kernel.core.kinds import (
    COLOUR,
    DRAW_TWO,
    N_BUILTIN_KINDS,
    N_COLOURED,
    RANK,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
)
from unosim.kernel.expert.value import CUT_MAX_HAND
from unosim.players.expert import TUNED
from unosim.sim import engine
from unosim.sim.simulate import make_job

N_SEATS = 4


def turn_starts(opponent: str, rounds: int, seed: int) -> np.ndarray:
    """int16[states, 5 + 4 x 8]: per turn start the tuned seat, the winner, the seat to
    move, the direction and the colour in play, then per seat its cards of each colour,
    wild cards (not Wild Draw Fours), Wild Draw Fours, Draw Twos, Skips and Reverses."""
    colour, rank = COLOUR[:N_COLOURED], RANK[:N_COLOURED]
    parts = []
    for r in range(N_SEATS):
        labels = [opponent] * N_SEATS
        labels[r] = TUNED
        job = make_job("official", rounds, N_SEATS, labels, seed + r)
        for game in range(rounds):
            out, tr = engine.trace(job.kernel, job.seed, game)
            winner = int(out[L.C_WINNER])
            if winner < 0:
                continue
            hands = engine.trace_hands(tr, N_SEATS)[:, :, :N_BUILTIN_KINDS]
            turn = tr[:, L.EV_TURN]
            first = np.flatnonzero(np.diff(turn) > 0) + 1  # each turn's first event
            first = first[turn[first] >= 1]
            before = hands[first - 1]  # the hands as the turn starts
            coloured = before[:, :, :N_COLOURED]
            per = [coloured[:, :, colour == c].sum(2) for c in range(4)]
            per += [before[:, :, WILD], before[:, :, WILD_DRAW_FOUR]]
            per += [coloured[:, :, rank == DRAW_TWO].sum(2)]
            per += [coloured[:, :, (rank == SKIP) | (rank == REVERSE)].sum(2)]
            m = len(first)
            meta = [np.full(m, r), np.full(m, winner), tr[first, L.EV_SEAT]]
            meta += [tr[first - 1, L.EV_DIR], tr[first - 1, L.EV_COLOUR]]
            seats = np.stack(per, 2).reshape(m, N_SEATS * 8)
            parts.append(np.concatenate([np.stack(meta, 1), seats], 1).astype(np.int16))
    return np.concatenate(parts)


# the model's blocks, in the order of theta: (name, entries)
BLOCKS = (("hand", 4 * CUT_MAX_HAND), ("wild", 4), ("wd4", 3), ("colours", 5), ("match", 4))
BLOCKS += (("d2", 1), ("sr", 1), ("self", 1))


def design(a: np.ndarray) -> tuple[np.ndarray, list]:
    """The winners and, per block, (index into theta int64[states, 4], 0/1 mask or None)."""
    a = a.astype(np.int64)
    tuned, winner, mover, direction, colour = (a[:, i] for i in range(5))
    per = a[:, 5:].reshape(len(a), N_SEATS, 8)
    cc, wild, wd4, d2, sr = per[:, :, :4], per[:, :, 4], per[:, :, 5], per[:, :, 6], per[:, :, 7]
    seat = np.arange(N_SEATS)[None, :]
    d = np.minimum(3, ((seat - mover[:, None]) * direction[:, None]) % N_SEATS)
    h = np.clip(cc.sum(2) + wild + wd4, 1, CUT_MAX_HAND)
    in_colour = np.take_along_axis(cc, colour[:, None, None].repeat(N_SEATS, 1), 2)[:, :, 0]
    zero = np.zeros_like(d)
    cols = [
        (d * CUT_MAX_HAND + h - 1, None),
        (np.minimum(3, wild), None),
        (np.minimum(2, wd4), None),
        ((cc > 0).sum(2), None),
        (d, (in_colour > 0) | (wild + wd4 > 0)),
        (zero, d2 > 0),
        (zero, sr > 0),
        (zero, seat == tuned[:, None]),
    ]
    out, off = [], 0
    for (ix, mask), (_, size) in zip(cols, BLOCKS):
        out.append((ix + off, mask))
        off += size
    return winner, out


def utilities(theta: np.ndarray, blocks: list) -> np.ndarray:
    u = 0.0
    for ix, mask in blocks:
        u = u + (theta[ix] if mask is None else theta[ix] * mask)
    return u


RIDGE = 1e-6  # times the sum of squares: keeps the rare cells (15-16 cards) finite


def loss(theta: np.ndarray, winner: np.ndarray, blocks: list) -> tuple[float, np.ndarray]:
    """Mean negative log-likelihood plus the ridge penalty, and its gradient."""
    u = utilities(theta, blocks)
    u = u - u.max(1, keepdims=True)
    e = np.exp(u)
    s = e.sum(1)
    rows = np.arange(len(u))
    f = -(u[rows, winner] - np.log(s)).mean() + RIDGE * (theta**2).sum()
    r = e / s[:, None]
    r[rows, winner] -= 1
    r /= len(u)
    g = np.zeros_like(theta)
    for ix, mask in blocks:
        w = r if mask is None else r * mask
        g += np.bincount(ix.ravel(), weights=w.ravel(), minlength=len(theta))
    return f, g + 2 * RIDGE * theta


def log_loss(p: np.ndarray, winner: np.ndarray) -> float:
    return float(-np.log(p[np.arange(len(p)), winner]).mean())


def tables(theta: np.ndarray) -> dict[str, np.ndarray]:
    """The blocks as ``expert_value``'s tables, each shifted so that its reference entry
    is 0 (a constant added to every seat's utility cancels in the softmax)."""
    out, off = {}, 0
    for name, size in BLOCKS:
        out[name] = theta[off : off + size].copy()
        off += size
    hand = out["hand"].reshape(4, CUT_MAX_HAND)
    out["hand"] = hand - hand[0, 6]  # 7 cards, to move
    out["wild"] -= out["wild"][0]
    out["wd4"] -= out["wd4"][0]
    out["colours"] -= out["colours"][1]
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=20000, help="rounds per seat and opponent")
    ap.add_argument("--seed", type=int, default=101)
    args = ap.parse_args(argv)
    opponents = ("random", "heuristic")
    a = np.concatenate(
        [turn_starts(o, args.rounds, args.seed + 100 * i) for i, o in enumerate(opponents)]
    )
    winner, blocks = design(a)
    n = len(winner)
    order = np.random.default_rng(0).permutation(n)
    train, test = order[: int(0.8 * n)], order[int(0.8 * n) :]

    def pick(rows):
        return winner[rows], [(ix[rows], None if m is None else m[rows]) for ix, m in blocks]

    size = sum(s for _, s in BLOCKS)
    res = minimize(
        loss,
        np.zeros(size),
        args=pick(train),
        jac=True,
        method="L-BFGS-B",
        options={"maxiter": 2000},
    )
    w_test, b_test = pick(test)
    u = utilities(res.x, b_test)
    p = np.exp(u - u.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    h = np.clip(a[test, 5:].reshape(len(test), N_SEATS, 8)[:, :, :6].sum(2), 1, None)
    inv = 1.0 / h
    print(f"{n:,} turn starts; test log loss: fitted {log_loss(p, w_test):.4f}, ", end="")
    print(f"inverse hand sizes {log_loss(inv / inv.sum(1, keepdims=True), w_test):.4f}, ", end="")
    print(f"uniform {np.log(N_SEATS):.4f}", file=sys.stdout)
    t = tables(res.x)
    np.set_printoptions(precision=3, suppress=True, floatmode="fixed", linewidth=88)
    for name, v in t.items():
        print(f"{name} = {np.array2string(np.round(v, 3), separator=', ')}")


if __name__ == "__main__":
    main()
