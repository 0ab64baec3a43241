"""sb3-contrib's MaskablePPO learning seat 0 of 4-player ``official`` UNO against 3
built-in ``random`` players on the shipped Gymnasium environment (``unosim/Uno-v0`` with
its defaults), then measured on fresh rounds.

Install the learner's extra from a clone (torch on CPU; see docs/environments.md):

    .venv/bin/pip install -e '.[learn]'
    .venv/bin/python examples/agents/train_maskable_ppo.py --minutes 10

It trains for ``--minutes`` of wall time (or ``--steps`` decisions) on 16 environments,
printing the win rate of its last 2,000 training rounds as it goes, saves the policy
(``--save``), and seats it at ``unosim.simulate`` (``unosim.env.seat.EnvPolicySeat``) at
seat 0 against 3 ``random`` on ``--rounds`` fresh rounds, printing the win rate with its
Wilson 95% interval (built-in ``random``'s own rate against 3 ``random`` is 0.26, the
first seat's advantage included; the built-in ``heuristic`` 0.33 of 4,000).

Measured on 2026-12-07, 2 cores shared with other jobs (load 1.0-2.4): 10 minutes of
wall (10.0 minutes of CPU, one torch thread) trained 2,131,984 decisions and the policy
won 0.325 [0.316, 0.335] of 10,000 fresh rounds (the command above). The learning curve
(training rounds, the policy still sampling): 0.23 at 50,000 decisions, 0.28 at 200,000,
0.30 at 450,000 (2 CPU-minutes), 0.30-0.33 from 1,000,000 on.

The hyper-parameters (``HYPER``, each a command-line option) are MaskablePPO's defaults
but for ``gae_lambda`` 0.5 and a few for speed. With ``gae_lambda`` 0.95 (the default)
the same run stays at 0.22-0.26 for its first 700,000 decisions and reaches 0.28-0.29
only after 1,300,000; MaskablePPO with all its defaults was at 0.225 [0.217, 0.233]
after 501,760 decisions. Where a learner starts: a uniform choice over the mask wins
0.20-0.22, below ``random``, as it passes after drawing a playable card, challenges Wild
Draw Fours and plays wild cards four times as often (one action per colour named).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np


# MaskablePPO's hyper-parameters, stated (learning_rate is its default). What makes it
# learn is ``gae_lambda`` 0.5 (default 0.95): the seat makes about 8 decisions a round
# and only the round's end pays (1 to the winner), so with 0.95 each decision's
# advantage is nearly the round's outcome, mostly the luck of the deal; 0.5 credits a
# decision mostly with the value at the seat's next decision, after the opponents' turns
# (far less noisy than the round's end). gamma 1 (an episode is short and undiscounted),
# 16 environments in one DummyVecEnv (one policy call for 16 decisions), minibatches of
# 256 and a small entropy bonus are for speed and steadiness.
HYPER = {
    "n_steps": 128,
    "batch_size": 256,
    "gamma": 1.0,
    "gae_lambda": 0.5,
    "ent_coef": 0.01,
    "learning_rate": 3e-4,
}
N_ENVS = 16


def make_env(seed: int, **options):
    """The shipped environment, with its defaults (or ``options``): seat 0 against 3
    ``random``."""
    import gymnasium

    import unosim.env  # noqa: F401  (registers the ids)

    env = gymnasium.make("unosim/Uno-v0", **options)
    env.reset(seed=seed)
    return env


def train(
    minutes: float,
    steps: int | None,
    seed: int,
    log_every: int,
    n_envs: int = N_ENVS,
    hyper: dict | None = None,
    **options,
):
    """Train for ``minutes`` of wall time (or ``steps`` decisions) on ``n_envs``
    environments; prints the win rate of the last 2,000 training rounds every
    ``log_every`` decisions. Returns the model and the decisions trained."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.env_util import make_vec_env

    import unosim.env  # noqa: F401  (registers the ids)

    # the first environment compiles the kernels (minutes, once); MaskablePPO reads each
    # one's action_masks() through the VecEnv's env_method
    venv = make_vec_env("unosim/Uno-v0", n_envs=n_envs, seed=seed, env_kwargs=options)
    model = MaskablePPO("MlpPolicy", venv, seed=seed, verbose=0, **(hyper or HYPER))
    cpu0, wall0 = time.process_time(), time.monotonic()
    deadline = wall0 + 60 * minutes
    total = steps if steps is not None else 10**12

    class Budget(BaseCallback):
        """Stops at the wall-time budget; prints the learning curve."""

        def __init__(self):
            super().__init__()
            self.won: list[bool] = []
            self.next = log_every

        def _on_step(self) -> bool:
            for info in self.locals["infos"]:
                if "episode" in info:
                    self.won.append(info["episode"]["r"] >= 1.0)  # rank and win: 1 = won
            if self.num_timesteps >= self.next:
                self.next += log_every
                last = self.won[-2000:]
                print(
                    f"  {self.num_timesteps:>9,} decisions {time.monotonic() - wall0:6.0f} s "
                    f"({time.process_time() - cpu0:5.0f} s CPU)  last {len(last):,} "
                    f"training rounds won {np.mean(last) if last else float('nan'):.3f}",
                    flush=True,
                )
            return steps is not None or time.monotonic() < deadline

    model.learn(total_timesteps=total, callback=Budget())
    cpu, wall = time.process_time() - cpu0, time.monotonic() - wall0
    print(
        f"trained {model.num_timesteps:,} decisions in {wall / 60:.1f} min "
        f"({cpu / 60:.1f} min of CPU)"
    )
    return model, model.num_timesteps


