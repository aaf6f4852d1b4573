"""The attention explorer page (docs/*/attention-explorer.md) in the built site and in a browser.

Its script, styles and data come from the site itself, only on that page; the data is the JSON that
`minigpt attention` writes; every label the script shows comes from the page, in its language. In
Chromium, at phone and desktop width and in both languages, choosing a character (pointer or keyboard)
colours the earlier characters with exactly the exported weights of the chosen layer and head (or their
average) and redraws the heatmaps; the colours are the same in the light and the dark theme.
"""

from __future__ import annotations

import json
import re

import pytest

from browser import build, chromium
from browser.build import LANGS, page_url
from browser.server import SiteServer
from browser.visit import Tab
from course_pages import ROOT
from test_attention_maps import problems_of

PAGE = "attention-explorer.md"
DATA = "assets/explorer/attention.json"
SCRIPT = ROOT / "docs" / "assets" / "javascripts" / "explorer.js"
CJK = re.compile(r"[\u3400-\u9fff]")


@pytest.fixture(scope="module")
def site():
    return build.built_site()


def html(site, lang: str, page: str = PAGE) -> str:
    return (site / page_url(lang, page) / "index.html").read_text(encoding="utf-8")


# ---- the built site ---------------------------------------------------------------------------------

def test_the_data_is_in_the_site_and_is_an_export(site):
    data = json.loads((site / DATA).read_text(encoding="utf-8"))
    assert data["format"] == "minigpt-attention" and data["poems"]
    assert {p["kind"] for p in data["poems"]} == {"model", "real"}
    assert problems_of(data) == []
    assert (site / DATA).stat().st_size < 400_000  # the page stays light


@pytest.mark.parametrize("lang", LANGS)
def test_script_and_styles_come_from_the_site_only_on_the_explorer_page(site, lang):
    page = html(site, lang)
    base = site / page_url(lang, PAGE)
    for tag, name in (("script", "explorer.js"), ("link", "explorer.css")):
        found = re.findall(rf'<{tag}\b[^>]*(?:src|href)="([^"]*{re.escape(name)})"', page)
        assert len(found) == 1 and not found[0].startswith(("http:", "https:", "//")), found
        assert (base / found[0]).resolve().is_file(), found[0]
    assert "explorer.js" not in html(site, lang, "index.md")  # control: other pages do not load it


@pytest.mark.parametrize("lang", LANGS)
def test_every_label_the_script_reads_is_on_the_page_in_its_language(site, lang):
    keys = sorted(set(re.findall(r"\btext\.(\w+)", SCRIPT.read_text(encoding="utf-8"))))
    assert len(keys) > 10
    root = re.search(r'<div class="attn-explorer"([^>]*)>', html(site, lang)).group(1)
    attrs = dict(re.findall(r'data-([\w-]+)="([^"]*)"', root))
    for key in keys:
        attr = re.sub(r"[A-Z]", lambda m: "-" + m.group(0).lower(), key)
        assert attr in attrs, f"docs/{lang}/{PAGE}: no data-{attr} on the explorer"
        words = re.sub(r"\{\w+\}|assets/\S+|[\d.]+|KiB", "", attrs[attr])
        assert bool(CJK.search(words)) == (lang == "zh"), f"data-{attr} is not in {lang}: {attrs[attr]!r}"


# ---- in a browser -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def browser():
    sync_playwright = chromium.require_playwright()
    with sync_playwright() as playwright:
        instance = chromium.launch(playwright)
        yield instance
        instance.close()


@pytest.fixture(scope="module")
def server(browser, site):
    with SiteServer(site, build.site_path()) as instance:
        yield instance


STATE = """() => ({
  weights: [...document.querySelectorAll(".attn-tok")].map((t) => t.dataset.weight ?? null),
  backgrounds: [...document.querySelectorAll(".attn-tok")].map((t) => getComputedStyle(t).backgroundColor),
  current: [...document.querySelectorAll(".attn-tok")].findIndex((t) => t.classList.contains("attn-current")),
  focused: document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.k ?? null : null,
  maps: [...document.querySelectorAll(".attn-map")].map((c) => c.toDataURL()),
  caption: document.querySelector(".attn-caption").textContent,
  heads: [...document.querySelectorAll(".attn-field[role=group]")].map((g) => g.textContent),
  meta: document.querySelector(".attn-meta").textContent,
  model: document.querySelector(".attn-model").textContent,
  scrollWidth: document.documentElement.scrollWidth, viewport: document.documentElement.clientWidth,
})"""


