"""Render HTML pages in headless Chromium and check them: `make check-pages`.

Usage: python tools/check_pages.py [PAGE.html ...] [--sample] [--first-screen-figure]
                                   [--screens results/screens]

Default pages: every ``reports/*.html``; ``--sample`` also builds a small ``unosim
report`` page (into ``results/check-pages/``) and checks it. Each page is opened at
1280x800 from its file (no server); the check fails if the page throws a JavaScript
error, logs an error, requests anything from the network, or shows an image that does
not load (decode fails or has no size). A screenshot of the first screen (what a reader
sees before scrolling) goes to ``<screens>/<page>.png`` (for ``DIR/report.html``, a
``unosim report`` page: ``<screens>/DIR.png``).

``--atlas`` also checks the rules atlas (``reports/atlas.html``) as a reader uses it:
it clicks controls, opens permalinks, and checks after each step that the answer changed
and that every ``data-metric`` number equals the one computed here from the atlas's data
files; each step's first screen goes to ``<screens>/atlas-<step>.png``.

Chromium is driven through the DevTools protocol over a pipe
(``--remote-debugging-pipe``: JSON messages separated by NUL bytes on file
descriptors 3 and 4), so nothing listens on a port.
"""

from __future__ import annotations

import argparse
import base64
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WIDTH, HEIGHT = 1280, 800
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--hide-scrollbars",
    "--mute-audio",
    "--remote-debugging-pipe",
    f"--window-size={WIDTH},{HEIGHT}",
]

# every image decoded, with a size; the first screen's content for the record
IMAGES_JS = """
Promise.all(Array.from(document.images).map(img =>
  img.decode().then(() => [img.alt.slice(0, 60), img.naturalWidth, img.naturalHeight, 1],
                    () => [img.alt.slice(0, 60), img.naturalWidth, img.naturalHeight, 0])))
"""
FIRST_SCREEN_JS = f"""
(() => {{
  const seen = el => {{ const r = el.getBoundingClientRect();
                        return r.top < {HEIGHT} && r.bottom > 0 && r.height > 0; }};
  const figs = Array.from(document.querySelectorAll('img, svg.marks'));
  return {{images: figs.filter(seen).length,
           headings: Array.from(document.querySelectorAll('h1,h2,h3')).filter(seen)
                     .map(h => h.textContent.trim().slice(0, 80)),
           height: document.documentElement.scrollHeight}};
}})()
"""


class Browser:
    """A headless Chromium driven over the DevTools pipe."""

    def __init__(self, binary: str):
        self.profile = tempfile.mkdtemp(prefix="unosim-chromium-")
        to_child_r, self._w = os.pipe()
        self._r, from_child_w = os.pipe()
        # the child finds the pipe on descriptors 3 (commands in) and 4 (messages out)
        self.proc = subprocess.Popen(
            [binary, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            pass_fds=(3, 4),
            preexec_fn=lambda: (os.dup2(to_child_r, 3), os.dup2(from_child_w, 4)),
        )
        os.close(to_child_r)
        os.close(from_child_w)
        self._buf = b""
        self._id = 0
        self.events: list[dict] = []

    def _send(self, method: str, params: dict | None = None, session: str | None = None):
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        return self._id

    def _read(self, timeout: float) -> dict:
        import select

        while b"\0" not in self._buf:
            ready, _, _ = select.select([self._r], [], [], timeout)
            if not ready:
                raise TimeoutError("no answer from chromium")
            chunk = os.read(self._r, 1 << 20)
            if not chunk:
                err = self.proc.stderr.read().decode(errors="replace")[-800:]
                raise RuntimeError(f"chromium exited: {err}")
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def call(
        self,
        method: str,
        params: dict | None = None,
        session: str | None = None,
        timeout: float = 30.0,
    ) -> dict:
        """Send a command and wait for its answer (events meanwhile are kept)."""
        i = self._send(method, params, session)
        end = time.monotonic() + timeout
        while True:
            msg = self._read(max(0.1, end - time.monotonic()))
            if msg.get("id") == i:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            self.events.append(msg)

    def wait_event(self, method: str, timeout: float = 30.0) -> dict:
        end = time.monotonic() + timeout
        for k, e in enumerate(self.events):
            if e.get("method") == method:
                return self.events.pop(k)
        while True:
            msg = self._read(max(0.1, end - time.monotonic()))
            if msg.get("method") == method:
                return msg
            self.events.append(msg)

    def close(self) -> None:
        try:
            self._send("Browser.close")
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._r, self._w):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)


