"""The built site as readers see it: every page of both languages in headless Chromium (issue 9).

The site is built once (`make build`, as published), served from 127.0.0.1 the way GitHub Pages
serves it, and each page is opened at phone width (390 px) and at desktop width (1280 px). The
checks read what the browser drew, not the HTML: formulas whose characters have no glyph, or
diagrams shrunk until their labels cannot be read, pass every HTML test.

Needs Chromium and the npm tools: `make browser-deps`. Without them these tests skip locally and
fail under CI.
"""

from __future__ import annotations

import re
import subprocess
from urllib.parse import urlsplit

import pytest

from browser import build, chromium
from browser.build import LANGS, page_url, pages
from browser.server import SiteServer
from browser.visit import Tab, side_by_side
from labs import labs

PHONE, DESKTOP = 390, 1280
MIN_DIAGRAM_TEXT_PX = 12
ZH_WORDS = ("训练", "注意力", "掩码", "梯度")
EN_WORDS = ("attention", "gradient", "cache")
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
PAGES = [(lang, page) for lang in LANGS for page in pages(lang) + labs(lang)]  # the labs are pages too


def where(lang: str, page: str) -> str:
    return f"docs/{lang}/{page}"


def in_language(text: str, lang: str) -> bool:
    """English text has no Chinese characters; Chinese text has some, or no words at all."""
    if lang == "en":
        return not CJK.search(text)
    return bool(CJK.search(text)) or not LATIN_WORD.search(text)


# ---------------------------------------------------------------------------------------------
# One server and one visit of every page per width, shared by every check below; the pages are
# visited in several browsers side by side (visit.side_by_side), the other tests use one.


@pytest.fixture(scope="module")
def browser():
    sync_playwright = chromium.require_playwright()
    with sync_playwright() as playwright:
        instance = chromium.launch(playwright)
        yield instance
        instance.close()


@pytest.fixture(scope="module")
def server(browser):
    with SiteServer(build.built_site(), build.site_path()) as instance:
        yield instance


# Click copy buttons and catch what each puts on the clipboard (the copy event's selection; the last
# one is also read back from the clipboard itself); beside it, the code as shown, without the
# annotation markers and line numbers that Material draws inside a block. A click from the test
# counts as the reader's: it carries a user activation, which lasts seconds, so the buttons are
# clicked a dozen per call.
COPY_SOME = """async ([first, count]) => {
  let caught = null;
  const catchCopy = (e) => {
    const t = e.target;
    caught = t && "value" in t ? t.value.slice(t.selectionStart, t.selectionEnd) : String(getSelection());
  };
  document.addEventListener("copy", catchCopy, true);
  const out = [];
  const buttons = [...document.querySelectorAll("button[data-clipboard-target]")].slice(first, first + count);
  for (const button of buttons) {
    if (!button.checkVisibility()) continue;  // in a tab not shown: a reader picks the tab first
    const code = document.querySelector(button.dataset.clipboardTarget).cloneNode(true);
    code.querySelectorAll(".md-annotation, .linenos, .linenodiv").forEach((el) => el.remove());
    const block = button.closest("[class*=language-]");
    const lang = block ? [...block.classList].find((c) => c.startsWith("language-")).slice(9) : "";
    caught = null;
    button.click();
    out.push({ shown: code.textContent, lang, id: button.closest("[id]")?.id || "", copied: caught ?? "" });
  }
  document.removeEventListener("copy", catchCopy, true);
  if (out.length) {
    const last = out[out.length - 1];
    last.clipboard = await navigator.clipboard.readText();
    const toast = document.querySelector(".md-dialog__inner");
    last.toast = toast ? toast.textContent : "";
  }
  return out;
}"""
COPIES_PER_CALL = 12


def copy_every_code_block(tab: Tab) -> list[dict]:
    count = tab.page.evaluate("document.querySelectorAll('button[data-clipboard-target]').length")
    return [c for first in range(0, count, COPIES_PER_CALL)
            for c in tab.page.evaluate(COPY_SOME, [first, COPIES_PER_CALL])]


