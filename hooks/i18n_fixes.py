"""Where Material and mkdocs-static-i18n disagree, and the site as readers get it suffers.

An mkdocs hook (mkdocs.yml, `hooks:`); the browser tests (tests/test_browser.py) check each effect.

- Language links: the i18n plugin gives the home pages' language switcher links from the server
  root (`/minigpt/en/`, from site_url), which break wherever the site is served from another
  folder. They are made relative, like every other page's.
- Head alternates: Material's bundle fetches `sitemap.xml` beside every `<link rel="alternate">`
  in a page's head, expecting each to be a language's root; the i18n plugin points them at the
  page's twin, so every page asked for a `<twin>/sitemap.xml` that does not exist. The hreflang
  pairs are in the i18n plugin's sitemap, and the switcher links to the twin itself: the head
  links go.
- Search: the i18n plugin writes one index for all languages; each language also gets its own,
  `search/search_index.<lang>.json`, which docs/assets/javascripts/search.js loads instead, and
  in which lessons outrank the overview pages.
- Interface text: a heading's permalink gets its title from `extra.permalink_title` of the page's
  language (mkdocs.yml), not Python-Markdown's English one; the search dialog is named after the
  search box, as screen readers need.
- 404 pages: each language build writes the theme's 404.html to the site root, so the last
  language built won. The default language's stays at the root (GitHub Pages serves only
  that one, for every missing address); each other language's goes to `<lang>/404.html`.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from urllib.parse import urlsplit

from mkdocs import utils
from mkdocs.plugins import event_priority

# Search weight of a page that is not a lesson (home, setup, glossary): a word a lesson teaches
# should find that lesson first, not the course map or the glossary that lists it too.
OVERVIEW_BOOST = 0.5
HEAD_ALTERNATE = re.compile(r'\s*<link rel="alternate" href="[^"]*" hreflang="[^"]*">')
PERMALINK = re.compile(r'(<a class="headerlink" href="[^"]*" title=")[^"]*(")')
SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'
SEARCH_LABEL = re.compile(r'<input type="text" class="md-search__input"[^>]* aria-label="([^"]*)"')


def _languages(config) -> list:
    i18n = config.plugins.get("i18n")
    return [lang for lang in i18n.config.languages if lang.build] if i18n else []


def _relative_alternates(config, homes: bool = False) -> None:
    """Language links from the server root become relative ones (`homes`: each language's home,
    from the server root, as a page served at any address needs)."""
    site_path = urlsplit(config.site_url or "/").path.rstrip("/") + "/"
    links = {lang.locale: lang.link for lang in _languages(config)}
    # the i18n plugin sets `config.extra.alternate` as an attribute, which is what templates read
    for alt in getattr(config.extra, "alternate", None) or []:
        if homes:
            alt["link"] = site_path + links.get(alt["lang"], alt["link"]).lstrip("/")
        elif alt["link"].startswith(site_path):
            alt["link"] = alt["link"][len(site_path):] or "./"


def _drop_head_alternates(html: str) -> str:
    head, sep, body = html.partition("</head>")
    return HEAD_ALTERNATE.sub("", head) + sep + body


def _name_search_dialog(html: str) -> str:
    label = SEARCH_LABEL.search(html)
    if not label:
        return html
    return html.replace(SEARCH_DIALOG, SEARCH_DIALOG[:-1] + f' aria-label="{label.group(1)}">', 1)


def on_page_content(html, page, config, files):
    title = config.extra.get("permalink_title")
    return PERMALINK.sub(lambda m: m.group(1) + title + m.group(2), html) if title else html


def on_page_context(context, page, config, nav):
    _relative_alternates(config)  # runs after the i18n plugin's own on_page_context (priority 50)
    return context


def on_post_page(output, page, config):
    return _name_search_dialog(_drop_head_alternates(output))


def on_template_context(context, template_name, config):
    if template_name == "404.html":
        _relative_alternates(config, homes=True)  # not the twins of the last page built
    return context


def on_post_template(output, template_name, config):
    if template_name != "404.html":
        return output
    output = _name_search_dialog(_drop_head_alternates(output))
    lang = next((lang for lang in _languages(config) if lang.locale == config.theme["language"]), None)
    if lang is None or lang.default:
        return output
    utils.write_file(output.encode("utf-8"), os.path.join(config.site_dir, lang.link.strip("/"), "404.html"))
    return ""  # an empty output is not written: the root keeps the default language's page


@event_priority(-200)  # after the i18n plugin's own on_post_build, which writes the whole index
def on_post_build(config):
    i18n = config.plugins.get("i18n")
    if i18n is None or i18n.building:  # a language built inside the i18n plugin's loop
        return
    path = Path(config.site_dir) / "search" / "search_index.json"
    index = json.loads(path.read_text(encoding="utf-8"))
    folders = {lang.locale: lang.link.strip("/") + "/" for lang in _languages(config) if not lang.default}

    def language(doc):
        return next((locale for locale, folder in folders.items() if doc["location"].startswith(folder)), None)

    for lang in _languages(config):
        folder = "" if lang.default else folders[lang.locale]
        docs = [dict(doc) for doc in index["docs"] if language(doc) == (None if lang.default else lang.locale)]
        for doc in docs:  # lessons live in a part's folder; the overview pages mention every term
            if "/" not in doc["location"][len(folder):].split("#")[0].strip("/"):
                doc["boost"] = OVERVIEW_BOOST * doc.get("boost", 1)
        # lunr loads a stemmer for each language listed; English pages need only English
        langs = [l for l in index["config"]["lang"] if l in ("en", lang.locale)]
        own = {**index, "config": {**index["config"], "lang": langs}, "docs": docs}
        out = path.with_name(f"search_index.{lang.locale}.json")
        out.write_text(json.dumps(own, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