def event_problems(events: list[dict]) -> list[str]:
    """Script errors, console errors, network requests and failed loads among ``events``."""
    problems = []
    for e in events:
        m, p = e.get("method"), e.get("params", {})
        if m == "Runtime.exceptionThrown":
            d = p["exceptionDetails"]
            problems.append(
                f"script error: {d.get('text')} "
                f"{d.get('exception', {}).get('description', '')[:200]}"
            )
        elif m == "Log.entryAdded" and p["entry"]["level"] == "error":
            problems.append(f"console error: {p['entry']['text'][:200]}")
        elif m == "Runtime.consoleAPICalled" and p.get("type") == "error":
            problems.append("console.error called")
        elif m == "Network.requestWillBeSent":
            url = p["request"]["url"]
            if url.startswith(("http:", "https:", "ws:", "wss:")):
                problems.append(f"network request: {url[:120]}")
        elif m == "Network.loadingFailed" and not p.get("canceled"):
            problems.append(f"failed to load: {p.get('errorText')}")
    return problems


def check_page(br: Browser, page: Path, screen: Path, first_figure: bool = False) -> list[str]:
    """Open ``page``, return its problems (empty: fine), save the first screen; with
    ``first_figure``, a first screen without an image is a problem too."""
    target = br.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    sid = br.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log", "Network"):
        br.call(f"{domain}.enable", session=sid)
    br.call(
        "Emulation.setDeviceMetricsOverride",
        {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False},
        session=sid,
    )
    br.events.clear()
    nav = br.call("Page.navigate", {"url": page.resolve().as_uri()}, session=sid)
    problems = []
    if nav.get("errorText"):
        problems.append(f"navigation failed: {nav['errorText']}")
    br.wait_event("Page.loadEventFired", timeout=60)
    res = br.call(
        "Runtime.evaluate",
        {"expression": IMAGES_JS, "awaitPromise": True, "returnByValue": True},
        session=sid,
        timeout=60,
    )
    images = res["result"].get("value", [])
    for alt, w, h, ok in images:
        if not ok or w == 0 or h == 0:
            problems.append(f"image does not load: {alt!r}")
    first = br.call(
        "Runtime.evaluate", {"expression": FIRST_SCREEN_JS, "returnByValue": True}, session=sid
    )["result"]["value"]
    if first_figure and first["images"] == 0:
        problems.append("no figure on the first screen")
    shot = br.call("Page.captureScreenshot", {"format": "png"}, session=sid, timeout=60)
    screen.parent.mkdir(parents=True, exist_ok=True)
    screen.write_bytes(base64.b64decode(shot["data"]))
    problems += event_problems(br.events)
    br.call("Target.closeTarget", {"targetId": target})
    br.events.clear()
    print(
        f"  {page.relative_to(ROOT) if page.is_relative_to(ROOT) else page}: "
        f"{len(images)} images, {first['images']} on the first screen "
        f"(headings: {'; '.join(first['headings'][:4]) or 'none'}), "
        f"{first['height']} px tall -> "
        f"{screen.relative_to(ROOT) if screen.is_relative_to(ROOT) else screen}"
        + ("" if not problems else f"  PROBLEMS: {len(problems)}"),
        flush=True,
    )
    return problems


