"""The reader's workbook: their own files, grown lesson by lesson, and ``minigpt check`` to grade them.

``init`` writes near-empty files (a docstring naming the lesson that fills each) and a README; ``check``
imports the reader's files fresh from their folder and runs the lesson's checks on the pieces the lesson
asks for, reporting a missing piece or an exception in the reader's terms. What the files are, which lesson
starts each and which checks grade them is declared by each lesson's check module (``minigpt_course.checks``'s
``LESSON``); lessons are named by slug, and the number a reader sees comes from the course's nav.
"""

from __future__ import annotations

import functools
import importlib
import sys
import traceback
from dataclasses import dataclass, replace
from pathlib import Path

from minigpt_course import checks
from minigpt_course.checks import Message, Result

TEXT = {
    "en": {
        "exists": "{dir} exists and is not empty; choose a new folder",
        "created": "created {dir}: {files}",
        "next": "next: minigpt check first-network --workbook {dir}",
        "nochecks": "no workbook checks for lesson {lesson} yet",
        "passed": "passed", "notyet": "not yet",
        "summary": "{n} of {total} checks pass",
        "lesson": "lesson", "result": "checks",
        "docstring": "Your {file}: {what}.\n\nLesson {lesson} starts it; later lessons add to it.",
        "readme": """# My minigpt workbook

This folder is your own GPT, written by you, lesson by lesson. Each file starts empty; its docstring
says which lesson fills it. When a lesson asks you to add something to a file, write it here, then check it:

```bash
minigpt check first-network --workbook {dir}
minigpt check --all --workbook {dir}
```

`check` prints one line per check: passed, or not yet with what was expected and what your code gave.
Once the check of lesson {gpt} passes, `minigpt workbook train {dir}` trains your own GPT and samples from it.
Add `--lang zh` for Chinese messages.
""",
    },
    "zh": {
        "exists": "{dir} 已存在且不是空的；请换一个新文件夹",
        "created": "已创建 {dir}：{files}",
        "next": "下一步：minigpt check first-network --workbook {dir}",
        "nochecks": "第 {lesson} 课还没有练习本检查",
        "passed": "通过", "notyet": "还没通过",
        "summary": "共 {total} 项检查，通过 {n} 项",
        "lesson": "课", "result": "检查",
        "docstring": "你的 {file}：{what}。\n\n第 {lesson} 课开始写它，后面的课继续往里加。",
        "readme": """# 我的 minigpt 练习本

这个文件夹是你自己的 GPT，一课一课亲手写出来。每个文件开头是空的，文档字符串写着哪一课来填它。
课上让你往某个文件里加代码时，就写在这里，然后检查：

```bash
minigpt check first-network --workbook {dir}
minigpt check --all --workbook {dir}
```

`check` 每项检查打印一行：通过；或者还没通过，并给出期望值和你的代码算出的值。
第 {gpt} 课的检查通过以后，`minigpt workbook train {dir}` 会训练你自己的 GPT，再让它写几句。
加 `--lang en` 可改用英文提示。
""",
    },
}


def language(lang: str | None = None) -> str:
    """``lang`` if given, else $MINIGPT_LANG, else the locale: the one rule, ``minigpt_course.checks.language``."""
    return checks.language(lang or None)


def init(folder: Path, lang: str) -> list[str]:
    """Create the workbook in ``folder`` (new or empty); returns the files written. Refuses a non-empty folder."""
    t = TEXT[lang]
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise FileExistsError(t["exists"].format(dir=folder))
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, lesson, what in files():
        doc = t["docstring"].format(file=name, what=what[checks.LANGS.index(lang)], lesson=lesson_name(lesson))
        (folder / name).write_text(f'"""{doc}\n"""\n', encoding="utf-8")
        written.append(name)
    (folder / "README.md").write_text(t["readme"].format(dir=folder, gpt=lesson_name("gpt")), encoding="utf-8")
    return written + ["README.md"]


# ---- the lessons' declarations -----------------------------------------------------------------
def _slugs() -> list[str]:
    """The course's lesson slugs in order (the nav's), or [] when the lessons cannot be listed."""
    from minigpt_course import lessons

    try:
        return [lesson.slug for lesson in lessons.lessons(lessons.repo_root()) if lesson.slug != "setup"]
    except FileNotFoundError:
        return []


@functools.lru_cache(maxsize=1)
def graded() -> list[checks.Lesson]:
    """The lessons with workbook checks, in course order when the nav can be read."""
    order = {slug: i for i, slug in enumerate(_slugs())}
    return sorted(checks.lessons(), key=lambda lesson: order.get(lesson.slug, len(order)))


def files() -> list[tuple[str, str, tuple[str, str]]]:
    """The workbook's files in the order the course starts them: (file, the lesson that starts it, what it
    holds in English and Chinese)."""
    return [(name, lesson.slug, what) for lesson in graded() for name, what in lesson.starts.items()]


@functools.lru_cache(maxsize=1)
def introduced() -> dict[tuple[str, str], str]:
    """(file, piece) -> the lesson that introduces it, for a later lesson that needs it."""
    return {piece: lesson.slug for lesson in graded() for piece in lesson.introduces}


def lesson_name(slug: str) -> str:
    """``1 (storage)``: the lesson's number in the course (the home page's: lesson 0 is first-network, the
    setup page has none) and its slug; the slug alone when the lessons cannot be listed."""
    slugs = _slugs()
    return f"{slugs.index(slug)} ({slug})" if slug in slugs else slug


class Missing(Exception):
    """A piece the lesson needs is not in the reader's file yet."""


