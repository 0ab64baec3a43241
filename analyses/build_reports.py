"""Build report pages in one process, or just the index.

Usage: python analyses/build_reports.py [NAME ...] [--scale S] [--out reports] [--results DIR]
       python analyses/build_reports.py --render-only [NAME ...] [--scale S] (`make render`)
       python analyses/build_reports.py --index [--out reports]

NAME is a page (seats, length, points, stacking, house-rules, editions, skill; default:
all). `make reports` builds only the pages whose inputs changed, each a make target
built in its own process, several at once (analyses/make_reports.py).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import common  # noqa: E402


def module_name(page: str) -> str:
    """The script of a page: ``house-rules`` -> ``house_rules``."""
    return page.replace("-", "_")


def build_all(
    names=common.ANALYSES,
    scale: float = 1.0,
    out: Path | None = None,
    results: Path | None = None,
    threads: int | None = None,
    quiet: bool = False,
    render_only: bool = False,
) -> list:
    """Build every page in ``names`` (and the index); returns the pages. ``render_only``:
    render each page's stored results again, simulating nothing."""
    pages = []
    for name in names:
        if name not in common.ANALYSES:
            raise SystemExit(f"unknown page {name!r} (pages: {', '.join(common.ANALYSES)})")
        mod = importlib.import_module(module_name(name))
        if render_only and not hasattr(mod, "render"):
            if not quiet:
                print(f"[{name}] no render step yet: not rendered", file=sys.stderr)
            continue
        pages.append(common.build(name, mod, scale, out, results, threads, quiet, render_only))
    return pages


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("names", nargs="*", help="pages to build (default: all)")
    ap.add_argument("--scale", type=float, default=common.scale_default())
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--results", type=Path, default=None)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--index", action="store_true", help="only rewrite the index")
    ap.add_argument(
        "--render-only",
        action="store_true",
        help="render the stored results of each page again, simulating nothing",
    )
    a = ap.parse_args()
    if a.index:
        from unosim.report.page import write_index

        write_index(a.out or common.ROOT / "reports", common.ANALYSES, common.INDEX_INTRO)
        return
    build_all(
        a.names or common.ANALYSES, a.scale, a.out, a.results, a.threads, a.quiet, a.render_only
    )


if __name__ == "__main__":
    main()
