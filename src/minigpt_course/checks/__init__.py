"""Checks for the lessons' "write it yourself" exercises, one module per lesson, named after its slug
(``minigpt_course.checks.storage`` for ``tensor/storage``, ``minigpt_course.checks.multi_head`` for
``attention/multi-head``). Every check is a ``check_<what>(fn, ...)`` that takes the reader's function
or class and returns a ``Result``: passed or not, and its lines as ``Message``s, a key and the values it
fills in. Words come last: ``Result.render(lang)`` looks each key up in its module's ``MESSAGES`` (the
catalogue: every message in English and Chinese, the terms of docs/<lang>/glossary.md) and formats it;
``str(result)`` (what a lesson's script prints) speaks the reader's language, chosen by ``language()``, the
one rule that ``minigpt check`` follows too. An exception the reader's code raises (a failed ``assert`` too) becomes
the same kind of result (``reader_errors``): what was expected, the error, and the reader's line it came
from, never a bare traceback.

A module that grades a workbook lesson declares it in one place, its ``LESSON``: the lesson's slug, the
workbook files it starts, the pieces it introduces, and its checks, each with the section to reread.
"""

from __future__ import annotations

import functools
import importlib
import os
import pkgutil
import re
import string
import traceback
from dataclasses import dataclass, field
from inspect import getsourcefile  # not "import inspect": the submodule .inspect (train/inspect) takes that name
from pathlib import Path
from typing import Callable

import numpy as np

import minigpt

OURS = (Path(minigpt.__file__).resolve().parent, Path(__file__).resolve().parents[1])  # the library, the course
LANGS = ("en", "zh")
LANG_VAR = "MINIGPT_LANG"  # zh or en: the reader's choice, over the locale
BOTH_VAR = "MINIGPT_BOTH_LANGS"  # set by the page runner only: str(result) frames both renderings (``framed``)
FRAME = re.compile("\x02(.*?)\x1f(.*?)\x03", re.S)  # \x02 English \x1f Chinese \x03


def language(lang: str | None = None) -> str:
    """The language a report speaks, for ``minigpt check`` and for ``print(result)`` in a lesson's script alike:
    ``lang`` when given (``--lang``); else ``$MINIGPT_LANG`` (``zh`` or ``en``); else Chinese when the locale is
    Chinese (the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set starts with ``zh``); else English."""
    if lang is not None:
        if lang not in LANGS:
            raise ValueError(f"--lang must be zh or en, got {lang!r}")
        return lang
    chosen = os.environ.get(LANG_VAR, "").strip()
    if chosen:
        if chosen not in LANGS:
            raise ValueError(f"{LANG_VAR} must be zh or en, got {chosen!r}")
        return chosen
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


def framed(text: str, lang: str) -> str:
    """``text`` (what a script printed with ``$MINIGPT_BOTH_LANGS`` set) as a reader of ``lang`` sees it: each
    framed report replaced by its rendering in that language; text without frames is returned as it is."""
    return FRAME.sub(lambda m: m.group(1 + LANGS.index(lang)), text)


# the messages every check shares, and the workbook's own: key -> (English, Chinese)
MESSAGES = {
    "your_function": ("your function", "你的函数"),
    "your_optimiser": ("your optimiser", "你的优化器"),
    "not_yet": ("{name}: not yet", "{name}：还没通过"),
    "expected": ("  expected {what}", "  期望     {what}"),
    "got": ("  got      {what}", "  得到     {what}"),
    "got_error": ("  got      {error}{where}", "  得到     {error}{where}"),
    "expected_in": ("    expected {what}", "    期望     {what}"),
    "got_in": ("    got      {what}", "    得到     {what}"),
    "got_error_in": ("    got      {error}{where}", "    得到     {error}{where}"),
    "at": (" (line {line} of {file}: {code})", "（{file} 第 {line} 行：{code}）"),
    "at_line": (" (line {line} of {file})", "（{file} 第 {line} 行）"),
    "known_mistake": ("  it matches a known mistake: {mistake}", "  和一个常见错误吻合：{mistake}"),
    "hint": ("  {hint}", "  {hint}"),
    # the workbook's lines (minigpt_course.workbook)
    "missing": ("{file} has no {piece} yet: lesson {lesson} adds it", "{file} 里还没有 {piece}：第 {lesson} 课会写它"),
    "nofile": ("{file} does not exist in {dir}: run minigpt workbook init",
               "{dir} 里没有 {file}：先运行 minigpt workbook init"),
    "import": ("{file} does not import: {where}{error}", "{file} 导入失败：{where}{error}"),
    "raised": ("your code raised {where}{error}", "你的代码抛出异常 {where}{error}"),
    "reread": ("  reread: lesson {lesson}, “{section}” (#{anchor})", "  重读：第 {lesson} 课「{section}」一节（#{anchor}）"),
}


