"""What the page scripts share: the list of pages, the index's words, and the driver.

A page script defines ``compute(ctx) -> Results`` (simulations from the cache, reduced to
frames and numbers: :mod:`unosim.report.cache`) and ``render(results) -> Page`` (words
and figures: :mod:`unosim.report.page`, :mod:`unosim.report.words`,
:mod:`unosim.report.figures`), and ends with
``main(NAME, compute, render, __doc__)``.
A full build computes, stores the Results beside the simulations and renders; with
``--render-only`` the stored Results are rendered again and nothing is simulated (`make
render`). A script that still has one ``build(ctx) -> Page`` is built in one step.

The library's names are re-exported here for the scripts written before the split.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

from unosim.report.cache import (  # noqa: F401  (re-exported for the page scripts)
    BASE_HEURISTIC,
    BASE_MAIN,
    BASE_OTHER,
    BASE_RUNAWAY,
    MIN_GAMES,
    PAGE_BLOCK,
    PLAYER_COUNTS,
    ROUND_COLUMNS,
    RUNAWAY,
    SEED,
    Context,
    Results,
    Run,
    cache_key,
    fingerprint_files,
    load_results,
    standard_games,
)
from unosim.report.figures import (  # noqa: F401
    forest_axis,
    hist_panels,
    intervals,
    plain_log,
    player_axis,
    symlog_percent,
)
from unosim.report.numbers import describe, half, leaders, rate, rel  # noqa: F401
from unosim.report.page import Page, write_index
from unosim.report.words import (  # noqa: F401
    by_players_table,
    change,
    colour,
    names_and,
    noticeable,
    players,
    players_fig,
    pp_change,
    shown,
    shown_fig,
)

ROOT = Path(__file__).resolve().parent.parent
ANALYSES = ("seats", "length", "points", "stacking", "house-rules", "editions", "skill")
INDEX_INTRO = (
    "One page per question, built by `make reports` from simulations run "
    "for it; each opens with its answer in plain words and its main figure, "
    "and every number comes from the results, with its 95% interval in the "
    "tables below. `SCALE=10 make reports` runs ten times the games."
)
# realistic players beside random ones: the `table` model when this version
# has it (see realistic())
REALISTIC = "table"

# the names the scripts written before the split use
strategy_colour = colour
forest = forest_axis
by_players = by_players_table
_fingerprint_files = fingerprint_files
_cache_key = cache_key


def realistic() -> tuple[str, ...]:
    """The realistic player model(s) this version provides: ``("table",)`` or ``()``."""
    from unosim.players.strategies import STRATEGIES

    return (REALISTIC,) if REALISTIC in STRATEGIES else ()


def scale_default() -> float:
    text = os.environ.get("SCALE", "1")
    try:
        return float(text)
    except ValueError:
        raise SystemExit(f"SCALE must be a number, got {text!r}") from None


def build(
    name: str,
    script,
    scale: float = 1.0,
    out: Path | None = None,
    results: Path | None = None,
    threads: int | None = None,
    quiet: bool = False,
    render_only: bool = False,
) -> Page:
    """Build page ``name`` from its ``script`` (a module with ``compute`` and ``render``,
    or with ``build``), write it and refresh the index; returns the written page.
    ``render_only``: render the stored Results (``SystemExit`` if there are none)."""
    ctx = Context(
        name,
        scale,
        Path(out) if out else ROOT / "reports",
        Path(results) if results else ROOT / "results" / "reports",
        threads=threads,
        quiet=quiet,
    )
    t0 = time.perf_counter()
    if hasattr(script, "render"):
        if render_only:
            try:
                res = load_results(ctx.results, name, scale, ctx.seed)
            except (OSError, ValueError) as e:
                raise SystemExit(f"{name}: {e}") from None
        else:
            res = script.compute(ctx)
            res.save(ctx.results)
        page = script.render(res)
    elif render_only:
        raise SystemExit(f"{name}: this page has no render step; build it in full")
    else:
        page = script.build(ctx)
    page.write(ctx.out)
    write_index(ctx.out, ANALYSES, INDEX_INTRO)
    ctx.log(f"wrote {ctx.out / (name + '.md')} and .html in {time.perf_counter() - t0:.0f} s")
    return page


def main(name: str, *steps: Callable | str | None) -> None:
    """The command line of a page script: ``main(NAME, compute, render, __doc__)`` (or
    ``main(NAME, build, __doc__)``); the steps are read from the script itself."""
    doc = steps[-1] if steps and isinstance(steps[-1], str) else None
    ap = argparse.ArgumentParser(description=doc)
    ap.add_argument(
        "--scale",
        type=float,
        default=scale_default(),
        help="games relative to the default (env SCALE, default 1)",
    )
    ap.add_argument("--out", type=Path, default=None, help="reports folder (reports/)")
    ap.add_argument(
        "--results", type=Path, default=None, help="cache of simulations (results/reports/)"
    )
    ap.add_argument("--threads", type=int, default=None, help="numba threads")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument(
        "--render-only",
        action="store_true",
        help="render the stored results again (after a change of words or figures)",
    )
    a = ap.parse_args()
    if a.scale <= 0:
        raise SystemExit("--scale must be positive")
    script = sys.modules["__main__"]
    build(name, script, a.scale, a.out, a.results, a.threads, a.quiet, a.render_only)
