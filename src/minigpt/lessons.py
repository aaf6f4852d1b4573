"""The course's lessons in course order, read from the one list that orders them: ``mkdocs.yml``'s nav.

A lesson is a page of the nav whose file name (without ``.md``) names a folder of ``snippets/`` that holds
scripts (``NN_what.py``): ``tensor/storage.md`` is lesson ``storage``, whose code is ``snippets/storage/``.
The other pages (the home page, the glossary) are not lessons. Adding a lesson is one nav line and its
folder; ``minigpt lesson``, the page tests and the lesson-module tests all read this list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

# a nav line: "- 存储与步长: tensor/storage.md" or "- tensor/storage.md"
_NAV_PAGE = re.compile(r"^\s*-\s+(?:[^:\n]+:\s+)?([\w./-]+\.md)\s*$")
_TOP_LEVEL_KEY = re.compile(r"^[\w-]+:")
CHECKOUT = Path(__file__).resolve().parents[2]  # where an editable install's source lives


@dataclass(frozen=True)
class Lesson:
    slug: str  # the snippets folder: snippets/<slug>/
    page: str  # the page, relative to docs/<lang>/: tensor/storage.md

    def folder(self, root: Path) -> Path:
        return root / "snippets" / self.slug


def nav_pages(mkdocs_yml: Path) -> list[str]:
    """Every page of mkdocs.yml's ``nav:``, in order, as paths relative to docs/<lang>/."""
    pages, in_nav = [], False
    for line in mkdocs_yml.read_text(encoding="utf-8").splitlines():
        if _TOP_LEVEL_KEY.match(line):
            in_nav = line.split(":")[0] == "nav"
        elif in_nav and (m := _NAV_PAGE.match(line)):
            pages.append(m.group(1))
    return pages


def scripts(folder: Path, answers: bool = False) -> list[Path]:
    """A lesson's scripts in page order: NN_*.py, without the exercise answers NN_answer_*.py unless asked."""
    found = sorted(folder.glob("[0-9][0-9]_*.py"))
    return found if answers else [p for p in found if not p.name[3:].startswith("answer")]


def repo_root(start: Path | None = None) -> Path:
    """The repository (the folder with mkdocs.yml and snippets/): the current folder or one above it,
    else the checkout the package was installed from; a clear error when there is none."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents, CHECKOUT):
        if (folder / "mkdocs.yml").is_file() and (folder / "snippets").is_dir():
            return folder
    raise FileNotFoundError("the lessons are listed in the minigpt repository's mkdocs.yml, and none was found "
                            "here or above: run this from a clone of the repository")


def lessons(root: Path) -> list[Lesson]:
    """The lessons of the repository at ``root``, in course order (the nav's)."""
    found = []
    for page in nav_pages(root / "mkdocs.yml"):
        slug = Path(page).stem
        if scripts(root / "snippets" / slug, answers=True):
            found.append(Lesson(slug, page))
    return found