@dataclass(frozen=True)
class Message:
    """One line (or part of one) of a report: ``key`` names its templates, ``"storage.reverse"`` in
    ``minigpt_course.checks.storage.MESSAGES`` or ``"not_yet"`` in this module's; ``values`` fill them in (a value
    that is a Message is rendered in the same language, a tuple of them joined by commas)."""

    key: str
    values: dict = field(default_factory=dict)

    def render(self, lang: str = "en", **context) -> str:
        values = {k: _render(v, lang, context) for k, v in self.values.items()}
        return template(self.key, lang).format(**{**context, **values})


@dataclass(frozen=True)
class Section:
    """A section of a lesson's page, rendered as its heading in the reader's language (``#anchor`` when the
    repository's pages cannot be read)."""

    slug: str
    anchor: str

    def render(self, lang: str) -> str:
        from minigpt_course import lessons

        heading = re.compile(rf"^#{{1,6}}\s+(.*?)\s*\{{ #{re.escape(self.anchor)} \}}\s*$", re.M)
        try:
            root = lessons.repo_root()
            page = next(lesson.page for lesson in lessons.lessons(root) if lesson.slug == self.slug)
            found = heading.search((root / "docs" / lang / page).read_text(encoding="utf-8"))
        except (FileNotFoundError, StopIteration):
            found = None
        return found.group(1) if found else f"#{self.anchor}"


def _render(value, lang: str, context: dict):
    if isinstance(value, Section):
        return value.render(lang)
    if isinstance(value, Message):
        return value.render(lang, **context)
    if isinstance(value, tuple) and value and all(isinstance(v, Message) for v in value):
        return ", ".join(v.render(lang, **context) for v in value)
    return value


def template(key: str, lang: str) -> str:
    """The ``lang`` template of a message key, from the catalogue of the module the key names."""
    module, _, short = key.rpartition(".")
    table = importlib.import_module(f"{__name__}.{module}").MESSAGES if module else MESSAGES
    return table[short][LANGS.index(lang)]


def speaker(module: str) -> Callable[..., Message]:
    """``say = speaker(__name__)`` in a check module: ``say("reverse", shape=...)`` is its message "reverse"."""
    prefix = module.rpartition(".")[2]

    def say(key: str, **values) -> Message:
        return Message(f"{prefix}.{key}", values)

    return say


@dataclass(frozen=True)
class Result:
    """What a check found: ``passed``, and the report's lines, its first the head ("<name>: not yet", or
    "<name>: passed (...)"). ``name`` is what was checked: the reader's function, or a Message."""

    name: str | Message
    passed: bool
    lines: tuple[Message, ...]

    @property
    def keys(self) -> list[str]:
        """The message keys of every line, nested values included."""
        out, todo = [], list(self.lines) + ([self.name] if isinstance(self.name, Message) else [])
        while todo:
            m = todo.pop(0)
            out.append(m.key)
            for v in m.values.values():
                todo.extend(x for x in (v if isinstance(v, tuple) else (v,)) if isinstance(x, Message))
        return out

    def render(self, lang: str = "en") -> str:
        name = self.name.render(lang) if isinstance(self.name, Message) else self.name
        return "\n".join(line.render(lang, name=name) for line in self.lines)

    def __str__(self) -> str:
        if os.environ.get(BOTH_VAR):  # the page runner: one run for both pages, split by ``framed``
            return f"\x02{self.render('en')}\x1f{self.render('zh')}\x03"
        return self.render(language())


def passed(name, line: Message) -> Result:
    return Result(name, True, (line,))


def not_yet(name, *lines: Message) -> Result:
    return Result(name, False, (Message("not_yet"), *lines))


def name_of(fn, default: str = "your_function") -> str | Message:
    """The reader's function's name, or "your function" in the reader's language."""
    return getattr(fn, "__name__", None) or Message(default)


def catalogue() -> dict[str, dict[str, str]]:
    """Every message of every check module: key -> {language: template}."""
    out = {key: dict(zip(LANGS, texts)) for key, texts in MESSAGES.items()}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for key, texts in getattr(module, "MESSAGES", {}).items():
            out[f"{info.name}.{key}"] = dict(zip(LANGS, texts))
    return out


def fields(template_text: str) -> set[str]:
    """The placeholders a template fills in (their names, without format specs)."""
    return {re.split(r"[.\[]", f)[0] for _, f, _, _ in string.Formatter().parse(template_text) if f is not None}


# ---- lessons -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Check:
    """One workbook check of a lesson: ``grade(workbook)`` takes the reader's pieces from the workbook
    (``workbook.get(file, piece)``) and returns a Result; ``reread`` is the section of the lesson's page
    (its anchor) to reread when it fails."""

    name: str
    reread: str
    grade: Callable