def open_tab(br: Browser) -> tuple[str, str]:
    """A new tab at WIDTHxHEIGHT with the events that ``event_problems`` reads."""
    target = br.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    sid = br.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log", "Network"):
        br.call(f"{domain}.enable", session=sid)
    br.call(
        "Emulation.setDeviceMetricsOverride",
        {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False},
        session=sid,
    )
    return target, sid


def evaluate(br: Browser, sid: str, expression: str):
    res = br.call(
        "Runtime.evaluate",
        {"expression": expression, "returnByValue": True, "awaitPromise": True},
        session=sid,
        timeout=60,
    )
    if "exceptionDetails" in res:
        d = res["exceptionDetails"]
        raise RuntimeError(
            f"evaluate: {d.get('text')} {d.get('exception', {}).get('description', '')[:200]}"
        )
    return res["result"].get("value")


def screenshot(br: Browser, sid: str, path: Path) -> None:
    shot = br.call("Page.captureScreenshot", {"format": "png"}, session=sid, timeout=60)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(base64.b64decode(shot["data"]))


# -------------------------------------------------------------------- the rules atlas

ATLAS_METRICS = (
    "turns_mean",
    "minutes_mean",
    "seconds_per_turn",
    "turns_median",
    "turns_p90",
    "seat0_rate",
    "points_mean",
    "cards_drawn_mean",
    "stack8_share",
    "truncated_share",
)
# clicks (an element id) and permalinks (a fragment); each step must change the answer
ATLAS_STEPS = (
    ("open", None),
    ("jump-in", "#sw-jump_in-1"),
    ("players-3", "#players-3"),
    ("table", "#strategies-table"),
    ("stacking", "#sw-stacking-2"),
    ("copag", "#edition-copag"),
    (
        "link-seven-zero",
        "rules=official+seven_zero=true,jump_in=true&players=3&strategies=random&q=seven_zero",
    ),
    (
        "link-swap",
        "rules=official-2018+blank_card=swap_hands,stacking=progressive,"
        "draw_rule=until_playable&players=6&strategies=table",
    ),
    ("link-editions", "rules=official&players=4&strategies=random&q=editions"),
    ("link-portugal", "rules=portugal+uno_penalty=2&players=10&strategies=table"),
)
READ_METRICS_JS = """
(() => { const out = {};
  if (!document.body || !document.getElementById('answer')) return {metrics: out, rendered: ''};
  for (const e of document.querySelectorAll('#answer [data-metric]'))
    out[e.dataset.metric] = Number(e.dataset.value);
  return {metrics: out, rendered: document.body.dataset.rendered || '',
          ms: Number(document.body.dataset.renderMs || 'NaN'),
          error: (document.getElementById('link-error') || {}).textContent || '',
          edition: Array.from(document.querySelectorAll('#question [data-edition]'))
                   .map(e => e.dataset.edition)}; })()
"""


def atlas_data(page: Path) -> dict[str, dict]:
    """The atlas's data files, as the page reads them: group name -> cells."""
    sys.path.insert(0, str(ROOT))
    from unosim.report.atlas_data import read_data_file

    out = {}
    for f in sorted((page.parent / "atlas" / "data").glob("*.js")):
        try:
            name, cells = read_data_file(f.read_text())
        except ValueError as e:
            raise RuntimeError(f"{f.name}: {e}") from None
        out[name] = cells
    return out


def _expected(data: dict, fragment: str) -> tuple[str, dict]:
    """The grid's numbers for a permalink fragment: (its canonical fragment, metrics)."""
    sys.path.insert(0, str(ROOT))
    from unosim.report import atlas_grid as G

    f = dict(part.split("=", 1) for part in fragment.split("&"))
    n, strat = int(f["players"]), f["strategies"]
    _, key = G.parse_choice(f["rules"])
    deck = int(key[0])
    cell = data[f"{strat}-{G.DECKS[deck][0]}-{n}"][G.sim_key(key, strat)]
    return key, G.cell_metrics(cell, n)


