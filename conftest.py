"""Run the course pages (docs/**/*.md) and README.md as tests, the way a reader runs them.

Every page gives one ``conventions`` test (tools/course_pages.py says what it checks) and one test per
code block, named after the page line and what it includes:

    docs/zh/attention/multi-head.md::L42[snippets/multi-head/02_split_heads.py]

A script block runs as ``python snippets/<lesson>/NN_what.py`` from the repository root would, in a process
of its own (a fork of a warm interpreter that has imported numpy and torch: tools/fork_server.py); a shell
block runs under ``bash -euo pipefail``. Each distinct command runs once per session, in
parallel (MINIGPT_PAGE_JOBS processes, default: one per CPU), and every page that shows it (both
languages) is compared with that one output; a check report in it is read in the page's language
(``course_pages.seen_by``). A script that times itself (``course_pages.times_itself``)
is not started ahead: it runs when its block is checked, after the unit tests, with no other command
running (``course_pages.RunLock``), so that its timings measure it and not its neighbours. A shown block
(a section of a lesson module or of src/) is never run; a norun block is reported as skipped, with the
reason the reader sees.

This file lives at the repository root on purpose: a conftest.py under docs/ would be copied into the site.
"""

from __future__ import annotations

import os
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import course_pages  # tools/, on the path by pyproject.toml's pythonpath
import pytest

ROOT = Path(__file__).resolve().parent

TIMEOUT = int(os.environ.get("MINIGPT_BLOCK_TIMEOUT", "300"))
_site: course_pages.Site | None = None
_runs: dict[tuple[str, str], Future] = {}
_labs: dict[Path, Future] = {}  # docs/zh/labs/<lab>.ipynb -> its executed notebook (tools/labs.py)
_pool: ThreadPoolExecutor | None = None
_lock = course_pages.RunLock()


def pytest_configure(config):
    if getattr(config.option, "codeblocks", False):
        raise pytest.UsageError("--codeblocks runs pages without expanding their includes; "
                                "this repository's conftest.py runs them: use plain `python -m pytest`")


def pytest_collect_file(file_path: Path, parent):
    path = Path(file_path).resolve()
    if path.suffix == ".md" and (path == ROOT / "README.md" or ROOT / "docs" in path.parents):
        return CoursePage.from_parent(parent, path=file_path)
    return None


def pytest_collection_finish(session):
    """Start every lab run and every command the collected blocks need (labs first, then in page order)
    before the first one is checked: they run beside the unit tests, in processes of their own."""
    global _pool
    keys = [item.block.run_key for item in session.items if isinstance(item, BlockItem) and item.block.run_key]
    lab_paths = [ROOT / "docs" / "zh" / item.callspec.params["lab"] for item in session.items
                 if getattr(item, "originalname", "") == "test_a_lab_run_reproduces_its_stored_outputs"
                 and hasattr(item, "callspec")]
    if keys or lab_paths:
        _pool = ThreadPoolExecutor(int(os.environ.get("MINIGPT_PAGE_JOBS", 0)) or os.cpu_count() or 1)
        for path in lab_paths:
            _labs.setdefault(path, _pool.submit(_run_lab, path))
        for key in keys:
            if key not in _runs and not course_pages.times_itself(key, ROOT):
                _runs[key] = _pool.submit(_run_shared, key)


def _run_lab(path):
    import labs  # tools/

    with _lock.shared():
        return labs.execute_apart(path)


class LabRuns:
    """The executed labs, as the ``lab_runs`` fixture hands them to tests/test_labs.py."""

    def result(self, path):
        if path not in _labs:
            done = Future()
            done.set_result(_run_lab(path))
            _labs[path] = done
        return _labs[path].result()


@pytest.fixture(scope="session")
def lab_runs():
    return LabRuns()


def _run_shared(key):
    with _lock.shared():
        return course_pages.run(key, ROOT, TIMEOUT)


def _result(key):
    """What ``key``'s command printed: started ahead, or now, alone, for a script that times itself."""
    if key not in _runs:
        done = Future()
        with _lock.alone():
            done.set_result(course_pages.run(key, ROOT, TIMEOUT))
        _runs[key] = done
    return _runs[key].result()


def pytest_sessionfinish(session):
    if _pool is not None:
        _pool.shutdown(cancel_futures=True)


class Failure(Exception):
    """A block failed; the message is the whole report."""


class CoursePage(pytest.File):
    def collect(self):
        global _site
        _site = _site or course_pages.Site(ROOT)
        page = course_pages.read_page(self.path, _site)
        yield Conventions.from_parent(self, name="conventions", page=page)
        for block in page.blocks:
            if block.kind in ("script", "shell", "shown", "norun"):
                yield BlockItem.from_parent(self, name=block.name, block=block)


class Conventions(pytest.Item):
    def __init__(self, *, page, **kwargs):
        super().__init__(**kwargs)
        self.page = page

    def runtest(self):
        if self.page.problems:
            raise Failure(f"{self.page.rel}: {len(self.page.problems)} problem(s)\n" + "\n".join(self.page.problems))

    def repr_failure(self, excinfo):
        return str(excinfo.value) if isinstance(excinfo.value, Failure) else super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"{self.page.rel}::conventions"


class BlockItem(pytest.Item):
    def __init__(self, *, block, **kwargs):
        super().__init__(**kwargs)
        self.block = block

    def runtest(self):
        b = self.block
        if b.kind == "norun":
            pytest.skip(f"not run: {b.reason}")
        if b.kind == "shown":
            return  # displayed, never run; the conventions test checked that it is there and not empty
        problem = course_pages.report(b, _result(b.run_key))
        if problem:
            raise Failure(problem)

    def repr_failure(self, excinfo):
        return str(excinfo.value) if isinstance(excinfo.value, Failure) else super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, self.block.line - 1, f"{self.block.page}:{self.block.line}"

