"""One strict build of the site per test session, made by `make build`: the command that CI, the
publishing workflow and readers run, so the tests look at the site that is published."""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

from course_pages import DOCS, LANGS, LESSONS, ROOT, pages  # noqa: F401  (the page list, here too)

# zh (LANGS[0]) is served at the site root, en under en/. Built as published on GitHub Pages: a project page lives in a folder named after the repository.
SITE_URL = "http://127.0.0.1:8000/minigpt/"


@functools.cache
def built_site() -> Path:
    """Build into a fresh folder once per process; fail with mkdocs' own message."""
    out = Path(tempfile.mkdtemp(prefix="minigpt-site-")) / "site"
    env = dict(os.environ, SITE_URL=SITE_URL, NO_MKDOCS_2_WARNING="1")
    # the test run's own interpreter and tools, and no reinstall: `make test` has set up already
    cmd = ["make", "--no-print-directory", "-o", ".venv/.installed", "build",
           f"SITE_DIR={out}", f"BIN={Path(sys.executable).parent}"]
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    if proc.returncode != 0:
        raise AssertionError(f"`{' '.join(cmd)}` failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-6000:]}")
    return out


def site_path() -> str:
    """The folder the site is served from, e.g. `/minigpt/`."""
    return urlsplit(SITE_URL).path


def page_url(lang: str, page: str) -> str:
    """Where docs/<lang>/<page> is in the site, relative to its root (use_directory_urls)."""
    stem = re.sub(r"(^|/)index$", "", page.rsplit(".", 1)[0])  # a page (.md) or a lab (.ipynb)
    return ("" if lang == "zh" else "en/") + (stem + "/" if stem else "")


def lessons(lang: str) -> list[str]:
    """The lessons of a part (docs/<lang>/<part>/<lesson>.md) in course order, from course_pages' list."""
    return [lesson.page for lesson in LESSONS if "/" in lesson.page and (DOCS / lang / lesson.page).is_file()]


def first_lesson_of_each_part(lang: str) -> list[str]:
    firsts: dict[str, str] = {}
    for page in lessons(lang):
        firsts.setdefault(page.split("/")[0], page)
    return list(firsts.values())
