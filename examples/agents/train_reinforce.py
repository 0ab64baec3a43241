"""REINFORCE on a linear policy (numpy only) for seat 0 of 4-player ``official`` against 3
built-in ``random`` players, on ``unosim.env.BatchEnv``.

The policy scores each action a as ``theta . x(a)`` over a few features of the action in
the observed state (its type, the share of the hand in the colour it plays or names,
whether it hits a next player about to go out), takes a softmax over the legal actions
and samples. After each
round the seat's return (1 for a win, else 0) minus a running baseline scales the sum of
that round's ``grad log pi``. Every ``--every`` rounds it measures the policy's win rate
on fresh rounds; the learning curve goes to ``--figure``.

    .venv/bin/python examples/agents/train_reinforce.py --minutes 3
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from unosim.env import BatchEnv
from unosim.kernel.outside import protocol as K

# per action: the card it plays (-1: none) and the colour it plays or names (-1: none);
# the declared cards' actions (98 and up) are never legal in ``official``
N_A = K.N_ACTIONS
CARD = np.array([a if a < 52 else 52 + (a - 52) // 4 if a < 80 else -1 for a in range(N_A)])
COLOUR = np.array([a // 13 if a < 52 else (a - 52) % 4 if a < 80 else
                   a - 83 if 83 <= a < 87 else -1 for a in range(N_A)])
RANK = np.where((CARD >= 0) & (CARD < 52), CARD % 13, -1)
KIND = {"play": CARD >= 0, "draw": np.arange(N_A) == 80, "pass": np.arange(N_A) == 81,
        "challenge": np.arange(N_A) == 82, "uno": np.arange(N_A) == 97,
        "wild": CARD >= 52, "action": RANK >= 10, "name": (COLOUR >= 0) & (CARD < 0)}
ATTACK = ((RANK == 10) | (RANK == 12) | (CARD == 53)).astype(float)
N_F = len(KIND) + 3


def features(obs: np.ndarray) -> np.ndarray:
    """float64[B, N_A, F]: features of each action in each game (``obs``: the env's
    int64[B, K.N_V]): its type (play, draw, pass, challenge, UNO, wild, action card, a
    colour named), the share of the hand in the colour it plays or names, whether it
    hits a next player on two cards or fewer, and one for every action."""
    b = len(obs)
    hand = obs[:, K.V_HAND:K.V_HAND + 59]
    held = hand[:, :52].reshape(b, 4, 13).sum(axis=2)
    size = np.maximum(1, hand.sum(axis=1))
    seat = obs[:, K.V_SEAT]
    nxt = (seat + obs[:, K.V_DIR]) % obs[:, K.V_N]
    next_size = obs[np.arange(b), K.V_SIZES + nxt]
    x = np.zeros((b, N_A, N_F))
    for i, m in enumerate(KIND.values()):
        x[:, :, i] = m
    share = held[:, np.maximum(COLOUR, 0)] / size[:, None]
    x[:, :, len(KIND)] = np.where(COLOUR >= 0, share, 0.0)
    x[:, :, len(KIND) + 1] = ATTACK[None, :] * (next_size <= 2)[:, None]
    x[:, :, len(KIND) + 2] = 1.0
    return x


def policy(theta, x, mask, rng):
    """Sampled actions int64[B] and probabilities float64[B, N_A]."""
    logits = x @ theta
    logits = np.where(mask == 1, logits, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    u = rng.random((len(x), 1))
    a = (p.cumsum(axis=1) < u).sum(axis=1)
    a = np.minimum(a, N_A - 1)
    bad = mask[np.arange(len(x)), a] == 0  # rounding at the top: the last legal action
    if bad.any():
        a[bad] = N_A - 1 - np.argmax(mask[bad][:, ::-1], axis=1)
    return a, p


def win_rate(theta, rounds, seed, b=512):
    """Win rate of the policy on ``rounds`` fresh rounds (and its standard error)."""
    env = BatchEnv("official", 4, b=b, seed=seed)
    obs, mask = env.reset()
    rng = np.random.default_rng(seed)
    wins, done = 0.0, 0
    while done < rounds:
        a, _ = policy(theta, features(obs), mask, rng)
        obs, mask, r, d = env.step(a)
        wins += r[d].sum()
        done += int(d.sum())
    w = wins / done
    return w, np.sqrt(w * (1 - w) / done)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--minutes", type=float, default=3.0)
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--every", type=int, default=20_000, help="rounds between measures")
    ap.add_argument("--eval", type=int, default=10_000, help="rounds per measure")
    ap.add_argument("--figure", default="examples/agents/reinforce_curve.png")
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    env = BatchEnv("official", 4, b=args.batch, seed=1)
    obs, mask = env.reset()
    theta = np.zeros(N_F)
    trace = np.zeros((args.batch, N_F))  # sum of grad log pi over each round
    baseline, rounds, curve = 0.25, 0, []
    w0, se0 = win_rate(theta, args.eval, seed=10_000)
    curve.append((0, w0, se0))
    print(f"rounds {0:>9,}: win rate {w0:.4f} +- {se0:.4f}")
    t0 = time.time()
    nxt = args.every
    while time.time() - t0 < args.minutes * 60:
        x = features(obs)
        a, p = policy(theta, x, mask, rng)
        trace += x[np.arange(len(a)), a] - np.einsum("ba,baf->bf", p, x)
        obs, mask, r, d = env.step(a)
        if d.any():
            adv = r[d] - baseline
            theta += args.lr * (adv[:, None] * trace[d]).mean(axis=0)
            trace[d] = 0.0
            baseline += 0.001 * (r[d].mean() - baseline) * d.sum()
            rounds += int(d.sum())
            if rounds >= nxt:
                nxt += args.every
                w, se = win_rate(theta, args.eval, seed=10_000 + rounds)
                curve.append((rounds, w, se))
                print(f"rounds {rounds:>9,}: win rate {w:.4f} +- {se:.4f}  "
                      f"({time.time() - t0:.0f} s)")
    w, se = win_rate(theta, 4 * args.eval, seed=99)
    print(f"after {rounds:,} rounds in {time.time() - t0:.0f} s: win rate {w:.4f} +- {se:.4f}"
          f" (untrained {w0:.4f}; the built-in random at seat 0 ~0.26)")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    c = np.array(curve)
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.errorbar(c[:, 0], c[:, 1], yerr=1.96 * c[:, 2], marker="o", capsize=3)
    ax.axhline(0.25, color="grey", ls="--", lw=1)
    ax.text(c[-1, 0], 0.25, " 1/4", va="bottom", ha="right", color="grey")
    ax.set_xlabel("training rounds")
    ax.set_ylabel("seat 0 win rate (95% CI)")
    ax.set_title("REINFORCE, linear policy, against 3 random players")
    fig.tight_layout()
    fig.savefig(args.figure, dpi=100, metadata={"Software": None})
    print(f"figure: {args.figure}")


if __name__ == "__main__":
    main()