# Click every folded block's summary as a reader does, and see that it opens and shows its content.
OPEN_FOLDED = """() => [...document.querySelectorAll(".md-content details:not([open]) > summary")].map((summary) => {
  summary.click();
  const details = summary.parentElement, body = [...details.children].filter((c) => c !== summary);
  return { title: summary.textContent.trim(), open: details.open,
           shown: body.some((c) => c.getBoundingClientRect().height > 0) };
})"""


def open_every_folded_block(tab: Tab) -> list[dict]:
    return tab.page.evaluate(OPEN_FOLDED)


def _visit(tab: Tab, key: tuple[str, str]) -> tuple:
    """Load a page at phone width and measure it there; then widen the window to desktop width,
    measure the page again, and try its folded blocks and copy buttons."""
    phone = tab.open(page_url(*key))
    tab.resize(DESKTOP)
    wide = tab.measure()
    wide.data["folded"] = open_every_folded_block(tab)  # first: answers hold code too
    wide.data["copies"] = copy_every_code_block(tab)
    tab.resize(PHONE)  # for the next page
    return phone, wide


@pytest.fixture(scope="module")
def visits(server):
    """{width: {(lang, page): Visit}}: every page loaded once, measured at both widths (_visit)."""
    seen = side_by_side(server, PAGES, _visit, width=PHONE, clipboard=True)
    return {PHONE: {key: phone for key, (phone, _) in seen.items()},
            DESKTOP: {key: wide for key, (_, wide) in seen.items()}}


def each_visit(visits):
    for width, by_page in visits.items():
        for (lang, page), visit in by_page.items():
            yield width, lang, page, visit


# ---------------------------------------------------------------------------------------------
# Loading


def test_every_page_is_visited_in_both_languages(visits):
    assert len(PAGES) >= 2 and {lang for lang, _ in PAGES} == set(LANGS)
    wrong = [f"{where(lang, page)} at {w}px: HTTP {v.data['status']}, lang={v.data['lang']!r}"
             for w, lang, page, v in each_visit(visits) if v.data["status"] != 200 or v.data["lang"] != lang]
    assert not wrong, "\n".join(wrong)


def test_pages_load_without_console_errors(visits):
    errors = [f"{where(lang, page)} at {w}px: {e}" for w, lang, page, v in each_visit(visits) for e in v.console_errors]
    assert not errors, "\n".join(errors)


def test_every_request_succeeds(visits):
    failed = [f"{where(lang, page)} at {w}px: {f}" for w, lang, page, v in each_visit(visits) for f in v.failed]
    assert not failed, "\n".join(failed)


def test_no_request_goes_to_another_host(visits):
    foreign = [f"{where(lang, page)} at {w}px: {u}" for w, lang, page, v in each_visit(visits) for u in v.foreign]
    assert not foreign, "\n".join(foreign)


# ---------------------------------------------------------------------------------------------
# Formulas and diagrams


def test_formulas_are_typeset_and_their_characters_drawn(visits):
    problems = []
    for w, lang, page, v in each_visit(visits):
        for f in v.data["formulas"]:
            name = f"{where(lang, page)} at {w}px, formula {f['index'] + 1} `{f['source']}`"
            if not f["typeset"]:
                problems.append(f"{name}: not typeset (is MathJax loaded on this page?)")
            elif f["error"]:
                problems.append(f"{name}: MathJax reports a TeX error")
            elif f["width"] < 1 or f["height"] < 1 or f["chars"] == 0:
                problems.append(f"{name}: drawn {f['width']:.0f}x{f['height']:.0f} px with {f['chars']} characters")
            elif f["blank"] or not f["drawn"]:
                problems.append(f"{name}: {f['blank']} of {f['chars']} characters have no glyph (blank)")
        broken = [family for family, status in v.data["mathFonts"] if status == "error"]
        if broken:
            problems.append(f"{where(lang, page)} at {w}px: MathJax fonts failed to load: {broken}")
    assert not problems, "\n".join(problems)


