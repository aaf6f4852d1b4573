"""Collect every page of the course (docs/**/*.md) and README.md as tests.

Each page yields one `conventions` test (fences, skip markers; see tests/pages_harness.py) and one
test per python/bash/sh block, named after the page line and the included snippet:

    docs/zh/attention/multi-head.md::L42[snippets/multi-head/02_split_heads.py]

This file lives at the repository root on purpose: a conftest.py under docs/ would be copied
into the built site.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "tests"))

import pages_harness  # noqa: E402

_SITES: dict[Path, pages_harness.Site] = {}
# Twin pages carry identical code blocks (tests/test_parity.py); a block that passed once with the
# same code and the same shown output passes again, so it runs once per session.
# MINIGPT_PAGES_RERUN=1 runs every copy anyway.
_PASSED: dict[tuple, str] = {}
_RERUN = os.environ.get("MINIGPT_PAGES_RERUN", "") not in ("", "0")


def _site(root: Path) -> pages_harness.Site:
    if root not in _SITES:
        _SITES[root] = pages_harness.Site(root)
    return _SITES[root]


def pytest_configure(config):
    if getattr(config.option, "codeblocks", False):
        raise pytest.UsageError(
            "--codeblocks runs pages without expanding their snippet includes; "
            "this repository's conftest.py runs them: use plain `python -m pytest`"
        )


def pytest_collect_file(file_path: Path, parent):
    if file_path.suffix != ".md":
        return None
    path = Path(file_path).resolve()
    if path == ROOT / "README.md" or (ROOT / "docs") in path.parents:
        return CoursePage.from_parent(parent, path=file_path)
    return None


class CoursePage(pytest.File):
    def collect(self):
        page = pages_harness.load_page(_site(ROOT), self.path)
        yield PageConventions.from_parent(self, name="conventions", page=page)
        for block in page.blocks:
            item = PageBlock.from_parent(self, name=block.name, block=block)
            for mark in block.marks:
                if mark == "pytest.mark.skip" and block.reason:
                    item.add_marker(pytest.mark.skip(reason=block.reason))
                else:
                    item.add_marker(eval(mark, {"sys": sys, "pytest": pytest}))
            yield item


class PageConventions(pytest.Item):
    def __init__(self, *, page, **kwargs):
        super().__init__(**kwargs)
        self.page = page

    def runtest(self):
        if self.page.problems:
            raise pages_harness.BlockFailure(
                f"{self.page.rel}: {len(self.page.problems)} problem(s)\n" + "\n".join(self.page.problems)
            )

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, pages_harness.BlockFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"{self.page.rel}::conventions"


class PageBlock(pytest.Item):
    def __init__(self, *, block, **kwargs):
        super().__init__(**kwargs)
        self.block = block

    def runtest(self):
        b = self.block
        if b.importorskip is not None:
            pytest.importorskip(b.importorskip)
        key = (b.syntax, b.code, b.expected_output, b.ignore_whitespace)
        if key in _PASSED and not _RERUN:
            return  # the same block already ran and passed on its twin page
        pages_harness.run_block(b, ROOT)
        _PASSED[key] = f"{b.page}:{b.line}"

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, pages_harness.BlockFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, self.block.line - 1, f"{self.block.page}:{self.block.line}"