@dataclass
class Workbook:
    """The reader's modules, imported fresh from ``folder``."""

    folder: Path
    lesson: str
    modules: dict

    def get(self, file: str, *path: str):
        """``file``'s attribute ``path`` (e.g. "Tensor", "tanh"); Missing when the file or a piece is absent."""
        module = self.modules.get(file)
        if module is None:
            raise Missing(Message("nofile", {"file": file, "dir": self.folder}))
        obj, names = module, []
        for name in path:
            names.append(name)
            if not hasattr(obj, name):
                piece = ".".join(names)
                lesson = introduced().get((file, piece), self.lesson)
                raise Missing(Message("missing", {"file": file, "piece": piece, "lesson": lesson_name(lesson)}))
            obj = getattr(obj, name)
        return obj

    def tensor(self):
        """The reader's Tensor class when tensor.py has one, else the library's (for a check that builds
        its own Tensors, e.g. for the reader's optimizer to step)."""
        module = self.modules.get("tensor.py")
        if module is None or isinstance(module, _Broken) or not hasattr(module, "Tensor"):
            from minigpt.tensor import Tensor

            return Tensor
        return module.Tensor


def _where(exc: BaseException, folder: Path) -> str:
    """``file.py:line: `` of the deepest frame of the reader's own files, or ""."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if Path(f.filename).resolve().parent == folder.resolve()]
    if isinstance(exc, SyntaxError) and exc.filename and Path(exc.filename).resolve().parent == folder.resolve():
        return f"{Path(exc.filename).name}:{exc.lineno}: "
    return f"{Path(frames[-1].filename).name}:{frames[-1].lineno}: " if frames else ""


def _error(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {' '.join(str(exc).split())}".rstrip(": ")


def _load(folder: Path) -> tuple[dict, list[str]]:
    """Import every workbook file fresh from ``folder``; returns ({file: module or None}, import problems)."""
    modules, problems = {}, []
    for name, *_ in files():
        if not (folder / name).is_file():
            modules[name] = None
            continue
        try:
            modules[name] = importlib.import_module(name[:-3])
        except Exception as e:
            modules[name] = None
            problems.append((name, e))
    return modules, problems


class _Isolated:
    """DIR first on sys.path and the workbook's module names unbound, both restored on exit."""

    def __init__(self, folder: Path):
        self.folder, self.names = folder, [name[:-3] for name, *_ in files()]

    def __enter__(self):
        self.saved = {n: sys.modules.pop(n) for n in self.names if n in sys.modules}
        self.path = list(sys.path)
        sys.path.insert(0, str(self.folder.resolve()))
        importlib.invalidate_caches()
        return self

    def __exit__(self, *exc):
        for n in self.names:
            sys.modules.pop(n, None)
        sys.modules.update(self.saved)
        sys.path[:] = self.path


def run_lesson(lesson: str, folder: Path) -> list[Result]:
    """The lesson's checks on the workbook in ``folder``, one Result each; [] for a lesson without any."""
    declared = checks.lesson(lesson)
    if declared is None:
        return []
    with _Isolated(folder):
        modules, problems = _load(folder)
        for name, e in problems:  # a file that does not import fails the lesson that needs it
            modules[name] = _Broken(Message("import", {"file": name, "where": _where(e, folder), "error": _error(e)}))
        wb = Workbook(folder, lesson, modules)
        results = []
        for check in declared.checks:
            try:
                result = check.grade(wb)
            except (Missing, _BrokenFile) as m:
                results.append(Result(check.name, False, (m.args[0],)))
                continue
            except Exception as e:
                results.append(Result(check.name, False, (Message("raised", {"where": _where(e, folder),
                                                                              "error": _error(e)}),)))
                continue
            if not result.passed:
                reread = Message("reread", {"lesson": lesson_name(lesson), "section": checks.Section(lesson, check.reread),
                                            "anchor": check.reread})
                result = replace(result, lines=(*result.lines, reread))
            results.append(result)
        return results


class _BrokenFile(Exception):
    pass


class _Broken:
    """Stands for a file that did not import: any use of it reports why."""

    def __init__(self, message: Message):
        self.message = message

    def __getattr__(self, name):
        raise _BrokenFile(self.message)


def check(lesson: str, folder: Path, lang: str, out=print) -> int:
    """``minigpt check <lesson>``: one line per check, 0 when all pass, 1 otherwise."""
    t = TEXT[lang]
    results = run_lesson(lesson, folder)
    if not results:
        out(t["nochecks"].format(lesson=lesson))
        return 1
    for result in results:
        first, *rest = result.render(lang).splitlines()
        status = t["passed"] if result.passed else t["notyet"]
        if result.lines and getattr(result.lines[0], "key", None) == "not_yet":  # "[not yet] name", said once
            first = result.name.render(lang) if isinstance(result.name, Message) else result.name
        out(f"[{status}] {first}")
        for line in rest:
            out(f"    {line}")
    passed = sum(result.passed for result in results)
    out(t["summary"].format(n=passed, total=len(results)))
    return 0 if passed == len(results) else 1


def check_all(slugs: list[str], folder: Path, lang: str, out=print) -> int:
    """``minigpt check --all``: one row per lesson in course order; 0 when every checked lesson passes."""
    t = TEXT[lang]
    rows, all_ok = [], True
    for slug in slugs:
        if checks.lesson(slug) is None:
            rows.append((slug, "-"))
            continue
        results = run_lesson(slug, folder)
        ok = sum(r.passed for r in results)
        all_ok &= ok == len(results)
        rows.append((slug, f"{ok}/{len(results)} " + (t["passed"] if ok == len(results) else t["notyet"])))
    width = max(len(t["lesson"]), *(len(s) for s, _ in rows))
    out(f"{t['lesson']:<{width}}  {t['result']}")
    for slug, text in rows:
        out(f"{slug:<{width}}  {text}")
    return 0 if all_ok else 1
