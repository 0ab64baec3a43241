"""`make reports`: bring every page up to date, one `make` target at a time, with an
overall progress line and a closing line.

    python analyses/make_reports.py [--make make] [--scale 1]

Each page is its own make target (``reports/NAME.md``), so a page whose inputs did not
change is not rebuilt. Between pages this prints how many are done, the time so far and
the time left, estimated from the last build of each page at this scale (kept in
``results/reports/times.json``), or from typical times on 2 cores when there is none.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import common  # noqa: E402

# seconds per page at SCALE 1 on 2 cores, as last measured (a first build's estimate)
TYPICAL = {
    "seats": 33,
    "length": 106,
    "points": 22,
    "stacking": 11,
    "house-rules": 62,
    "editions": 20,
    "skill": 440,
}
TIMES = ROOT / "results" / "reports" / "times.json"


def load_times(scale: str) -> dict[str, float]:
    """Seconds each page took at its last build at ``scale`` (typical ones where none)."""
    out = {k: v * float(scale) for k, v in TYPICAL.items()}
    try:
        saved = json.loads(TIMES.read_text())
        out.update({k: float(v) for k, v in saved.get(scale, {}).items() if k in out})
    except (OSError, ValueError, AttributeError, TypeError):
        pass
    return out


def save_time(scale: str, page: str, seconds: float) -> None:
    try:
        saved = json.loads(TIMES.read_text())
        if not isinstance(saved, dict):
            saved = {}
    except (OSError, ValueError):
        saved = {}
    saved.setdefault(scale, {})[page] = round(seconds, 1)
    TIMES.parent.mkdir(parents=True, exist_ok=True)
    tmp = TIMES.with_suffix(".tmp")
    tmp.write_text(json.dumps(saved, indent=1))
    os.replace(tmp, TIMES)


def minutes(s: float) -> str:
    return f"{s:.0f} s" if s < 90 else f"{s / 60:.1f} min"


def build_page(make: str, scale: str, page: str) -> bool:
    """Run ``make reports/PAGE.md``, its output passed through; True if it rewrote the
    page. Raises SystemExit with make's status if it fails."""
    md = ROOT / "reports" / f"{page}.md"
    before = md.stat().st_mtime_ns if md.exists() else None
    cmd = [make, "--no-print-directory", f"SCALE={scale}", f"reports/{page}.md"]
    status = subprocess.call(cmd, cwd=ROOT)
    if status != 0:
        raise SystemExit(f"reports: reports/{page}.md failed (make exit {status})")
    return md.exists() and md.stat().st_mtime_ns != before


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--make", default="make")
    ap.add_argument("--scale", default="1", help="SCALE, passed to make as given")
    a = ap.parse_args()
    pages = list(common.ANALYSES)
    est = load_times(a.scale)
    t0 = time.monotonic()
    rebuilt: list[str] = []
    for i, page in enumerate(pages):
        t = time.monotonic()
        if build_page(a.make, a.scale, page):
            took = time.monotonic() - t
            rebuilt.append(page)
            save_time(a.scale, page, took)
        left = sum(est[p] for p in pages[i + 1 :])
        print(
            f"reports: {i + 1} of {len(pages)} pages up to date ({page}), "
            f"{minutes(time.monotonic() - t0)} so far"
            + (f", at most about {minutes(left)} left" if left else ""),
            flush=True,
        )
    from unosim.report.page import write_index

    out = ROOT / "reports"
    write_index(out, common.ANALYSES, common.INDEX_INTRO)
    print(
        f"reports: {len(pages)} pages in {out.relative_to(ROOT)}/ "
        f"({len(rebuilt) or 'none'} rebuilt, the rest up to date); open "
        f"{(out / 'index.html').relative_to(ROOT)} or {(out / 'index.md').relative_to(ROOT)}; "
        f"took {minutes(time.monotonic() - t0)}",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