def measure(model, rounds: int, seed: int):
    """Win rate of the policy (its most likely legal action) at seat 0 against 3
    ``random`` on ``rounds`` fresh rounds of ``unosim.simulate`` (root ``seed``;
    training dealt rounds of other roots), with its Wilson 95% interval: the policy sits
    as an agent (``unosim.env.seat.EnvPolicySeat``), seeing what the environment shows
    it and left the decisions the environment makes for it."""
    import torch

    import unosim
    from unosim.env.seat import EnvPolicySeat
    from unosim.stats import wilson_ci

    net = model.policy

    def policy(obs, mask):
        # ``model.predict(obs, action_masks=mask, deterministic=True)``, without its
        # per-call conversions: the most likely legal action
        with torch.no_grad():
            latent = net.mlp_extractor.forward_actor(
                net.extract_features(torch.from_numpy(obs)[None])
            )
            logits = net.action_net(latent)[0].numpy()
        return int(np.argmax(np.where(mask, logits, -np.inf)))

    seats = [EnvPolicySeat(policy), "random", "random", "random"]
    df = unosim.simulate("official", rounds, 4, seats, seed=seed)
    wins = int((df["winner"] == 0).sum())
    low, high = wilson_ci(wins, rounds)
    return wins / rounds, low, high


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=10.0, help="wall time to train")
    ap.add_argument("--steps", type=int, default=None, help="decisions to train (instead)")
    ap.add_argument("--rounds", type=int, default=10_000, help="fresh rounds to measure")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1, help="torch threads")
    ap.add_argument("--save", default="results/maskable_ppo.zip")
    ap.add_argument("--load", default=None, help="measure a saved policy (no training)")
    ap.add_argument("--log-every", type=int, default=50_000)
    ap.add_argument("--n-envs", type=int, default=N_ENVS, help="environments in the VecEnv")
    for name, value in HYPER.items():
        ap.add_argument("--" + name.replace("_", "-"), type=type(value), default=value)
    ap.add_argument("--reward", default="win", help="the environment's reward (win, points, rank)")
    args = ap.parse_args()

    import torch

    torch.set_num_threads(args.threads)
    if args.load:
        from sb3_contrib import MaskablePPO

        model = MaskablePPO.load(args.load)
    else:
        hyper = {name: getattr(args, name) for name in HYPER}
        model, _ = train(
            args.minutes, args.steps, args.seed, args.log_every, args.n_envs, hyper,
            reward=args.reward,
        )
        if args.save:
            os.makedirs(os.path.dirname(args.save) or ".", exist_ok=True)
            model.save(args.save)
    t0 = time.process_time()
    rate, low, high = measure(model, args.rounds, seed=10_000 + args.seed)
    print(
        f"seat 0 against 3 random, {args.rounds:,} fresh rounds: won {rate:.3f} "
        f"[{low:.3f}, {high:.3f}] (built-in random: 0.26); measured in "
        f"{(time.process_time() - t0) / 60:.1f} min of CPU"
    )


if __name__ == "__main__":
    main()