def test_the_formula_check_sees_formulas(visits):
    """The check above must not pass because no page has a formula."""
    assert any(v.data["formulas"] for _, _, _, v in each_visit(visits)), "no formula on any page"


def test_diagrams_are_svg_with_text_readable_at_phone_width(visits):
    problems = []
    for (lang, page), v in visits[PHONE].items():
        if v.data["pendingDiagrams"]:
            problems.append(f"{where(lang, page)}: {v.data['pendingDiagrams']} diagram(s) never drawn")
        for d in v.data["diagrams"]:
            name = f"{where(lang, page)}, diagram {d['index'] + 1}"
            if not d["svg"]:
                problems.append(f"{name}: no SVG")
                continue
            small = [t for t in d["texts"] if t["px"] < MIN_DIAGRAM_TEXT_PX]
            if not d["texts"]:
                problems.append(f"{name}: no text drawn")
            elif small:
                problems.append(f"{name}: text drawn at {min(t['px'] for t in small)} px "
                                f"(under {MIN_DIAGRAM_TEXT_PX}): {[t['text'] for t in small][:4]}")
            if any(t["width"] == 0 for t in d["texts"]):
                problems.append(f"{name}: labels with no width: {[t['text'] for t in d['texts'] if t['width'] == 0][:4]}")
    assert not problems, "\n".join(problems)


def test_formulas_and_diagrams_fit_the_column_at_phone_width(visits):
    """A formula or diagram wider than the column scrolls inside itself: at 390 px the reader sees it
    cut at the right edge (a diagram showed 1½ of its 4 boxes). Break the formula or lay the diagram
    out top to bottom instead."""
    problems = []
    for (lang, page), v in visits[PHONE].items():
        problems += [f"{where(lang, page)}: formula {f['index'] + 1} `{f['source']}` is wider than the column"
                     for f in v.data["formulas"] if f.get("overflow")]
        problems += [f"{_source_line(lang, page, d['index'], 'mermaid')}: diagram {d['index'] + 1} is "
                     f"{d['width']:.0f} px wide in a {d['hostWidth']:.0f} px column"
                     for d in v.data["diagrams"] if d.get("overflow")]
    assert not problems, "\n".join(problems)


def test_copy_buttons_cover_no_code_at_phone_width(visits):
    problems = [f"{where(lang, page)}: the copy button covers the first line of #{c['id']}: {c['line']!r}"
                for (lang, page), v in visits[PHONE].items() for c in v.data["covered"]]
    assert not problems, "\n".join(problems)


def test_no_page_scrolls_sideways_at_phone_width(visits):
    problems = [f"{where(lang, page)}: the page is {v.data['scrollWidth']} px wide in a {v.data['viewport']} px "
                f"window; sticking out: {v.data['sticking']}"
                for (lang, page), v in visits[PHONE].items() if v.data["scrollWidth"] > v.data["viewport"]]
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------------------------
# Language


def test_interface_text_is_in_the_page_language(visits):
    problems = []
    for w, lang, page, v in each_visit(visits):
        for item in v.data["ui"]:
            expected = item["lang"].split("-")[0] or lang
            if expected in LANGS and not in_language(item["text"], expected):
                problems.append(f"{where(lang, page)} at {w}px: {item['kind']} of {item['where']} "
                                f"is not in {expected}: {item['text']!r}")
        toast = next((c.get("toast") for c in v.data.get("copies", []) if c.get("toast")), None)
        if toast is not None and not in_language(toast, lang):
            problems.append(f"{where(lang, page)}: the copy notice is not in {lang}: {toast!r}")
    assert not problems, "\n".join(sorted(set(problems)))


