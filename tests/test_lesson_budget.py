"""Every lesson's core path fits ../shared/LESSON.md's budget: at most about 5,500 non-space characters of
Chinese prose, about 2,800 English words and 12 scripts. The core path is the page without its code blocks
and without its folded blocks (``??? note "深入 / Going further"``, folded answers), which still run.

Lessons written before the budget that are still over it are listed in OVER_BUDGET and expected to fail
(strict: a listed lesson that fits fails the suite until it leaves the list)."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest
from course_pages import Site  # tools/: pymdownx's includes, as the site expands them

from minigpt_course import checks, lessons

ROOT = Path(__file__).resolve().parents[1]
MAX_ZH_CHARS = 5500
MAX_EN_WORDS = 2800
MAX_SCRIPTS = 12
OVER_BUDGET: set[str] = set()  # every lesson fits LESSON.md's budget

FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
FOLD = re.compile(r"^(\s*)\?\?\?\+? ")
SCRIPT = re.compile(r'--8<-- "snippets/[\w-]+/(\d\d_\w+)\.py"')


def core_path(text: str) -> tuple[str, list[str], list[str]]:
    """The prose a reader meets without opening a fold, the scripts that path runs (in page order), and the
    code it shows without running it (a section of src/ or of a lesson module: python blocks that run no script)."""
    prose, scripts, listings = [], [], []
    fence, fold, body = None, None, None
    for line in text.splitlines():
        indent = len(line) - len(line.lstrip())
        if fold is not None:
            if not line.strip() or indent > fold:
                continue
            fold = None
        if fence:
            if line.strip().startswith(fence):
                if body is not None and not any(SCRIPT.search(b) for b in body):
                    listings.append("\n".join(body))
                fence = None
            elif (m := SCRIPT.search(line)) and m.group(1) not in scripts:
                scripts.append(m.group(1))
            if body is not None:
                body.append(line)
            continue
        if m := FENCE.match(line):
            fence = m.group(1)
            body = [] if line.strip()[len(fence):].strip().split(" ")[0] in ("python", "py") else None
        elif m := FOLD.match(line):
            fold = len(m.group(1))
        else:
            prose.append(line)
    text = "\n".join(prose)
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    text = re.sub(r"\]\([^)]*\)", "]", text)  # a link's target is not prose
    text = re.sub(r"\{ #[\w-]+ \}", "", text)
    text = re.sub(r"`[^`\n]*`", "", text)
    return text, scripts, listings


def measure(lesson: lessons.Lesson) -> dict:
    zh, scripts, listings = core_path((ROOT / "docs" / "zh" / lesson.page).read_text(encoding="utf-8"))
    en, _, _ = core_path((ROOT / "docs" / "en" / lesson.page).read_text(encoding="utf-8"))
    shown = sum(1 for code in listings for line in site().expand(code) if line.strip())
    return {"zh chars": len(re.sub(r"\s", "", zh)), "en words": len(en.split()), "scripts": len(scripts),
            "listing lines": shown}


@functools.cache
def site() -> Site:
    return Site(ROOT)


LESSONS = [lesson for lesson in lessons.lessons(ROOT) if lesson.slug != "setup"]


@pytest.mark.parametrize("lesson", [
    pytest.param(lesson, id=lesson.slug,
                 marks=[pytest.mark.xfail(strict=True, reason="written before the budget")]
                 if lesson.slug in OVER_BUDGET else [])
    for lesson in LESSONS])
def test_core_path_fits_the_budget(lesson):
    got = measure(lesson)
    limits = {"zh chars": MAX_ZH_CHARS, "en words": MAX_EN_WORDS, "scripts": MAX_SCRIPTS}
    over = {k: f"{got[k]} > {limits[k]}" for k in limits if got[k] > limits[k]}
    assert not over, f"{lesson.page}'s core path is over budget: {over} (fold depth into 深入 / Going further)"


def test_over_budget_names_only_lessons():
    assert OVER_BUDGET <= {lesson.slug for lesson in LESSONS}


def test_folds_and_code_are_not_core_path():
    """Control: the same prose inside a fold or a code block leaves the core path."""
    page = "Words on the path.\n\n??? note \"Going further\"\n\n    Folded words here.\n\n```python\n" \
           '--8<-- "snippets/x/01_a.py"\n```\n\nBack on the path.\n'
    text, scripts, listings = core_path(page)
    assert text.split() == ["Words", "on", "the", "path.", "Back", "on", "the", "path."]
    assert scripts == ["01_a"]
    assert listings == []  # the one python block runs a script: nothing is shown without running


# The times a lesson states near its top are computed, not guessed, for the named reader (new to neural networks).
# First the time to work through it: its core path's English words at 150 a minute, three minutes for each script
# the path runs (reading its code and output, typing the command, running it, setting its output beside the
# page's), and the code the page shows from src/ and its lesson modules read line by line, 12 lines a minute.
# Then the time to read its main text straight through, folds left closed: the words at 200 a minute and a
# minute a script. Both rounded to the
# nearest 5 minutes; both languages state the same numbers, working time first (it is the one to plan by).
WORDS_PER_MINUTE = 200  # reading straight through
STUDY_WORDS_PER_MINUTE = 150  # working through
RUN_MINUTES = 3  # per script, working through
LISTING_LINES_PER_MINUTE = 12
STATED = {"en": re.compile(r"Time: about (?P<run>\d+) minutes to work through, running the scripts as you go; "
                           r"about (?P<read>\d+) to read, folds closed"),
          "zh": re.compile(r"用时：边读边跑脚本约 (?P<run>\d+) 分钟，只读正文约 (?P<read>\d+) 分钟")}


def reading_minutes(lesson: lessons.Lesson, run: bool = False) -> int:
    got = measure(lesson)
    if run:
        minutes = (got["en words"] / STUDY_WORDS_PER_MINUTE + RUN_MINUTES * got["scripts"]
                   + got["listing lines"] / LISTING_LINES_PER_MINUTE)
    else:
        minutes = got["en words"] / WORDS_PER_MINUTE + got["scripts"]
    return 5 * round(minutes / 5)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_the_stated_reading_time_is_the_computed_one(lesson):
    want = reading_minutes(lesson)
    for lang, stated in STATED.items():
        head = "\n".join((ROOT / "docs" / lang / lesson.page).read_text(encoding="utf-8").splitlines()[:20])
        m = stated.search(head)
        assert m, (f"docs/{lang}/{lesson.page} states no reading time near its top, in the form "
                   f"{STATED[lang].pattern!r}")
        assert int(m["read"]) == want, (f"docs/{lang}/{lesson.page} states {m['read']} minutes to read straight "
                                        f"through; its core path reads in about {want} (words / {WORDS_PER_MINUTE} "
                                        f"+ one per script)")
        hands_on = reading_minutes(lesson, run=True)
        assert int(m["run"]) == hands_on, (
            f"docs/{lang}/{lesson.page} states {m['run']} minutes to work through; its core path takes about "
            f"{hands_on} (words / {STUDY_WORDS_PER_MINUTE} + {RUN_MINUTES} per script + shown code lines / "
            f"{LISTING_LINES_PER_MINUTE})")


# Neither time counts writing the workbook: the pieces a lesson's checks grade (its check module's ``introduces``),
# which the reader writes in their own files. A lesson where that takes a quarter of an hour or more says so in a
# third clause, computed the same way: the reference's lines of code (the lesson module's, else the exercise
# answer's, else the library's top-level one; blank lines, comments and docstrings left out) at 2 a minute, typing, running
# `minigpt check` and mending what it finds. Smaller pieces are exercises, counted below and not timed.
WRITE_LINES_PER_MINUTE = 2
WRITE_STATED_FROM = 15  # minutes
WRITING = {"en": re.compile(r"folds closed; writing this lesson's workbook code yourself adds about (?P<write>\d+)"),
           "zh": re.compile(r"只读正文约 \d+ 分钟；自己写本课的练习本代码另需约 (?P<write>\d+) 分钟")}


def _code_lines(node: ast.AST, lines: list[str]) -> int:
    docs = set()
    for n in ast.walk(node):
        body = getattr(n, "body", None)
        if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            docs.update(range(body[0].lineno, body[0].end_lineno + 1))
    return sum(1 for i in range(node.lineno, node.end_lineno + 1)
               if i not in docs and lines[i - 1].strip() and not lines[i - 1].strip().startswith("#"))


def reference_lines(slug: str, piece: str) -> int:
    """Lines of code of ``piece`` ("Tensor", "Tensor.tanh") where the course writes it out for the reader, 0 for a
    piece no lesson module, answer script or top-level definition in src/minigpt holds."""
    name, _, method = piece.partition(".")
    folder = ROOT / "snippets" / slug
    modules = sorted(p for p in folder.glob("*.py") if not re.match(r"\d\d_", p.name))
    for path in modules + sorted(folder.glob("[0-9][0-9]_answer_*.py")) + sorted((ROOT / "src" / "minigpt").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for node in ast.parse(text).body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name == name:
                found = [node] if not method else [m for m in node.body
                                                   if isinstance(m, ast.FunctionDef) and m.name == method]
                if found:
                    return _code_lines(found[0], text.splitlines())
    return 0  # an exercise's piece, written in the exercise's own file: counted with the exercises, not timed


def writing_minutes(lesson: lessons.Lesson) -> float:
    graded = checks.lesson(lesson.slug)
    pieces = [piece for _, piece in graded.introduces] if graded else []
    whole = {piece for piece in pieces if "." not in piece}
    lines = sum(reference_lines(lesson.slug, piece) for piece in pieces if piece.split(".")[0] not in whole - {piece})
    return lines / WRITE_LINES_PER_MINUTE


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_the_stated_writing_time_is_the_computed_one(lesson):
    want = 5 * round(writing_minutes(lesson) / 5)
    for lang, stated in WRITING.items():
        head = "\n".join((ROOT / "docs" / lang / lesson.page).read_text(encoding="utf-8").splitlines()[:20])
        m = stated.search(head)
        if want < WRITE_STATED_FROM:
            assert not m, (f"docs/{lang}/{lesson.page} states {m['write']} minutes of workbook writing; its pieces' "
                           f"reference code takes about {want} (under {WRITE_STATED_FROM}: drop the clause)")
            continue
        assert m, (f"docs/{lang}/{lesson.page}'s time line states no workbook writing time; its pieces' reference code "
                   f"takes about {want} minutes at {WRITE_LINES_PER_MINUTE} lines a minute: add {stated.pattern!r}")
        assert int(m["write"]) == want, (f"docs/{lang}/{lesson.page} states {m['write']} minutes of workbook writing; "
                                         f"its pieces' reference code takes about {want}")


def test_writing_time_counts_code_not_docstrings():
    """Control: a docstring, a comment and blank lines are not code the reader types."""
    source = 'class A:\n    """Doc\n    string."""\n\n    # a note\n    def f(self):\n        return 1\n'
    assert _code_lines(ast.parse(source).body[0], source.splitlines()) == 3


# The home page adds them up for the whole course, in hours (to the nearest hour).
# The exercises are counted, not timed: they range from a two-minute question to an open evening's experiment.
COURSE_TOTAL = {"en": re.compile(r"about (?P<run>\d+) hours to work through, running the scripts as you go, or "
                                 r"about (?P<read>\d+) to read straight through; the (?P<exercises>\d+) exercises"),
                "zh": re.compile(r"边读边跑脚本约 (?P<run>\d+) 小时，只通读一遍约 (?P<read>\d+) 小时；"
                                 r"(?P<exercises>\d+) 道练习")}
WRITING_TOTAL = {"en": re.compile(r"writing your workbook adds about (?P<write>\d+) hours"),
                 "zh": re.compile(r"自己写练习本另需约 (?P<write>\d+) 小时")}
EXERCISE = {"en": re.compile(r"^\*\*Exercise \d+", re.M), "zh": re.compile(r"^\*\*练习 \d+", re.M)}


def test_the_home_page_states_the_course_total():
    reading = sum(reading_minutes(lesson) for lesson in LESSONS)
    hands_on = sum(reading_minutes(lesson, run=True) for lesson in LESSONS)
    for lang, stated in COURSE_TOTAL.items():
        exercises = sum(len(EXERCISE[lang].findall((ROOT / "docs" / lang / lesson.page).read_text(encoding="utf-8")))
                        for lesson in LESSONS)
        want = (round(reading / 60), round(hands_on / 60), exercises)
        m = stated.search((ROOT / "docs" / lang / "index.md").read_text(encoding="utf-8"))
        assert m, f"docs/{lang}/index.md states no total time for the course, in the form {stated.pattern!r}"
        writing = round(sum(writing_minutes(lesson) for lesson in LESSONS) / 60)
        w = WRITING_TOTAL[lang].search((ROOT / "docs" / lang / "index.md").read_text(encoding="utf-8"))
        assert w and int(w["write"]) == writing, (
            f"docs/{lang}/index.md should say that writing the workbook adds about {writing} hours, in the form "
            f"{WRITING_TOTAL[lang].pattern!r}")
        got = tuple(int(m[k]) for k in ("read", "run", "exercises"))
        assert got == want, (f"docs/{lang}/index.md states {got[0]} and {got[1]} hours and {got[2]} exercises; the "
                             f"lessons' stated times add up to {reading} and {hands_on} minutes ({want[0]} and "
                             f"{want[1]} hours) and they set {exercises} exercises")
