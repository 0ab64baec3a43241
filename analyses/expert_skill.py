"""The expert's rows of the skill page: its win rate per rule set and kind of
opponent, paired with its rollout policy on the same deals, and its matches to 500.

The expert searches over the page's best candidate for that rule set and opponent (its
rollout policy, ``expert:policy=...``), so it is the best known strategy: its search keeps
the policy's move unless another is clearly better. Every deal is played with the expert
in each of the 4 seats in turn (seat advantage cancels), on deals from ``FIRST`` on, which
neither the tuning, the choice of candidates nor the other evaluations play. Matches to
500 are assembled from independent rounds (``unosim.sim.assembled``: exact in distribution,
because no strategy reads the scores).

The expert's win rate is estimated with its policy's as a control variate (a regression
estimator): ``rate = e - beta * (p - P)``, where ``e`` and ``p`` are the expert's and its
policy's mean per-deal win shares on the same deals, ``P`` the policy's rate on many other
deals and ``beta`` the slope of ``e`` on ``p`` over the deals. The two outcomes of a deal
correlate weakly (about 0.3: the games part at the expert's first move of its own), so
the plain paired difference ``P + (e - p)`` (``beta = 1``) is looser than the expert's
own rate, and the fitted slope only a little tighter.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from unosim.game.rules import PRESETS
from unosim.kernel.core import layout as L
from unosim.sim.assembled import SPAN, assembled_matches
from unosim.sim.simulate import make_job, run_block, thread_count

PLAYERS = 4
FIRST = 2**42  # first deal of the expert's games
BLOCK = 256  # deals per call of the kernel
Z95 = 1.959964  # two-sided 95%


def policy_file(folder: Path, name: str, weights: dict, params: dict) -> str:
    """Write a weighted player's strategy file (as ``unosim tune`` does) for the expert's
    ``policy=``; returns its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.toml"
    lines = ['strategy = "weighted"', "", "[weights]"]
    lines += [f"{k} = {float(v)!r}" for k, v in weights.items()]
    lines += ["", "[params]"] + [f"{k} = {float(v)!r}" for k, v in params.items()]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def per_deal(
    rules: str, me: str, opponent: str, deals: int, seed: int, first: int = FIRST
) -> np.ndarray:
    """Per deal: the share of the 4 seat rotations in which ``me`` wins against 3
    ``opponent`` players."""
    rs = PRESETS[rules]
    w = np.zeros(deals)
    for r in range(PLAYERS):
        labels = [opponent] * PLAYERS
        labels[r] = me
        job = make_job(rs, deals, PLAYERS, labels, seed)
        for lo in range(0, deals, BLOCK):
            hi = min(deals, lo + BLOCK)
            w[lo:hi] += run_block(job, first + lo, hi - lo)[:, L.C_WINNER] == r
    return w / PLAYERS


def expert_rate(
    rules: str, expert: str, policy: str, opponent: str, deals: int, seed: int, threads: int | None
) -> dict:
    """The expert's win rate against 3 ``opponent`` and its paired gain over its rollout
    ``policy`` on the same deals, each with a 95% half-width (from per-deal means), and
    per deal the rounds each won of the 4 rotations (``wins``, ``policy_wins``), which
    :func:`control_variate` reads."""
    with thread_count(threads):
        e = per_deal(rules, expert, opponent, deals, seed)
        p = per_deal(rules, policy, opponent, deals, seed)
    z = 1.959964 / np.sqrt(deals)
    d = e - p
    return {
        "rate": float(e.mean()),
        "half": float(z * e.std(ddof=1)),
        "policy": float(p.mean()),
        "gain": float(d.mean()),
        "gain_half": float(z * d.std(ddof=1)),
        "deals": deals,
        "wins": [int(v) for v in np.rint(PLAYERS * e)],
        "policy_wins": [int(v) for v in np.rint(PLAYERS * p)],
    }


def control_variate(x: dict, fresh: float, fresh_half: float) -> dict:
    """The expert's rate from :func:`expert_rate`'s per-deal wins and its policy's rate
    ``fresh`` (95% half-width ``fresh_half``) on other deals: ``rate = e - beta (p -
    fresh)`` with ``beta`` the least-squares slope of the expert's per-deal share on the
    policy's. Returns the rate, its gain over the policy (``rate - fresh``), ``beta``, the
    correlation of the two per-deal shares and each estimate's 95% half-width (residual
    variance over the deals, plus ``fresh``'s share)."""
    e = np.asarray(x["wins"], np.float64) / PLAYERS
    p = np.asarray(x["policy_wins"], np.float64) / PLAYERS
    n = e.size
    ec, pc = e - e.mean(), p - p.mean()
    vp, ve = float(pc @ pc), float(ec @ ec)
    beta = float(ec @ pc) / vp if vp > 0 else 0.0
    rho = float(ec @ pc) / np.sqrt(vp * ve) if vp > 0 and ve > 0 else 0.0
    resid = ec - beta * pc
    var = float(resid @ resid) / max(1, n - 2) / n  # of e - beta p over the deals
    sf = fresh_half / Z95  # standard error of ``fresh``
    rate = float(e.mean() - beta * (p.mean() - fresh))
    return {
        "est": rate,
        "est_half": float(Z95 * np.sqrt(var + (beta * sf) ** 2)),
        "gain": rate - fresh,
        "gain_half": float(Z95 * np.sqrt(var + ((1 - beta) * sf) ** 2)),
        "beta": beta,
        "rho": rho,
    }


def expert_matches(
    rules: str, expert: str, opponent: str, n_matches: int, seed: int, threads: int | None
) -> dict:
    """Matches to ``target_score`` of the expert against 3 ``opponent``, the expert in
    each of the 4 places a quarter of the time: matches won and played, mean rounds."""
    won = played = rounds = 0
    with thread_count(threads):
        for j in range(PLAYERS):
            players = [opponent] * PLAYERS
            players[j] = expert
            m = assembled_matches(
                rules,
                players,
                max(1, n_matches // PLAYERS),
                seed,
                first=FIRST + (j + 1) * PLAYERS * SPAN,
            )
            won += int((m["winner"] == j).sum())
            played += len(m)
            rounds += int(m["rounds"].sum())
    return {"won": won, "matches": played, "rounds": rounds / played}