def click(br: Browser, sid: str, selector: str) -> None:
    """A real mouse click at the middle of ``selector`` (scrolled into view)."""
    x, y = evaluate(
        br,
        sid,
        f"""(() => {{ const e = document.querySelector({json.dumps(selector)});
        e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect();
        return [r.x + r.width / 2, r.y + r.height / 2]; }})()""",
    )
    for kind in ("mousePressed", "mouseReleased"):
        br.call(
            "Input.dispatchMouseEvent",
            {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1},
            session=sid,
        )


def wait_render(br: Browser, sid: str, old: str, timeout: float = 30.0) -> dict:
    """The page's state once it has rendered a choice other than ``old``."""
    end = time.monotonic() + timeout
    while True:
        got = evaluate(br, sid, READ_METRICS_JS)
        if got["rendered"] and got["rendered"] != old:
            return got
        if time.monotonic() > end:
            raise TimeoutError(f"the atlas did not render (still {got['rendered']!r})")
        time.sleep(0.05)


def check_atlas(br: Browser, page: Path, screens: Path, budget_ms: float = 1000.0) -> list[str]:
    """Click through the atlas and open its permalinks; return the problems."""
    data = atlas_data(page)
    target, sid = open_tab(br)
    br.events.clear()
    problems, shown, times, prev = [], "", [], {}
    base = page.resolve().as_uri()
    try:
        for i, (name, step) in enumerate(ATLAS_STEPS):
            if step is None:
                br.call("Page.navigate", {"url": base}, session=sid)
            elif step.startswith("#"):
                click(br, sid, step)
            else:
                br.call("Page.navigate", {"url": "about:blank"}, session=sid)
                br.call("Page.navigate", {"url": f"{base}#{step}"}, session=sid)
                shown = ""
            got = wait_render(br, sid, shown)
            shown = got["rendered"]
            if shown == "error":
                problems.append(f"{name}: the page could not load its data")
                continue
            if step is not None and not step.startswith("#") and shown != step:
                problems.append(f"{name}: the permalink shows {shown!r}")
            key, want = _expected(data, shown)
            metrics = got["metrics"]
            for m in ATLAS_METRICS:
                if m not in metrics:
                    problems.append(f"{name}: no data-metric {m!r}")
                elif not math.isclose(metrics[m], want[m], rel_tol=1e-9, abs_tol=1e-12):
                    problems.append(f"{name}: {m} shows {metrics[m]!r}, the grid has {want[m]!r}")
            if i and metrics.get("turns_mean") == prev.get("turns_mean"):
                problems.append(f"{name}: the answer did not change")
            if name == "link-editions" and len(got["edition"]) != 7:
                problems.append(f"{name}: the editions question lists {len(got['edition'])}")
            prev = metrics
            times.append(got["ms"])
            evaluate(br, sid, "window.scrollTo(0, 0)")
            screenshot(br, sid, screens / f"atlas-{i:02d}-{name}.png")
            if name == "link-seven-zero":  # the whole page once: figures and flips
                tall = evaluate(br, sid, "document.documentElement.scrollHeight")
                shot = br.call(
                    "Page.captureScreenshot",
                    {
                        "format": "png",
                        "captureBeyondViewport": True,
                        "clip": {"x": 0, "y": 0, "width": WIDTH, "height": tall, "scale": 1},
                    },
                    session=sid,
                    timeout=60,
                )
                (screens / "atlas-whole-page.png").write_bytes(base64.b64decode(shot["data"]))
            print(
                f"  atlas {name}: {shown} -> cell {key}, turns_mean "
                f"{metrics.get('turns_mean', float('nan')):.2f}, rendered in {got['ms']:.0f} ms",
                flush=True,
            )
        # a link that names nothing says so on the page as text: the markup in it is
        # not run (an image that loaded or failed would show among the events)
        hostile = "%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E"
        br.call("Page.navigate", {"url": "about:blank"}, session=sid)
        br.call("Page.navigate", {"url": f"{base}#rules={hostile}&players=4"}, session=sid)
        got = wait_render(br, sid, "")
        if (
            "does not name a choice" not in got["error"]
            or "<img" not in got["error"]
            or evaluate(br, sid, "document.images.length") != 0
        ):
            problems.append("a broken permalink is not explained on the page as text")
        first = evaluate(br, sid, FIRST_SCREEN_JS)
        if first["images"] == 0:
            problems.append("no figure on the atlas's first screen")
    finally:
        problems += event_problems(br.events)
        br.call("Target.closeTarget", {"targetId": target})
        br.events.clear()
    slow = sorted(times)[len(times) // 2] if times else 0.0
    if slow > budget_ms:
        problems.append(f"the median choice renders in {slow:.0f} ms (budget {budget_ms:.0f})")
    print(
        f"  {page.name}: {len(ATLAS_STEPS)} steps, median render {slow:.0f} ms, "
        f"slowest {max(times, default=0):.0f} ms"
        + ("" if not problems else f"  PROBLEMS: {len(problems)}"),
        flush=True,
    )
    return problems


def sample_report(folder: Path) -> Path:
    """A small ``unosim report`` page (20,000 rounds per rule set)."""
    unosim = Path(sys.executable).with_name("unosim")
    cmd = [
        str(unosim) if unosim.exists() else "unosim",
        "report",
        "official",
        "stacking",
        "draw-until-playable",
        "--players",
        "4",
        "--games",
        "20000",
        "--seed",
        "1",
        "--out",
        str(folder),
        "--force",
        "--no-progress",
    ]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return folder / "report.html"


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("pages", nargs="*", type=Path)
    ap.add_argument(
        "--sample", action="store_true", help="also build and check a small `unosim report` page"
    )
    ap.add_argument("--screens", type=Path, default=ROOT / "results" / "screens")
    ap.add_argument(
        "--first-screen-figure",
        action="store_true",
        help="also fail a page whose first screen shows no image",
    )
    ap.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    ap.add_argument(
        "--atlas",
        nargs="?",
        type=Path,
        const=ROOT / "reports" / "atlas.html",
        help="click through the rules atlas (default reports/atlas.html)",
    )
    ap.add_argument(
        "--render-budget",
        type=float,
        default=1000.0,
        help="ms the atlas's median choice may take to render",
    )
    a = ap.parse_args()
    pages = list(a.pages) or sorted(
        p
        for p in (ROOT / "reports").glob("*.html")
        if a.atlas is None or p.resolve() != a.atlas.resolve()
    )
    if a.sample:
        pages.append(sample_report(ROOT / "results" / "check-pages" / "sample-report"))
    if not pages:
        print("check-pages: no HTML page found", file=sys.stderr)
        return 1
    if not Path(a.chromium).exists():
        print(f"check-pages: no chromium at {a.chromium}", file=sys.stderr)
        return 1
    print(f"check-pages: {len(pages)} pages at {WIDTH}x{HEIGHT} in {a.chromium}")
    br = Browser(a.chromium)
    failed = {}
    try:
        br.call("Target.setDiscoverTargets", {"discover": False})
        for page in pages:
            # a `unosim report` page is named by its folder (DIR/report.html)
            stem = page.parent.name if page.name == "report.html" else page.stem
            try:
                problems = check_page(br, page, a.screens / f"{stem}.png", a.first_screen_figure)
            except (TimeoutError, RuntimeError, KeyError) as e:
                problems = [f"could not render: {e}"]
            if problems:
                failed[page] = problems
        if a.atlas is not None:
            try:
                problems = check_atlas(br, a.atlas, a.screens, a.render_budget)
            except (TimeoutError, RuntimeError, KeyError, ValueError) as e:
                problems = [f"could not check: {e}"]
            if problems:
                failed[a.atlas] = problems
            pages.append(a.atlas)
    finally:
        br.close()
    for page, problems in failed.items():
        for p in problems:
            print(f"check-pages: {page}: {p}", file=sys.stderr)
    print(
        f"check-pages: {len(pages) - len(failed)} of {len(pages)} pages fine; "
        f"screenshots in {a.screens}"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