def _source_line(lang: str, page: str, index: int, fence: str) -> str:
    """`docs/<lang>/<page>:<line>` of the index-th ```<fence> block of a page."""
    lines = (build.DOCS / lang / page).read_text(encoding="utf-8").split("\n")
    found = [n + 1 for n, line in enumerate(lines) if re.match(rf"^\s*```+\s*{fence}\b", line)]
    return f"{where(lang, page)}:{found[index]}" if index < len(found) else where(lang, page)


def test_images_and_diagrams_have_alternative_text_in_the_page_language(visits):
    problems = []
    for (lang, page), v in visits[DESKTOP].items():
        for img in v.data["images"]:
            alt = (img["alt"] or "").strip()
            if not alt:
                problems.append(f"{where(lang, page)}: image {img['src']} has no alt text")
            elif not in_language(alt, img["lang"] or lang):
                problems.append(f"{where(lang, page)}: alt text of {img['src']} is not in {lang}: {alt!r}")
        for d in v.data["diagrams"]:
            line = _source_line(lang, page, d["index"], "mermaid")
            label = (d.get("label") or "").strip()
            if not label:
                problems.append(f"{line}: diagram without alternative text: start it with `accTitle: …` "
                                f"(and `accDescr: …`) in {lang}")
            elif not in_language(label + " " + (d.get("description") or ""), lang):
                problems.append(f"{line}: the diagram's accTitle/accDescr is not in {lang}: {label!r}")
    assert not problems, "\n".join(problems)


def test_language_links_lead_to_the_same_page_in_the_other_language(visits, server):
    problems = []
    for (lang, page), v in visits[DESKTOP].items():
        links = {link["lang"]: link["href"] for link in v.data["switcher"]}
        for other in LANGS:
            if links.get(other) != server.url(page_url(other, page)):
                problems.append(f"{where(lang, page)}: the {other} link goes to {links.get(other)}")
    assert not problems, "\n".join(problems)


def _switch(tab: Tab, to: str) -> str:
    tab.page.hover(".md-header .md-select")
    with tab.page.expect_navigation(wait_until="domcontentloaded"):
        tab.page.click(f".md-header a.md-select__link[hreflang={to}]")
    return tab.page.url


def _there_and_back(tab: Tab, page: str) -> tuple[str, str]:
    tab.page.goto(tab.server.url(page_url("zh", page)), wait_until="domcontentloaded")
    return _switch(tab, "en"), _switch(tab, "zh")


def test_language_switcher_goes_to_the_twin_lesson_and_back(server):
    lessons = build.first_lesson_of_each_part("zh")
    assert lessons, "no lesson (docs/zh/<part>/<lesson>.md) to switch on"
    problems = [f"{page}: zh -> {there} -> {back}"
                for page, (there, back) in side_by_side(server, lessons, _there_and_back, width=DESKTOP).items()
                if there != server.url(page_url("en", page)) or back != server.url(page_url("zh", page))]
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------------------------
# Search


def _headings(lang: str, page: str) -> list[str]:
    """The page's title and headings (ATX lines outside code fences)."""
    out, fence = [], None
    for line in (build.DOCS / lang / page).read_text(encoding="utf-8").split("\n"):
        mark = re.match(r"^\s*(`{3,}|~{3,})", line)
        if mark and (fence is None or mark.group(1).startswith(fence)):
            fence = None if fence else mark.group(1)
        elif fence is None and re.match(r"^#{1,6}\s", line):
            out.append(line)
    return out


def _teaching_lessons(lang: str, word: str) -> list[str]:
    """Lessons with the word in their title or a heading."""
    return [page for page in build.lessons(lang) if any(word.lower() in h.lower() for h in _headings(lang, page))]


def _pages_with(lang: str, word: str) -> list[str]:
    """Pages whose built text (included code too) has the word."""
    site = build.built_site()
    text = lambda p: re.sub(r"<[^>]+>", " ", (site / page_url(lang, p) / "index.html").read_text(encoding="utf-8"))
    return [p for p in pages(lang) if word.lower() in text(p).lower()]