def expected(data: dict, poem: int, layer: int, head: int | None, k: int) -> list:
    """What the page must show on tokens 0..k-1 while token k is chosen: row k - 1 of the export."""
    heads = data["poems"][poem]["attn"][layer]
    rows = [h[k - 1] for h in heads] if head is None else [heads[head][k - 1]]
    scale = data["scale"]
    return [f"{sum(r[j] for r in rows) / len(rows) / scale:.3f}" for j in range(k)]


def open_explorer(browser, server, lang: str, width: int, scheme: str = "light") -> Tab:
    tab = Tab(browser, server, width, scheme=scheme)
    visit = tab.open(page_url(lang, PAGE))
    tab.page.wait_for_selector(".attn-explorer[data-ready]")
    assert visit.data["status"] == 200
    return tab


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("lang", LANGS)
def test_choosing_a_character_shows_its_exported_weights(browser, server, site, lang, width):
    data = json.loads((site / DATA).read_text(encoding="utf-8"))
    tab = open_explorer(browser, server, lang, width)
    page = tab.page
    first = page.evaluate(STATE)
    poem = data["poems"][0]
    sep = len(poem["tokens"]) - 1 - poem["tokens"][::-1].index("<sep>")
    assert first["current"] == sep + 1  # the poem's first character is chosen to start with
    assert first["weights"][: sep + 1] == expected(data, 0, 0, None, sep + 1)
    assert poem["command"] in first["meta"] and data["model"]["name"] in first["model"]
    assert str(data["model"]["step"]) in first["model"]

    # a character further on, in the last layer and head 2: its weights, and the maps redrawn
    L = data["model"]["n_layer"] - 1
    page.locator(".attn-field[role=group]").nth(0).locator("button").nth(L).click()
    page.locator(".attn-field[role=group]").nth(1).locator("button").nth(2).click()  # [average, head 1, head 2...]
    k = sep + 4
    page.locator(f".attn-tok[data-k='{k}']").click()
    chosen = page.evaluate(STATE)
    assert chosen["current"] == k
    assert chosen["weights"][:k] == expected(data, 0, L, 1, k)
    assert chosen["weights"][k:] == [None] * (len(poem["tokens"]) - k)  # later characters: nothing
    assert expected(data, 0, L, 1, k) != expected(data, 0, L, 1, k + 1)[:k]  # control: rows differ
    assert chosen["maps"] != first["maps"]
    assert poem["tokens"][k] in chosen["caption"]

    # the keyboard: the chosen character has the focus, the arrow key moves to the next one
    page.keyboard.press("ArrowRight")
    moved = page.evaluate(STATE)
    assert moved["current"] == k + 1 and moved["focused"] == str(k + 1)
    assert moved["weights"][: k + 1] == expected(data, 0, L, 1, k + 1)

    # the interface speaks the page's language; nothing sticks out at phone width
    assert all(bool(CJK.search(text)) == (lang == "zh") for text in moved["heads"])
    assert moved["scrollWidth"] <= moved["viewport"]

    # another poem: a real one, with its title
    real = next(i for i, p in enumerate(data["poems"]) if p["kind"] == "real")
    page.select_option(".attn-poem-select", str(real))
    other = page.evaluate(STATE)
    assert data["poems"][real]["title"] in other["meta"]
    assert len(other["weights"]) == len(data["poems"][real]["tokens"])
    errors = tab.console_errors + tab.failed + tab.foreign
    tab.close()
    assert not errors, errors


def test_the_weights_have_the_same_colours_in_the_dark_theme(browser, server):
    colours = {}
    for scheme in ("light", "dark"):
        tab = open_explorer(browser, server, "zh", 1280, scheme)
        tab.page.locator(".attn-tok[data-k='9']").click()
        state = tab.page.evaluate(STATE)
        colours[scheme] = (state["backgrounds"], state["maps"])
        tab.close()
    assert colours["light"] == colours["dark"]
    assert len(set(colours["light"][0])) > 3  # control: the tokens are not all one colour
