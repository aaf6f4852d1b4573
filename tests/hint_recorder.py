"""A pytest plugin (``-p hint_recorder``, with tests/ on the path; tests/conftest.py turns it on for every run)
that records every result the lessons' graders return while the grader tests run, for
tests/test_zh_check_reports.py: each ``check_*`` of every ``minigpt_course.checks`` module is wrapped before the test
modules import it, and each workbook check's results are recorded too (the workbook's own lines: a missing
piece, an import error, the section to reread). A result is recorded as its English and its Chinese; the
pairs go to the JSON file named by HINT_RECORD when the session ends."""

from __future__ import annotations

import functools
import importlib
import json
import os
import pkgutil

REPORTS: list[tuple[str, str]] = []  # (English, Chinese)
_configured = False


def _both(result) -> tuple[str, str] | None:
    from minigpt_course.checks import Result

    if isinstance(result, Result):
        return result.render("en"), result.render("zh")
    return None


def _recording(fn):
    @functools.wraps(fn)
    def wrapped(*args, **kwargs):
        result = fn(*args, **kwargs)
        pair = _both(result)
        if pair:
            REPORTS.append(pair)
        return result

    return wrapped


def pytest_configure(config):
    global _configured
    if _configured:  # both tests/conftest.py and ``-p hint_recorder`` may call it
        return
    _configured = True
    import minigpt_course.checks as checks
    from minigpt_course import workbook

    for info in pkgutil.iter_modules(checks.__path__):
        module = importlib.import_module(f"minigpt_course.checks.{info.name}")
        for name in dir(module):
            if name.startswith("check_") and callable(getattr(module, name)):
                setattr(module, name, _recording(getattr(module, name)))
    run_lesson = workbook.run_lesson

    def run_lesson_recorded(lesson, folder):
        results = run_lesson(lesson, folder)
        REPORTS.extend(_both(r) for r in results)
        return results

    workbook.run_lesson = run_lesson_recorded


def pytest_unconfigure(config):
    path = os.environ.get("HINT_RECORD")
    if path:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(sorted(set(REPORTS)), f, ensure_ascii=False, indent=0)