# Material shows its "type to start searching" text while the search box is empty and the index
# is ready; after a query it shows how many pages matched, then lists them.
SEARCH_META = """() => document.querySelector(".md-search-result__meta").textContent.trim()"""
SEARCH_IDLE = """() => document.querySelector(".md-search-result__meta").textContent.trim() ===
  JSON.parse(document.getElementById("__config").textContent).translations["search.result.placeholder"]"""
SEARCH_RESULTS = """() => [...document.querySelectorAll(".md-search-result__item > a")].map((a) => a.href.split(/[?#]/)[0])"""


def _search(tab: Tab, word: str) -> list[str]:
    """The result pages for a query, best first, as paths relative to the site root."""
    box = ".md-search__input"
    tab.page.fill(box, "")
    tab.page.press(box, "End")  # Material searches on key up
    tab.page.wait_for_function(SEARCH_IDLE, timeout=20_000)
    tab.page.fill(box, word)
    tab.page.press(box, "End")
    tab.page.wait_for_function(f"() => !({SEARCH_IDLE})()", timeout=20_000)
    tab.page.wait_for_timeout(100)  # the list is drawn right after the count
    return [urlsplit(u).path[len(build.site_path()):] for u in tab.page.evaluate(SEARCH_RESULTS)]


@pytest.mark.parametrize("lang,words", [("zh", ZH_WORDS), ("en", EN_WORDS)])
def test_search_finds_the_lessons_that_teach_a_word_first(browser, server, lang, words):
    tab = Tab(browser, server, DESKTOP)
    home = tab.open(page_url(lang, "index.md"))
    requested_before = [u for u in home.requests if "search_index" in u]
    tab.page.click(".md-search__input")
    problems = []
    for word in words:
        mid_sentence = rf"[\u4e00-\u9fff]{word}[\u4e00-\u9fff]" if lang == "zh" else rf"[a-z,] {word}\b"
        if not any(re.search(mid_sentence, (build.DOCS / lang / p).read_text(encoding="utf-8")) for p in pages(lang)):
            problems.append(f"{word}: no {lang} page uses it in the middle of a sentence (nothing to find)")
            continue
        found = _search(tab, word)
        urls = {page_url(lang, p): p for p in pages(lang) + labs(lang)}
        others = [u for u in found if u not in urls]
        teaching = _teaching_lessons(lang, word)
        if not found:
            problems.append(f"{word}: no result")
        elif others:
            problems.append(f"{word}: results from another language or unknown pages: {others}")
        elif teaching and urls[found[0]] not in teaching:
            problems.append(f"{word}: first result is {urls[found[0]]}, not a lesson that teaches it {teaching}")
        elif not teaching and urls[found[0]] not in _pages_with(lang, word):
            problems.append(f"{word}: first result is {urls[found[0]]}, which does not contain it")
    tab.close()
    assert not requested_before, f"the search index loaded before search was opened: {requested_before}"
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------------------------
# Code blocks and folded answers


def _code_problem(c: dict) -> str | None:
    copied, shown = c["copied"], c["shown"].rstrip()
    if copied != shown:
        return f"copied {copied[:80]!r}, but the block shows {shown[:80]!r}"
    if "clipboard" in c and c["clipboard"] != copied:
        return f"the clipboard holds {c['clipboard'][:80]!r}, not what was copied"
    if re.search(r"--8<--|pytest-codeblocks|pytest\.mark", copied):
        return f"copies a marker: {copied[:80]!r}"
    if c["lang"] in ("bash", "sh", "shell", "console"):
        if re.search(r"^\s*[$#>] ", copied, re.M):
            return f"copies a prompt: {copied[:80]!r}"
        check = subprocess.run(["bash", "-n"], input=copied, capture_output=True, text=True)
        if check.returncode:
            return f"copies shell that does not parse: {check.stderr.strip()[:120]}"
    if c["lang"] in ("python", "py"):
        if re.search(r"^\s*(>>>|\.\.\.) ", copied, re.M):
            return f"copies a prompt: {copied[:80]!r}"
        try:
            compile(copied, "<copied>", "exec")
        except SyntaxError as e:
            return f"copies Python that does not parse: {e}"
    return None