@dataclass(frozen=True)
class Lesson:
    """A lesson's workbook checks, declared in its check module as ``LESSON``."""

    slug: str
    checks: tuple[Check, ...]
    starts: dict = field(default_factory=dict)  # the workbook files it starts: file -> (what it holds, en, zh)
    introduces: tuple = ()  # (file, piece): the pieces it asks for, named when a later lesson misses them


def lesson(slug: str) -> Lesson | None:
    """The workbook checks of a lesson: the ``LESSON`` of the module named after its slug, or None."""
    name = slug.replace("-", "_")
    if not name.isidentifier() or not (Path(__file__).parent / f"{name}.py").is_file():
        return None
    return getattr(importlib.import_module(f"{__name__}.{name}"), "LESSON", None)


def lessons() -> list[Lesson]:
    """Every lesson with workbook checks, by module name."""
    found = [lesson(info.name.replace("_", "-")) for info in pkgutil.iter_modules(__path__)]
    return [x for x in found if x is not None]


def where(error: BaseException, prefer: str | None = None) -> Message | str:
    """`` (line 12 of gpt.py: y = att @ v)``: the deepest line in the file ``prefer`` (where the reader's
    function lives), else the deepest outside minigpt that is not a ``raise`` (the line that went wrong,
    not the shape check that caught it), else the deepest outside minigpt; "" when every line is minigpt's."""
    frames = [f for f in traceback.extract_tb(error.__traceback__)
              if not any(ours in Path(f.filename).resolve().parents for ours in OURS)]
    if isinstance(error, SyntaxError) and error.filename:
        return Message("at_line", {"line": error.lineno, "file": Path(error.filename).name})
    if not frames:
        return ""
    mine = [f for f in frames if prefer and Path(f.filename).resolve() == Path(prefer).resolve()]
    calls = [f for f in frames if not (f.line or "").startswith("raise")]
    f = (mine or calls or frames)[-1]
    return Message("at", {"line": f.lineno, "file": Path(f.filename).name, "code": f.line})


def error_text(error: BaseException) -> str:
    """``IndexError: tuple index out of range``: the exception as the reader would read it."""
    message = " ".join(str(error).split())
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


def raised(name, expected: Message, error: BaseException, prefer: str | None = None) -> Result:
    """The result for an exception of the reader's code: what was expected, the error, where it arose."""
    return not_yet(name, Message("expected", {"what": expected}),
                   Message("got_error", {"error": error_text(error), "where": where(error, prefer)}))


def source_file(obj) -> str | None:
    try:
        return getsourcefile(obj)
    except TypeError:
        return None


def reader_errors(expected: str):
    """Decorate a ``check_<what>(fn, ...)``: an exception from the reader's ``fn`` (or anything it calls)
    becomes a "not yet" result saying ``expected`` (the key of the check module's message for what ``fn``
    should do, in the lesson's terms) and what was raised instead, at which line of the reader's file."""

    def decorate(check):
        key = f"{check.__module__.rpartition('.')[2]}.{expected}"

        @functools.wraps(check)
        def wrapped(fn, *args, **kwargs):
            try:
                return check(fn, *args, **kwargs)
            except Exception as e:  # the reader's error, beside what was expected
                name = kwargs.get("name") or name_of(fn)
                return raised(name, Message(key), e, source_file(fn))

        return wrapped

    return decorate


def int_tuple(got) -> tuple[int, ...] | None:
    """A reader's shape or strides as a tuple of ints, or None when it is not a sequence of whole numbers."""
    try:
        values = tuple(got)
    except TypeError:
        return None
    if not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in values):
        return None
    return tuple(int(v) for v in values)


def show(values, digits: int = 4, decimals: int | None = None) -> str:
    """Numbers as a reader writes them, for a report: ``[-2, -0.5, 0, 0.07065]``, nested lists for arrays,
    a bare number for a scalar. Whole numbers as integers; others to ``digits`` significant digits, or to
    ``decimals`` decimals when given, without numpy's padding or an exponent; -0 as 0; inf and nan as is."""

    def number(v: float) -> str:
        if not np.isfinite(v):
            return str(v)
        if v == round(v) and abs(v) < 1e15:
            return str(int(v))
        if decimals is not None:
            text = np.format_float_positional(v, precision=decimals, fractional=True, trim="-")
        else:
            text = np.format_float_positional(v, precision=digits, fractional=False, trim="-")
        return "0" if text == "-0" else text

    def nested(a: np.ndarray) -> str:
        return number(float(a)) if a.ndim == 0 else "[" + ", ".join(nested(row) for row in a) + "]"

    return nested(np.asarray(values, dtype=np.float64))
