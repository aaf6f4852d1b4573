"""Source-level rules for every course page (the code blocks themselves run from conftest.py)."""

import re

import pytest
import yaml

from course_pages import DOCS, LANGS, LESSONS, ROOT, Site, pages, read_page
from minigpt_course.lessons import nav_pages

ALL_PAGES = [f"{lang}/{p}" for lang in LANGS for p in pages(lang)]
ANCHOR_OK = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef“”‘’—…·]")
SITE = Site()


@pytest.mark.parametrize("page", ALL_PAGES)
def test_every_heading_has_an_explicit_english_anchor(page):
    src = read_page(DOCS / page, SITE)
    problems, seen = [], {}
    for line, _level, text, anchor in src.headings():
        if anchor is None:
            problems.append(f"{src.rel}:{line}: heading {text!r} has no anchor; write it as `{text} {{ #some-anchor }}`")
        elif not ANCHOR_OK.match(anchor):
            problems.append(f"{src.rel}:{line}: anchor #{anchor} should be lowercase English words joined by '-'")
        elif anchor in seen:
            problems.append(f"{src.rel}:{line}: anchor #{anchor} already used on line {seen[anchor]}")
        else:
            seen[anchor] = line
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("page", [p for p in ALL_PAGES if p.startswith("zh/")])
def test_chinese_paragraphs_are_not_hard_wrapped(page):
    # A line break between two Chinese characters renders as a stray space in the browser.
    src = read_page(DOCS / page, SITE)
    prose = dict(src.prose)
    problems = []
    for n, line in src.prose:
        nxt = prose.get(n + 1)
        if nxt is None or not line.strip() or not nxt.strip():
            continue
        if re.match(r"\s*([-*+] |\d+\. |#|\||!!!|\?\?\?|<!--|\\\[|\\\])", nxt) or line.lstrip().startswith("|"):
            continue
        if CJK.match(line.rstrip()[-1]) and CJK.match(nxt.strip()[0]):
            problems.append(f"{src.rel}:{n}: a Chinese sentence continues on line {n + 1}; join the lines")
    assert not problems, "\n".join(problems)


def _nav_files(items):
    for item in items:
        value = next(iter(item.values())) if isinstance(item, dict) else item
        if isinstance(value, list):
            yield from _nav_files(value)
        elif isinstance(value, str) and value.endswith(".md"):
            yield value


def _load_mkdocs_yml():
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)
    Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)
    return yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)


def test_every_page_is_in_the_nav_and_every_nav_entry_exists():
    nav = set(_nav_files(_load_mkdocs_yml()["nav"]))
    problems = []
    for lang in LANGS:
        for page in pages(lang):
            if page not in nav:
                problems.append(f"docs/{lang}/{page} is not in mkdocs.yml's nav")
        for entry in nav:
            if not (DOCS / lang / entry).exists():
                problems.append(f"mkdocs.yml's nav lists {entry}, but docs/{lang}/{entry} does not exist")
    assert not problems, "\n".join(problems)


def test_the_lesson_list_reads_the_nav_as_yaml_does():
    # minigpt lesson and the tests read the nav with a few lines of their own (the package needs no yaml)
    assert nav_pages(ROOT / "mkdocs.yml") == list(_nav_files(_load_mkdocs_yml()["nav"]))


def test_every_nav_title_has_an_english_translation():
    config = _load_mkdocs_yml()
    i18n = next(p["i18n"] for p in config["plugins"] if isinstance(p, dict) and "i18n" in p)
    en = next(lang for lang in i18n["languages"] if lang["locale"] == "en")
    translations = en.get("nav_translations") or {}

    def titles(items):
        for item in items:
            if isinstance(item, dict):
                (title, value), = item.items()
                yield title
                if isinstance(value, list):
                    yield from titles(value)

    missing = [t for t in titles(config["nav"]) if t not in translations]
    assert not missing, f"add these nav titles to the en nav_translations in mkdocs.yml: {missing}"


# A number a lesson's prose quotes from an output must be in one of the page's shown outputs (or its
# code): when the output changes, the test that compares it fails, and this one points at the prose
# that still quotes the old value. Checked: numbers with three or more significant digits (0.5939,
# 709.7827, 2.50e-11); rounder ones (0.13, a difference read off a table) are left to the reader. A number
# quoted from a run the tests cannot make, measured on a machine the page names, stands in the prose
# right after that run's norun block, before the next block that runs; later prose may repeat it.
QUOTED = re.compile(r"(?<![\w.])\d+\.\d+(?:e[-+]?\d+)?(?![\w.])")
LINK_TARGET = re.compile(r"\]\([^)]*\)")
VERSION = re.compile(r"\b(?:Python|numpy|PyTorch|torch)\s+\d+(?:\.\d+)+")  # "Python 3.10": a version, not an output
LESSON_PAGES = [f"{lang}/{lesson.page}" for lang in LANGS for lesson in LESSONS]


def _significant(number: str) -> int:
    return len(number.split("e")[0].replace(".", "").lstrip("0"))


def _value(number: str) -> str:
    """0.1250 and 0.125 are one value: the prose may drop the trailing zeros an output prints."""
    mantissa, e, exponent = number.partition("e")
    return (mantissa.rstrip("0").rstrip(".") if "." in mantissa else mantissa) + e + exponent


@pytest.mark.parametrize("page", LESSON_PAGES)
def test_numbers_in_the_prose_are_printed_by_the_page(page):
    src = read_page(DOCS / page, SITE)
    text = "\n".join((b.expected or "") + "\n" + "\n".join(SITE.expand(b.code)) for b in src.blocks)
    printed = {_value(x) for x in re.findall(r"\d+\.\d+(?:e[-+]?\d+)?|\d+", text)}
    runs = sorted(b.line for b in src.blocks if b.kind in ("script", "shell"))
    norun = [b.line for b in src.blocks if b.kind == "norun"]

    def after_a_norun_run(n: int) -> bool:
        return any(start < n and not any(start < r < n for r in runs) for start in norun)

    numbers = [(n, m.group(0)) for n, line in src.prose for m in QUOTED.finditer(VERSION.sub("", LINK_TARGET.sub("", line)))
               if _significant(m.group(0)) >= 3]
    measured = {x for n, x in numbers if after_a_norun_run(n)}
    problems = [f"{src.rel}:{n}: {x} is not in any output or code of this page; print it, or quote the output"
                for n, x in numbers if x not in measured and _value(x) not in printed]
    assert not problems, "\n".join(problems)
