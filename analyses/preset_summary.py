"""Every preset side by side: length, seat 0 advantage, points, stacks.

Usage: python analyses/preset_summary.py [--games N] [--players 4] [--seed S] [--out FILE]

Plays N rounds of each preset with `random` players and writes a Markdown table with
95% intervals and the provenance of every number.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

import unosim
from unosim.rules import PRESETS
from unosim.stats import mean_ci, wilson_ci


def summarise(name: str, games: int, players: int, seed: int) -> dict:
    t = time.perf_counter()
    df = unosim.simulate(name, games, players, "random", seed=seed)
    secs = time.perf_counter() - t
    done = ~df["truncated"].to_numpy()
    turns = mean_ci(df["turns"].to_numpy(float))
    pts = mean_ci(df["points"].to_numpy(float)[done])
    w0 = int((df["winner"] == 0).sum())
    ms = df["max_stack"].to_numpy()
    return {
        "preset": name, "hash": PRESETS[name].hash(), "games": games, "seconds": secs,
        "turns": turns, "median_turns": float(np.median(df["turns"])),
        "seat0": (w0 / games, *wilson_ci(w0, games)), "points": pts,
        "truncated": int((~done).sum()),
        "max_stack_mean": float(ms.mean()), "max_stack_q": np.quantile(ms, [0.5, 0.9, 0.99]),
        "max_stack_max": int(ms.max()),
        "p_stack_ge_8": (int((ms >= 8).sum()) / games, *wilson_ci(int((ms >= 8).sum()), games)),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", type=Path, default=Path("reports/preset-summary.md"))
    args = ap.parse_args()
    rows = [summarise(name, args.games, args.players, args.seed) for name in PRESETS]
    lines = [
        "# Presets side by side",
        "",
        f"{args.games:,} rounds per preset, {args.players} `random` players, seed "
        f"{args.seed}, unosim {unosim.__version__}. Intervals are 95% (t for means, "
        "Wilson for rates). Made by `python analyses/preset_summary.py "
        f"--games {args.games} --players {args.players} --seed {args.seed}`.",
        "",
        "| preset | rules hash | mean turns | median | seat 0 wins | mean points | "
        "max_stack mean | P(max_stack >= 8) | truncated |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        t, s0, p, ps = r["turns"], r["seat0"], r["points"], r["p_stack_ge_8"]
        lines.append(
            f"| {r['preset']} | `{r['hash']}` | {t[0]:.2f} [{t[1]:.2f}, {t[2]:.2f}] | "
            f"{r['median_turns']:g} | {s0[0]:.4f} [{s0[1]:.4f}, {s0[2]:.4f}] | "
            f"{p[0]:.2f} [{p[1]:.2f}, {p[2]:.2f}] | {r['max_stack_mean']:.3f} | "
            f"{ps[0]:.5f} [{ps[1]:.5f}, {ps[2]:.5f}] | {r['truncated']} |")
    lines += ["", "max_stack quantiles (50%, 90%, 99%) and maximum:", ""]
    for r in rows:
        q = r["max_stack_q"]
        lines.append(f"- {r['preset']}: {q[0]:g}, {q[1]:g}, {q[2]:g}; max {r['max_stack_max']}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
