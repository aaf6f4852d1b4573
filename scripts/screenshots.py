"""Redraw the README's screenshots: the home page and a lesson, in both languages, light and dark.

    make screenshots                                   # build with `make build`, then draw
    .venv/bin/python scripts/screenshots.py --site DIR # draw a site built already

Writes screenshots/{home,lesson}-{zh,en}-{light,dark}.png at 1280 px wide: a home page from its top
down past its first formula, a lesson scrolled to its first diagram and the formulas after it, so
that the pictures show formulas and diagrams as the browser draws them.
Needs `make browser-deps`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))  # the browser helpers

from browser import build, chromium  # noqa: E402
from browser.server import SiteServer  # noqa: E402
from browser.visit import Tab  # noqa: E402

OUT = ROOT / "screenshots"
LESSON = "attention/multi-head.md"  # the lesson the README shows
WIDTH, MIN_HEIGHT, MAX_HEIGHT = 1280, 800, 2000

# What to draw. A home page from its top down past its first formula; a lesson as a reader sees it
# scrolled to its first diagram (else its first formula), down past the formulas that follow.
FRAME = """(lesson) => {
  const header = document.querySelector(".md-header").getBoundingClientRect().height;
  const first = document.querySelector(".md-typeset .mermaid") || document.querySelector(".md-typeset mjx-container[display='true']");
  let top = 0;
  if (lesson && first) {  // from the paragraph that leads into it
    top = (first.previousElementSibling || first).getBoundingClientRect().top + scrollY - header - 6;
  }
  const formulas = [...document.querySelectorAll(".md-typeset mjx-container[display='true']")]
    .map((f) => f.getBoundingClientRect().bottom + scrollY).filter((bottom) => bottom > top + header);
  const shown = lesson ? formulas.slice(0, 3) : formulas.slice(0, 1);
  return { top: Math.max(0, top), bottom: (shown.length ? Math.max(...shown) : top + 900) + 32 };
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build one now with make build)")
    args = parser.parse_args()
    site = args.site or build.built_site()
    if not (site / "index.html").is_file():
        sys.exit(f"{site} is not a built site (no index.html)")
    for lang in build.LANGS:
        if not (build.DOCS / lang / LESSON).is_file():
            sys.exit(f"docs/{lang}/{LESSON} does not exist: set LESSON in {Path(__file__).name}")
    OUT.mkdir(exist_ok=True)
    sync_playwright = chromium.require_playwright()
    with SiteServer(site, build.site_path()) as server, sync_playwright() as playwright:
        browser = chromium.launch(playwright)
        for scheme in ("light", "dark"):
            tab = Tab(browser, server, WIDTH, MIN_HEIGHT, scheme=scheme)
            for name, page in (("home", "index.md"), ("lesson", LESSON)):
                for lang in build.LANGS:
                    visit = tab.open(build.page_url(lang, page))
                    if visit.console_errors or visit.failed:
                        sys.exit(f"{visit.path}: {visit.console_errors + visit.failed}")
                    frame = tab.page.evaluate(FRAME, name == "lesson")
                    height = int(min(max(frame["bottom"] - frame["top"], MIN_HEIGHT), MAX_HEIGHT))
                    tab.resize(WIDTH, height)  # the sticky header stays on top, as a reader sees it
                    tab.page.evaluate(f"window.scrollTo(0, {frame['top']})")
                    tab.page.wait_for_timeout(500)  # the header's title changes on scroll, animated
                    path = OUT / f"{name}-{lang}-{scheme}.png"
                    tab.page.screenshot(path=str(path))
                    tab.resize(WIDTH, MIN_HEIGHT)
                    print(f"{path.relative_to(ROOT)}  {WIDTH}x{height}")
            tab.close()
        browser.close()


if __name__ == "__main__":
    main()
