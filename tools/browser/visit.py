"""Open the site's pages in a browser tab the way a reader does, and record what happened.

A `Tab` loads one page at a time at a given width and colour scheme, waits until formulas are
typeset, diagrams drawn and the network is quiet, then measures the page with probe.js. It
records console errors, failed requests and any request to a host other than the local server
(the browser cannot resolve any other host: see chromium.launch).

`side_by_side` spreads many pages over several browsers at once, one thread each: on two cores a
page's own work (typesetting, layout, the tests' clicks) then runs beside another page's.
"""

from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from . import chromium

PROBE = (Path(__file__).parent / "probe.js").read_text(encoding="utf-8")

# Material draws each diagram in a closed shadow root; keep a handle on every one so that the probe
# can measure what was drawn. Changes nothing the page does.
KEEP_SHADOW_ROOTS = """
(() => {
  const attach = Element.prototype.attachShadow;
  window.__shadowRoots = [];
  Element.prototype.attachShadow = function (init) {
    const root = attach.call(this, init);
    window.__shadowRoots.push({ host: this, root });
    return root;
  };
})();
"""

# Resolves once the page's formulas are typeset (MathJax, when the page loads it), its diagrams
# drawn (Material replaces each pre.mermaid by a host element once mermaid is done, and
# docs/assets/javascripts/diagrams.js marks <html data-diagrams="drawn"> once it has redrawn the
# ones too wide) and its fonts in.
READY = """
async () => {
  const until = async (test, ms) => {
    for (const end = Date.now() + ms; !test() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 25));
  };
  if (document.querySelector(".arithmatex")) {
    await until(() => window.MathJax && MathJax.startup && MathJax.startup.promise, 10000);
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
  }
  if (document.querySelector(".md-typeset .mermaid")) {
    await until(() => !document.querySelector("pre.mermaid") && document.documentElement.dataset.diagrams, 15000);
  }
  await document.fonts.ready;
}
"""


@dataclass
class Visit:
    path: str  # relative to the site root
    data: dict
    console_errors: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)  # every URL asked for, in order
    seconds: float = 0.0


class Tab:
    def __init__(self, browser, server, width: int, height: int = 844, scheme: str = "light",
                 clipboard: bool = False):
        self.server = server
        self.context = browser.new_context(
            viewport={"width": width, "height": height}, color_scheme=scheme,
            permissions=["clipboard-read", "clipboard-write"] if clipboard else [],
        )
        self.context.add_init_script(KEEP_SHADOW_ROOTS)
        self.page = self.context.new_page()
        self.page.set_default_timeout(30_000)
        self._reset()
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda e: self.console_errors.append(f"uncaught: {e}"))
        self.page.on("request", self._request)
        self.page.on("response", self._response)
        self.page.on("requestfinished", lambda r: self.inflight.discard(r))
        self.page.on("requestfailed", self._failed)

    def _reset(self):
        self.console_errors, self.failed, self.foreign, self.requests = [], [], [], []
        self.inflight = set()

    def _request(self, request):
        self.inflight.add(request)
        self.requests.append(request.url)
        if urlsplit(request.url).scheme in ("http", "https", "ws", "wss") and \
                urlsplit(request.url).netloc != urlsplit(self.server.origin).netloc:
            self.foreign.append(request.url)

    def _console(self, msg):
        if msg.type == "error":
            where = msg.location.get("url", "") if msg.location else ""
            self.console_errors.append(f"{msg.text} ({where.replace(self.server.root, '')})")

    def _response(self, response):
        if response.status >= 400:
            self.failed.append(f"{response.status} {response.url.replace(self.server.root, '')}")

    def _failed(self, request):
        self.inflight.discard(request)
        if request.url not in self.foreign:
            self.failed.append(f"{request.failure} {request.url.replace(self.server.root, '')}")

    def settle(self, quiet_ms: int = 100, limit_s: float = 10.0):
        """Wait until no request has been in flight for quiet_ms."""
        end, quiet_since = time.monotonic() + limit_s, None
        while time.monotonic() < end:
            if self.inflight:
                quiet_since = None
            elif quiet_since is None:
                quiet_since = time.monotonic()
            elif time.monotonic() - quiet_since >= quiet_ms / 1000:
                return
            self.page.wait_for_timeout(25)

    def start(self, path: str) -> None:
        """Start loading a page (relative to the site root) and return once the server has answered;
        the page goes on loading in its own process while the caller does something else."""
        self._reset()
        self.path, self.started = path, time.monotonic()
        self.response = self.page.goto(self.server.url(path), wait_until="commit")

    def finish(self) -> Visit:
        """Wait for the page started last to be ready, and measure it."""
        self.page.wait_for_load_state("load")
        self.page.evaluate(READY)
        self.settle()
        return self.measure()

    def measure(self) -> Visit:
        """Measure the page as it is now (after a resize, say)."""
        data = self.page.evaluate(PROBE)
        data["status"] = self.response.status if self.response else None
        return Visit(self.path, data, list(self.console_errors), list(self.failed), list(self.foreign),
                     list(self.requests), time.monotonic() - self.started)

    def open(self, path: str) -> Visit:
        """Load a page (relative to the site root) and measure it once it is ready."""
        self.start(path)
        return self.finish()

    def resize(self, width: int, height: int = 844) -> None:
        self.page.set_viewport_size({"width": width, "height": height})
        self.page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")

    def close(self):
        self.context.close()


LANES = 2  # browsers side by side: on 2 cores a third one is no faster, and each costs memory
STUCK_S = 180  # one item that takes this long in a lane is stuck (page.evaluate has no timeout of its own)


def side_by_side(server, items, work, lanes: int = LANES, **tab_options) -> dict:
    """``{item: work(tab, item)}`` for every item, in the items' order, done in ``lanes`` headless
    Chromiums side by side. Each lane is a thread with its own Playwright (its objects serve only the
    thread that made them), its own browser and one ``Tab(browser, server, **tab_options)``, and takes
    the next item when it is done with one. The first error of any lane is raised once every lane has
    stopped (a skip or failure from chromium.launch too); an item still not done after STUCK_S seconds
    fails the caller, naming it, instead of hanging the test run."""
    todo: queue.SimpleQueue = queue.SimpleQueue()
    for item in items:
        todo.put(item)
    done, errors, doing = {}, [], {}

    def lane():
        try:
            with chromium.require_playwright()() as playwright:
                browser = chromium.launch(playwright)
                tab = Tab(browser, server, **tab_options)
                while not errors:
                    try:
                        item = todo.get_nowait()
                    except queue.Empty:
                        break
                    doing[threading.get_ident()] = (item, time.monotonic())
                    done[item] = work(tab, item)
                    del doing[threading.get_ident()]
                browser.close()
        except BaseException as error:  # noqa: BLE001  (pytest's skip and fail are BaseExceptions)
            errors.append(error)

    threads = [threading.Thread(target=lane, daemon=True) for _ in range(max(1, min(lanes, len(items))))]
    for thread in threads:
        thread.start()
    while any(thread.is_alive() for thread in threads):
        time.sleep(0.2)
        stuck = [f"{item} ({time.monotonic() - since:.0f} s)" for item, since in list(doing.values())
                 if time.monotonic() - since > STUCK_S]
        if stuck:
            raise TimeoutError(f"a browser lane is stuck on {', '.join(stuck)}")
    if errors:
        raise errors[0]
    return {item: done[item] for item in items}
