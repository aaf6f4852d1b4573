"""The home page's course map promises only what exists: every written lesson is linked from it, in course
order, in both languages, and an item marked "not written yet" has no page behind it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from minigpt_course import lessons

ROOT = Path(__file__).resolve().parents[1]
UNWRITTEN = {"zh": "（还没写）", "en": "(not written yet)"}
ITEM = re.compile(r"^(?:\d+\.|-|Lesson \d+ ·|第 \d+ 课 ·)\s")


def map_items(lang: str) -> list[str]:
    """The lines of the home page's course map section that name a lesson or a lab."""
    text = (ROOT / "docs" / lang / "index.md").read_text(encoding="utf-8")
    section = text[text.index("{ #course-map }"):]
    section = section[: section.index("\n## ", 1)]
    return [line for line in section.splitlines() if ITEM.match(line)]


def linked_pages(lines: list[str]) -> list[str]:
    return [m for line in lines for m in re.findall(r"\]\(([\w/.-]+\.(?:md|ipynb))(?:#[\w-]+)?\)", line)]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_written_lesson_is_linked_from_the_map_in_course_order(lang):
    written = [lesson.page for lesson in lessons.lessons(ROOT) if lesson.slug != "setup"]
    linked = [p for p in linked_pages(map_items(lang)) if p in written]
    assert linked == written, f"docs/{lang}/index.md's course map should link every written lesson, in order"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_map_item_is_either_linked_or_not_written_yet(lang):
    for line in map_items(lang):
        pages = linked_pages([line])
        if UNWRITTEN[lang] in line:
            assert not pages, f"marked unwritten but linked: {line}"
        else:
            assert pages, f"neither linked nor marked {UNWRITTEN[lang]}: {line}"
            for page in pages:
                assert (ROOT / "docs" / lang / page).is_file(), f"{line}: no docs/{lang}/{page}"


def test_the_check_sees_a_lesson_missing_from_the_map():
    """Control: a map without lesson 10's link fails the first check."""
    written = [lesson.page for lesson in lessons.lessons(ROOT) if lesson.slug != "setup"]
    items = [line for line in map_items("en") if "attention/multi-head.md" not in line]
    assert [p for p in linked_pages(items) if p in written] != written
