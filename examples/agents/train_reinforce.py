"""REINFORCE on a linear policy (numpy only) for seat 0 of 4-player ``official`` against 3
built-in ``random`` players, on ``unosim.env.BatchEnv``.

The policy scores each action a as ``theta[a] . x`` over a few features ``x`` of the
observation (a constant, the cards held per colour, its hand size, the next player's,
the pending penalty), takes a softmax over the legal actions and samples. After each
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
from unosim.kernel import outside as K

N_ACTIONS = 98


def features(obs: np.ndarray) -> np.ndarray:
    """float64[B, F] from the env's int64[B, 148] observations."""
    hand = obs[:, K.V_HAND:K.V_HAND + 59]
    per_colour = hand[:, :52].reshape(-1, 4, 13).sum(axis=2)
    n = obs[:, K.V_N]
    seat = obs[:, K.V_SEAT]
    nxt = (seat + obs[:, K.V_DIR]) % n
    sizes = obs[:, K.V_SIZES:K.V_SIZES + 10]
    next_size = sizes[np.arange(len(obs)), nxt]
    return np.column_stack([np.ones(len(obs)), per_colour / 7.0, hand[:, 52:].sum(1) / 2.0,
                            sizes[np.arange(len(obs)), seat] / 7.0, next_size / 7.0,
                            (next_size <= 2).astype(float), obs[:, K.V_PEND_DRAW] / 4.0])


def policy(theta, x, mask, rng):
    """Sampled actions int64[B] and probabilities float64[B, 98]."""
    logits = x @ theta.T
    logits = np.where(mask == 1, logits, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    u = rng.random((len(x), 1))
    a = (p.cumsum(axis=1) < u).sum(axis=1)
    a = np.minimum(a, N_ACTIONS - 1)
    bad = mask[np.arange(len(x)), a] == 0  # rounding at the top: the last legal action
    if bad.any():
        a[bad] = N_ACTIONS - 1 - np.argmax(mask[bad][:, ::-1], axis=1)
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
    f = features(obs).shape[1]
    theta = np.zeros((N_ACTIONS, f))
    trace = np.zeros((args.batch, N_ACTIONS, f))  # sum of grad log pi of each round
    baseline, rounds, curve = 0.25, 0, []
    w0, se0 = win_rate(theta, args.eval, seed=10_000)
    curve.append((0, w0, se0))
    print(f"rounds {0:>9,}: win rate {w0:.4f} +- {se0:.4f}")
    t0 = time.time()
    nxt = args.every
    while time.time() - t0 < args.minutes * 60:
        x = features(obs)
        a, p = policy(theta, x, mask, rng)
        g = -p
        g[np.arange(len(a)), a] += 1.0
        trace += g[:, :, None] * x[:, None, :]
        obs, mask, r, d = env.step(a)
        if d.any():
            adv = r[d] - baseline
            theta += args.lr * (adv[:, None, None] * trace[d]).mean(axis=0)
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
