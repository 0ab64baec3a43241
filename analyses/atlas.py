"""The rules atlas: simulate the grid (resumable), then write reports/atlas.html.

    python analyses/atlas.py [--scale 1] [--players 2-10] [--strategies random,table]
                             [--parts results/atlas] [--out reports] [--threads N]
                             [--page-only]

Each group (one kind of players, one deck, one player count) is simulated cell by cell
with the same seed and game indices in every cell (common random numbers), and written
to ``<parts>/<strategy>-<deck>-<n>.json`` when complete; a rerun skips the groups whose
part matches (same rounds, seed and kernel), so an interrupted build resumes. At
``--scale 1``: 20,000 rounds per cell for random players, 2,000 for table players.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from unosim._version import __version__  # noqa: E402
from unosim.report import atlas_grid as G  # noqa: E402
from unosim.versions import KERNEL_BEHAVIOUR_VERSION, RNG_VERSION  # noqa: E402


def group_name(strategy: str, deck: int, n: int) -> str:
    return f"{strategy}-{G.DECKS[deck][0]}-{n}"


def part_meta(strategy: str, rounds: int) -> dict:
    return {
        "rounds": rounds,
        "seed": G.SEED,
        "strategy": strategy,
        "unosim_version": __version__,
        "kernel_behaviour": KERNEL_BEHAVIOUR_VERSION,
        "rng": RNG_VERSION,
        "fields": list(G.FIELDS),
    }


def read_part(path: Path, meta: dict) -> dict | None:
    """The part at ``path`` if it is complete and made as ``meta`` says, else None."""
    try:
        part = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return part if part.get("meta") == meta else None


def build_group(strategy: str, deck: int, n: int, rounds: int, threads: int | None) -> dict:
    return {
        key: G.run_cell(key, n, strategy, rounds, threads) for key in G.sim_keys(deck, strategy)
    }


def chaos_rounds(scale: float) -> int:
    return max(100, round(1000 * scale))


def chaos_meta(strategies: list[str], players: list[int], scale: float) -> dict:
    return {**part_meta("chaos", chaos_rounds(scale)), "strategies": strategies, "players": players}


def chaos_build(parts: Path, strategies: list[str], players: list[int], scale: float) -> None:
    """Seven-Zero's turn-by-turn measures (``atlas_grid.chaos``), official deck, with
    and without Seven-Zero, into ``<parts>/chaos.json``."""
    rounds = chaos_rounds(scale)
    path, meta = parts / "chaos.json", chaos_meta(strategies, players, scale)
    if read_part(path, meta) is not None:
        return
    t = time.monotonic()
    off, on = (G.parse_choice(r)[1] for r in ("official", "official+seven_zero=true"))
    cells = {
        s: {
            n: {"off": G.chaos(off, n, s, rounds), "on": G.chaos(on, n, s, rounds)} for n in players
        }
        for s in strategies
    }
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"meta": meta, "cells": cells}))
    os.replace(tmp, path)
    print(
        f"atlas: Seven-Zero's lead changes and swings, {rounds:,} traced rounds a cell, "
        f"in {time.monotonic() - t:.0f} s",
        flush=True,
    )


def parse_players(text: str) -> list[int]:
    out = []
    for item in text.split(","):
        lo, _, hi = item.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    bad = [n for n in out if n not in G.PLAYERS]
    if bad:
        raise SystemExit(f"atlas: players must be 2 to 10, got {bad[0]}")
    return sorted(set(out))


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--scale",
        type=float,
        default=1.0,
        help="rounds per cell times this (1: 20,000 random, 2,000 table)",
    )
    ap.add_argument("--players", default="2-10")
    ap.add_argument("--strategies", default="random,table")
    ap.add_argument("--parts", type=Path, default=ROOT / "results" / "atlas")
    ap.add_argument("--out", type=Path, default=ROOT / "reports")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument(
        "--page-only", action="store_true", help="write the page from the parts already built"
    )
    ap.add_argument(
        "--rewrite-page",
        action="store_true",
        help="write atlas.html again from its own configuration (after a change to the "
        "page's text or script): no parts needed, the data files stay",
    )
    a = ap.parse_args()
    if a.rewrite_page:
        from unosim.report.atlas_page import rewrite_page

        print(f"atlas: wrote {rewrite_page(a.out)}")
        return 0
    if not 0 < a.scale <= 100:
        print("atlas: --scale must be above 0 and at most 100", file=sys.stderr)
        return 2
    players = parse_players(a.players)
    strategies = [s.strip() for s in a.strategies.split(",")]
    if any(s not in G.STRATEGIES for s in strategies):
        print(f"atlas: strategies are {', '.join(G.STRATEGIES)}", file=sys.stderr)
        return 2
    rounds = {s: max(1, round(G.ROUNDS[s] * a.scale)) for s in strategies}
    groups = [(s, d, n) for s in strategies for n in players for d in range(len(G.DECKS))]
    a.parts.mkdir(parents=True, exist_ok=True)
    if not a.page_only:
        # cost of a group ~ cells x rounds x players: the progress line weighs by it
        weight = {g: len(G.sim_keys(g[1], g[0])) * rounds[g[0]] * g[2] for g in groups}
        total, done, t0 = sum(weight.values()), 0, time.monotonic()
        fresh = 0
        for g in groups:
            s, d, n = g
            path = a.parts / f"{group_name(*g)}.json"
            meta = part_meta(s, rounds[s])
            if read_part(path, meta) is None:
                t = time.monotonic()
                cells = build_group(s, d, n, rounds[s], a.threads)
                tmp = path.with_suffix(".tmp")
                tmp.write_text(
                    json.dumps({"meta": meta, "players": n, "cells": cells}, separators=(",", ":"))
                )
                os.replace(tmp, path)
                fresh += weight[g]
                took = time.monotonic() - t
                print(
                    f"atlas: {group_name(*g)}: {len(cells)} cells x {rounds[s]:,} rounds "
                    f"in {took:.1f} s",
                    flush=True,
                )
            done += weight[g]
            el = time.monotonic() - t0
            eta = el / fresh * (total - done) if fresh else 0.0
            print(
                f"atlas: {done / total:6.1%} done, {el / 60:.1f} min, "
                f"about {eta / 60:.1f} min left",
                flush=True,
            )
        chaos_build(a.parts, strategies, players, a.scale)
    from unosim.report.atlas_page import write_atlas

    chaos = read_part(a.parts / "chaos.json", chaos_meta(strategies, players, a.scale))
    page = write_atlas(
        a.out,
        {s: rounds[s] for s in strategies},
        lambda s, d, n: read_part(a.parts / f"{group_name(s, d, n)}.json", part_meta(s, rounds[s])),
        chaos["cells"] if chaos else None,
    )
    print(f"atlas: wrote {page}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
