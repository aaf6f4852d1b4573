"""Single-threaded BLAS for the tests: the engine's matrices are tiny, and on a busy 2-core machine
OpenBLAS's spinning worker threads make them many times slower. Must run before numpy is imported."""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
# The graders' tests read str(result) in English, whatever the tester's locale (minigpt_course.checks.language);
# tests/test_report_language.py clears this to test the rule itself.
os.environ["MINIGPT_LANG"] = "en"


def pytest_configure(config):
    """Record every report the lessons' graders write in this run (tests/hint_recorder.py), so that
    tests/test_zh_check_reports.py, which runs after the grader and workbook tests, reads them instead of
    running those tests a second time."""
    import hint_recorder

    hint_recorder.pytest_configure(config)
