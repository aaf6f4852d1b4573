"""The course's lessons in course order, read from the one list that orders them: ``mkdocs.yml``'s nav.

A lesson is a page of the nav whose file name (without ``.md``) names a folder of ``snippets/`` that holds
scripts (``NN_what.py``): ``tensor/storage.md`` is lesson ``storage``, whose code is ``snippets/storage/``.
The other pages (the home page, the glossary) are not lessons. Adding a lesson is one nav line and its
folder; ``minigpt lesson``, the page tests and the lesson-module tests all read this list.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

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


def lesson_module(slug: str, name: str) -> ModuleType:
    """Lesson ``slug``'s module ``snippets/<slug>/<name>.py``, imported under its own name ``name``.

    A later lesson that builds on an earlier lesson's file (lesson 4's layers on lesson 3's engine) imports it
    as what it is: that lesson's module. It is registered as ``name``, as the reader's workbook folder holds it,
    so that ``import name`` in the modules and scripts after it finds this one. Imported once per process; a
    different module already imported as ``name`` is an error, not silently replaced."""
    path = (repo_root() / "snippets" / slug / f"{name}.py").resolve()
    if not path.is_file():
        raise ModuleNotFoundError(f"lesson {slug} has no module {name}: {path} does not exist")
    loaded = sys.modules.get(name)
    if loaded is not None:
        if Path(getattr(loaded, "__file__", None) or "").resolve() != path:
            raise ImportError(f"a module {name!r} is imported already, from {getattr(loaded, '__file__', None)}, "
                              f"not lesson {slug}'s {path}")
        return loaded
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module
