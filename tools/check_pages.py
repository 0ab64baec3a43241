"""Open HTML pages in headless Chromium, as a reader would, and check them.

Usage: python tools/check_pages.py [PAGE.html | DIR ...] [--screens DIR] [--width W] [--height H]

Every page (default: ``reports/*.html``) is loaded at 1280x800 over Chromium's DevTools
protocol (``--remote-debugging-pipe``: no port, no network). A page fails when one of its
images does not load (``<img>`` not complete or of zero width), when a script throws,
when the browser logs an error (a resource that failed to load, for example), or when
no figure starts on its first screen (a reader must see the answer and its figure
without scrolling). A
screenshot of each page's first screen is written to ``--screens`` (default
``results/screens/NAME.png``) so a person can look. Exit code 0 when every page passes,
1 otherwise, 2 when Chromium cannot be started.
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
BROWSERS = ("chromium", "chromium-browser", "google-chrome")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--mute-audio", "--remote-debugging-pipe")
# images that did not load, read in the page after its load event
BROKEN_IMAGES = ("Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0)"
                 ".map(i => i.getAttribute('src').slice(0, 80))")
# the top of the first image, in CSS pixels from the top of the page (-1: no image)
FIRST_IMAGE_TOP = ("(() => { const t = Array.from(document.images).map("
                   "i => i.getBoundingClientRect().top + window.scrollY);"
                   " return t.length ? Math.min(...t) : -1; })()")
TIMEOUT = 30.0  # seconds for one page to load


def find_browser() -> str | None:
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    return None


def _to_fds_3_and_4(read_end: int, write_end: int) -> None:
    """In the child: the command pipe on fd 3, the reply pipe on fd 4."""
    r, w = os.dup(read_end), os.dup(write_end)  # copies first: dup2 must not clobber
    os.dup2(r, 3)                               # an end that already sits on 3 or 4
    os.dup2(w, 4)


class Browser:
    """A headless Chromium driven over its DevTools pipe (fd 3 in, fd 4 out)."""

    def __init__(self, exe: str):
        self._profile = tempfile.mkdtemp(prefix="unosim-chromium-")
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()
        # the child reads commands on fd 3 and writes replies on fd 4
        self._proc = subprocess.Popen(
            [exe, *FLAGS, f"--user-data-dir={self._profile}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=(3, 4), preexec_fn=lambda: _to_fds_3_and_4(to_child_r, from_child_w))
        os.close(to_child_r)
        os.close(from_child_w)
        self._buf = b""
        self._id = 0
        self.events: list[dict] = []

    def close(self) -> None:
        try:
            self.call("Browser.close")
        except Exception:  # noqa: BLE001 - closing a browser that is gone already
            pass
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
        for fd in (self._to_child, self._from_child):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self._profile, ignore_errors=True)

    def _read(self, deadline: float) -> dict:
        while b"\0" not in self._buf:
            if time.monotonic() > deadline:
                raise TimeoutError("the browser did not answer in time")
            chunk = os.read(self._from_child, 1 << 16)
            if not chunk:
                raise ConnectionError("the browser closed its DevTools pipe")
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method: str, session: str | None = None, timeout: float = TIMEOUT,
             **params) -> dict:
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params}
        if session:
            msg["sessionId"] = session
        os.write(self._to_child, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error'].get('message')}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method: str, session: str, timeout: float = TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        while True:
            for e in self.events:
                if e.get("method") == method and e.get("sessionId") == session:
                    return
            self.events.append(self._read(deadline))


def check_page(browser: Browser, page: Path, screen: Path, width: int, height: int
               ) -> list[str]:
    """Load ``page``, write its first screen to ``screen``; the problems found."""
    target = browser.call("Target.createTarget", url="about:blank")["targetId"]
    session = browser.call("Target.attachToTarget", targetId=target,
                           flatten=True)["sessionId"]
    browser.events.clear()
    for domain in ("Page", "Runtime", "Log"):
        browser.call(f"{domain}.enable", session)
    browser.call("Emulation.setDeviceMetricsOverride", session, width=width, height=height,
                 deviceScaleFactor=1, mobile=False)
    browser.call("Page.navigate", session, url=page.resolve().as_uri())
    browser.wait_for("Page.loadEventFired", session)
    problems = []
    broken = browser.call("Runtime.evaluate", session, expression=BROKEN_IMAGES,
                          returnByValue=True)["result"].get("value", [])
    problems += [f"image did not load: {src}" for src in broken]
    n_images = browser.call("Runtime.evaluate", session, expression="document.images.length",
                            returnByValue=True)["result"].get("value", 0)
    top = browser.call("Runtime.evaluate", session, expression=FIRST_IMAGE_TOP,
                       returnByValue=True)["result"].get("value", -1)
    if not 0 <= top < height:
        problems.append("no figure on the first screen" + (
            f" (the first one starts {top:.0f} px down, the screen is {height})"
            if top >= 0 else " (the page has no image)"))
    for e in browser.events:
        if e.get("sessionId") != session:
            continue
        if e.get("method") == "Runtime.exceptionThrown":
            d = e["params"]["exceptionDetails"]
            problems.append(f"script error: {d.get('exception', {}).get('description') or d.get('text')}")
        elif e.get("method") == "Log.entryAdded" and e["params"]["entry"]["level"] == "error":
            problems.append(f"browser error: {e['params']['entry']['text']}")
    shot = browser.call("Page.captureScreenshot", session, format="png")["data"]
    screen.parent.mkdir(parents=True, exist_ok=True)
    screen.write_bytes(base64.b64decode(shot))
    browser.call("Target.closeTarget", targetId=target)
    print(f"{'ok  ' if not problems else 'FAIL'} {page} ({n_images} images) -> {screen}")
    return problems


def pages_of(items: list[str]) -> list[Path]:
    out = []
    for item in items or [str(ROOT / "reports")]:
        p = Path(item)
        out += sorted(p.glob("*.html")) if p.is_dir() else [p]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pages", nargs="*", help="HTML files or folders (default: reports/)")
    ap.add_argument("--screens", default=str(ROOT / "results" / "screens"),
                    help="folder for the screenshots")
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=800)
    args = ap.parse_args(argv)
    pages = pages_of(args.pages)
    missing = [str(p) for p in pages if not p.is_file()]
    if missing or not pages:
        print(f"check_pages: no such page: {', '.join(missing) or 'none given'}", file=sys.stderr)
        return 2
    exe = find_browser()
    if exe is None:
        print("check_pages: Chromium not found (Debian: apt-get install chromium)",
              file=sys.stderr)
        return 2
    browser = Browser(exe)
    failed = 0
    try:
        for page in pages:
            screen = Path(args.screens) / f"{page.parent.name}-{page.stem}.png"
            problems = check_page(browser, page, screen, args.width, args.height)
            for p in problems:
                print(f"     {p}")
            failed += bool(problems)
    except (TimeoutError, ConnectionError, RuntimeError) as e:
        print(f"check_pages: {e}", file=sys.stderr)
        return 2
    finally:
        browser.close()
    print(f"{len(pages) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
