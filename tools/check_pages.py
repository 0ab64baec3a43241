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

Chromium is driven through the DevTools protocol over a pipe
(``--remote-debugging-pipe``: JSON messages separated by NUL bytes on file
descriptors 3 and 4), so nothing listens on a port.
"""
from __future__ import annotations

import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WIDTH, HEIGHT = 1280, 800
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--hide-scrollbars", "--mute-audio",
         "--remote-debugging-pipe", f"--window-size={WIDTH},{HEIGHT}"]

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
  return {{images: Array.from(document.images).filter(seen).length,
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
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            pass_fds=(3, 4), preexec_fn=lambda: (os.dup2(to_child_r, 3),
                                                 os.dup2(from_child_w, 4)))
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

    def call(self, method: str, params: dict | None = None, session: str | None = None,
             timeout: float = 30.0) -> dict:
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


def check_page(br: Browser, page: Path, screen: Path, first_figure: bool = False
               ) -> list[str]:
    """Open ``page``, return its problems (empty: fine), save the first screen; with
    ``first_figure``, a first screen without an image is a problem too."""
    target = br.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    sid = br.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log", "Network"):
        br.call(f"{domain}.enable", session=sid)
    br.call("Emulation.setDeviceMetricsOverride", {"width": WIDTH, "height": HEIGHT,
                                                   "deviceScaleFactor": 1, "mobile": False},
            session=sid)
    br.events.clear()
    nav = br.call("Page.navigate", {"url": page.resolve().as_uri()}, session=sid)
    problems = []
    if nav.get("errorText"):
        problems.append(f"navigation failed: {nav['errorText']}")
    br.wait_event("Page.loadEventFired", timeout=60)
    res = br.call("Runtime.evaluate", {"expression": IMAGES_JS, "awaitPromise": True,
                                       "returnByValue": True}, session=sid, timeout=60)
    images = res["result"].get("value", [])
    for alt, w, h, ok in images:
        if not ok or w == 0 or h == 0:
            problems.append(f"image does not load: {alt!r}")
    first = br.call("Runtime.evaluate", {"expression": FIRST_SCREEN_JS,
                                         "returnByValue": True}, session=sid)["result"]["value"]
    if first_figure and first["images"] == 0:
        problems.append("no figure on the first screen")
    shot = br.call("Page.captureScreenshot", {"format": "png"}, session=sid, timeout=60)
    screen.parent.mkdir(parents=True, exist_ok=True)
    screen.write_bytes(base64.b64decode(shot["data"]))
    for e in br.events:
        m, p = e.get("method"), e.get("params", {})
        if m == "Runtime.exceptionThrown":
            problems.append(f"script error: {p['exceptionDetails'].get('text')}")
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
    br.call("Target.closeTarget", {"targetId": target})
    br.events.clear()
    print(f"  {page.relative_to(ROOT) if page.is_relative_to(ROOT) else page}: "
          f"{len(images)} images, {first['images']} on the first screen "
          f"(headings: {'; '.join(first['headings'][:4]) or 'none'}), "
          f"{first['height']} px tall -> {screen.relative_to(ROOT) if screen.is_relative_to(ROOT) else screen}"
          + ("" if not problems else f"  PROBLEMS: {len(problems)}"), flush=True)
    return problems


def sample_report(folder: Path) -> Path:
    """A small ``unosim report`` page (20,000 rounds per rule set)."""
    unosim = Path(sys.executable).with_name("unosim")
    cmd = [str(unosim) if unosim.exists() else "unosim", "report", "official", "stacking",
           "draw-until-playable", "--players", "4", "--games", "20000", "--seed", "1",
           "--out", str(folder), "--force", "--no-progress"]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return folder / "report.html"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pages", nargs="*", type=Path)
    ap.add_argument("--sample", action="store_true",
                    help="also build and check a small `unosim report` page")
    ap.add_argument("--screens", type=Path, default=ROOT / "results" / "screens")
    ap.add_argument("--first-screen-figure", action="store_true",
                    help="also fail a page whose first screen shows no image")
    ap.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    a = ap.parse_args()
    pages = list(a.pages) or sorted((ROOT / "reports").glob("*.html"))
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
                problems = check_page(br, page, a.screens / f"{stem}.png",
                                      a.first_screen_figure)
            except (TimeoutError, RuntimeError, KeyError) as e:
                problems = [f"could not render: {e}"]
            if problems:
                failed[page] = problems
    finally:
        br.close()
    for page, problems in failed.items():
        for p in problems:
            print(f"check-pages: {page}: {p}", file=sys.stderr)
    print(f"check-pages: {len(pages) - len(failed)} of {len(pages)} pages fine; "
          f"screenshots in {a.screens}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