def test_copy_buttons_copy_exactly_the_code(visits):
    problems, copied = [], 0
    for (lang, page), v in visits[DESKTOP].items():
        for c in v.data["copies"]:
            copied += 1
            problem = _code_problem(c)
            if problem:
                problems.append(f"{where(lang, page)} #{c['id']} ({c['lang']} block): {problem}")
    assert copied, "no copy button on any page"
    assert not problems, "\n".join(problems)


def test_folded_answers_open(visits):
    problems, opened = [], 0
    for (lang, page), v in visits[DESKTOP].items():
        for f in v.data["folded"]:
            opened += 1
            if not (f["open"] and f["shown"]):
                problems.append(f"{where(lang, page)}: folded block {f['title']!r} did not open")
    assert opened, "no folded block on any page"
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------------------------
# Accessibility


def _axe_pages() -> list[tuple[str, str]]:
    return [(lang, page) for lang in LANGS for page in ["index.md", *build.first_lesson_of_each_part(lang)]]


# Without CSS selectors for every node it looks at, axe runs a quarter faster; a problem is shown
# by the start of its element's HTML instead.
AXE_RUN = """() => axe.run(document, { resultTypes: ["violations"], iframes: false, selectors: false })
  .then((r) => r.violations)"""


def _axe(tab: Tab, key: tuple[str, str]) -> tuple[list[str], list[dict]]:
    """The page's console errors and failed requests, and axe's violations on it."""
    tab.open(page_url(*key))
    tab.page.add_script_tag(path=str(chromium.axe_script()))
    violations = tab.page.evaluate(AXE_RUN)
    return tab.console_errors + tab.failed, violations


def test_no_serious_accessibility_violations(server):
    problems = []
    for (lang, page), (errors, violations) in side_by_side(server, _axe_pages(), _axe, width=DESKTOP).items():
        # these pages are loaded at desktop width, where wide diagrams are redrawn
        problems += [f"{where(lang, page)} at {DESKTOP}px: {e}" for e in errors]
        for violation in violations:
            if violation["impact"] in ("serious", "critical"):
                targets = [n["html"][:100] for n in violation["nodes"]][:5]
                problems.append(f"{where(lang, page)}: {violation['impact']} {violation['id']} "
                                f"({violation['help']}) at {targets}")
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------------------------
# The 404 page


@pytest.mark.parametrize("lang,missing", [("zh", "no-such-page/"), ("en", "en/no-such-page/")])
def test_a_missing_address_gets_a_working_404_page(browser, server, lang, missing):
    """GitHub Pages serves the root 404.html for every missing address, at any depth."""
    tab = Tab(browser, server, PHONE)
    v = tab.open(missing + "deeper/")
    links = tab.page.evaluate("() => [...document.querySelectorAll('.md-content a[href]')].map((a) => a.href)")
    styled = tab.page.evaluate("() => getComputedStyle(document.querySelector('.md-header')).position")
    own = tab.open("en/404.html" if lang == "en" else "404.html")
    tab.close()
    assert v.data["status"] == 404 and v.data["lang"] == "zh", (v.data["status"], v.data["lang"])
    assert styled == "sticky", "the 404 page has lost its stylesheet (relative links at a deeper address?)"
    assert [e for e in v.console_errors if "404" not in e] == [] and [f for f in v.failed if not f.startswith("404 " + missing)] == []
    for home in ("", "en/"):
        assert server.url(home) in links, f"the 404 page does not link to {server.url(home)}: {links}"
    assert own.data["lang"] == lang and own.data["status"] == 200, own.data["lang"]
