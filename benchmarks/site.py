"""How heavy the course site is: build time, and bytes a reader's browser fetches on first load.

    python benchmarks/site.py                  # build with `make build`, then measure
    python benchmarks/site.py --site DIR       # measure a site built already (--prefix: its folder)

Each page is opened in headless Chromium with an empty cache and served like GitHub Pages
(tools/browser/server.py); "bytes" is what the server sent until the page was ready and the
network quiet, "gzip" what GitHub Pages would send compressed. A benchmark, not a test: the
targets (issue 9) are printed beside the numbers. Needs `make browser-deps`.
"""

from __future__ import annotations

import argparse
import gzip
import os
import subprocess
import sys
import tempfile
import time
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))  # the browser helpers

from browser import build, chromium  # noqa: E402
from browser.server import SiteServer  # noqa: E402
from browser.visit import Tab  # noqa: E402

BUILD_TARGET_S = 5.0
LESSON_TARGET_BYTES = 1_500_000
COMPRESSED = (".html", ".js", ".css", ".json", ".xml", ".svg", ".txt")  # GitHub Pages gzips text
BIG = {"mermaid.min.js": "mermaid", "/mathjax/": "MathJax", "search_index": "search index"}


def timed_build(out: Path) -> float:
    env = dict(os.environ, SITE_URL=build.SITE_URL, NO_MKDOCS_2_WARNING="1")
    cmd = ["make", "--no-print-directory", "-o", ".venv/.installed", "build",
           f"SITE_DIR={out}", f"BIN={Path(sys.executable).parent}"]
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if proc.returncode:
        sys.exit(f"make build failed:\n{proc.stderr[-4000:]}")
    return seconds


@cache
def gzipped(path: Path) -> int:
    data = path.read_bytes()
    return len(gzip.compress(data, 6)) if path.suffix in COMPRESSED else len(data)


def first_load(browser, server, path: str) -> dict:
    """Open one page with an empty cache; what was sent for it."""
    tab = Tab(browser, server, 1280, 800)  # a new context: nothing cached
    before = len(server.served)
    visit = tab.open(path)
    sent = server.served[before:]
    tab.close()
    return {
        "page": path or "(home)",
        "requests": len(sent),
        "bytes": sum(size for _, _, size in sent),
        "gzip": sum(gzipped(file) for _, file, _ in sent),
        "loads": sorted({label for address, _, _ in sent for key, label in BIG.items() if key in address}),
        "diagram": bool(visit.data["diagrams"]),
        "seconds": visit.seconds,
    }


def pages_to_measure(site: Path) -> list[str]:
    paths = ["", "en/"]
    lessons = [p for p in build.lessons("zh") if (site / build.page_url("zh", p) / "index.html").is_file()]
    paths += [build.page_url("zh", p) for p in build.first_lesson_of_each_part("zh")]
    plain = next((p for p in lessons if 'class="mermaid"' not in
                  (site / build.page_url("zh", p) / "index.html").read_text(encoding="utf-8")), None)
    if plain and build.page_url("zh", plain) not in paths:
        paths.append(build.page_url("zh", plain))
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, help="a built site to measure (default: build one now)")
    parser.add_argument("--prefix", default=None, help="the folder the site is served from (default: its site_url's)")
    args = parser.parse_args()
    if args.site:
        site, prefix = args.site, args.prefix if args.prefix is not None else "/"
        if not (site / "index.html").is_file():
            sys.exit(f"{site} is not a built site (no index.html)")
        print(f"site: {site} (not rebuilt)")
    else:
        site, prefix = Path(tempfile.mkdtemp(prefix="minigpt-bench-")) / "site", build.site_path()
        seconds = timed_build(site)
        ok = "ok" if seconds < BUILD_TARGET_S else f"over the {BUILD_TARGET_S:.0f} s target"
        print(f"build (make build, mkdocs build --strict): {seconds:.1f} s ({ok})")
    sync_playwright = chromium.require_playwright()
    with SiteServer(site, prefix) as server, sync_playwright() as playwright:
        browser = chromium.launch(playwright)
        rows = [first_load(browser, server, path) for path in pages_to_measure(site)]
        browser.close()
    print(f"\nfirst load, empty cache (target: a lesson without diagrams under {LESSON_TARGET_BYTES / 1e6:.1f} MB)")
    print(f"{'page':34} {'requests':>8} {'bytes':>11} {'gzip':>11}  scripts")
    for r in rows:
        note = ", ".join(r["loads"]) or "-"
        if r["page"] not in ("(home)", "en/") and not r["diagram"]:
            note += "  [no diagram: " + ("ok" if r["bytes"] < LESSON_TARGET_BYTES else "over target") + "]"
        print(f"{r['page']:34} {r['requests']:8d} {r['bytes']:11,d} {r['gzip']:11,d}  {note}")


if __name__ == "__main__":
    main()
