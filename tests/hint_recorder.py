"""A pytest plugin (``-p hint_recorder``, with tests/ on the path; tests/conftest.py turns it on for every run)
that records every report the lessons' graders write while the grader tests run, for
tests/test_zh_check_reports.py: each ``check_*`` of every
``minigpt.checks`` module is wrapped before the test modules import it, and each workbook check is also run
in Chinese. The reports go to the JSON file named by HINT_RECORD when the session ends."""

from __future__ import annotations

import functools
import importlib
import json
import os
import pkgutil

REPORTS: list[str] = []
_configured = False


def _recording(fn):
    @functools.wraps(fn)
    def wrapped(*args, **kwargs):
        report = fn(*args, **kwargs)
        if isinstance(report, str):
            REPORTS.append(report)
        return report

    return wrapped


def pytest_configure(config):
    global _configured
    if _configured:  # both tests/conftest.py and ``-p hint_recorder`` may call it
        return
    _configured = True
    import minigpt.checks as checks
    from minigpt import workbook

    for info in pkgutil.iter_modules(checks.__path__):
        module = importlib.import_module(f"minigpt.checks.{info.name}")
        for name in dir(module):
            if name.startswith("check_") and callable(getattr(module, name)):
                setattr(module, name, _recording(getattr(module, name)))
    run_lesson = workbook.run_lesson

    def run_lesson_too_in_chinese(lesson, folder, lang):
        results = run_lesson(lesson, folder, lang)
        if lang != "zh":  # the workbook's own lines (missing piece, import error, reread) in Chinese too
            REPORTS.extend(report for _, ok, report in run_lesson(lesson, folder, "zh"))
        return results

    workbook.run_lesson = run_lesson_too_in_chinese


def pytest_unconfigure(config):
    path = os.environ.get("HINT_RECORD")
    if path:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(sorted(set(REPORTS)), f, ensure_ascii=False, indent=0)
