"""The course's commands, added to ``minigpt`` by entry point (``minigpt.cli.plugins``): ``lesson`` runs a
lesson's scripts, ``workbook`` creates and trains the reader's own files, ``check`` grades them, ``bench`` runs
the repository's benchmarks. They work from a clone of the repository (its nav orders the lessons, its
``snippets/`` and ``benchmarks/`` hold what they run); the library itself never looks for one.
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

from minigpt.cli import EXIT_FAILURE, UsageError


def add_commands(sub, ArgumentParser) -> dict:
    """Add the course's parsers to ``minigpt``'s subparsers; returns {command: handler(args, rest)}."""
    # bench: the benchmarks live in the repository (benchmarks/run.py) and parse their own arguments
    sub.add_parser("bench", add_help=False, help="measure speed and quality side by side on this machine "
                                                 "(minigpt bench --help for the sections)")

    # lesson
    les = sub.add_parser("lesson", help="run a lesson's scripts in order",
                         description="Run snippets/<slug>/NN_*.py in order, printing a header per file. "
                                     "Exercise answers (NN_answer_*.py) are left out unless --answers. "
                                     "Run it from the repository: the lessons are its mkdocs.yml nav's.")
    les.add_argument("slug", nargs="?", help="lesson slug (omit to list them in course order)")
    les.add_argument("--answers", action="store_true", help="also run the exercise answers")

    # workbook, check
    wb = sub.add_parser("workbook", help="create your own workbook: the files the course grows",
                        description="Create your own project, the files the course grows from empty "
                                    "(tensor.py, functional.py, nn.py, optim.py, ...), and a README.")
    wb_sub = wb.add_subparsers(dest="workbook_command", required=True, parser_class=ArgumentParser)
    wi = wb_sub.add_parser("init", help="create the workbook in a new or empty folder")
    wi.add_argument("dir", nargs="?", default="minigpt-workbook", help="the folder (default: minigpt-workbook)")
    wi.add_argument("--lang", choices=["zh", "en"], help="README language (default: $MINIGPT_LANG, else the locale)")
    wt = wb_sub.add_parser("train", help="train your own GPT from your workbook and sample from it",
                           description="Train the GPT of your workbook's gpt.py with your optim.py's AdamW (your "
                                       "data.py's get_batch and train.py's lr_at once written) for a few steps, "
                                       "print the loss, then sample a poem (or a line of Shakespeare).")
    wt.add_argument("dir", nargs="?", default="minigpt-workbook", help="the folder (default: minigpt-workbook)")
    wt.add_argument("--corpus", choices=["poems", "shakespeare"], default="poems", help="what to train on")
    wt.add_argument("--steps", type=int, default=200, help="optimizer steps (default: 200)")
    wt.add_argument("--seed", type=int, default=1337, help="seeds the weights, the batches and the sample")
    wt.add_argument("--lang", choices=["zh", "en"], help="message language (default: $MINIGPT_LANG, else the locale)")
    ck = sub.add_parser("check", help="check your workbook against a lesson's checks",
                        description="Import your workbook's files and run a lesson's checks on them: one line "
                                    "per check; exit status 0 when all pass, 1 otherwise.")
    ck.add_argument("lesson", nargs="?", help="lesson slug, as minigpt lesson lists them")
    ck.add_argument("--all", action="store_true", help="a table of every lesson in course order")
    ck.add_argument("--workbook", default="minigpt-workbook", help="the workbook folder (default: minigpt-workbook)")
    ck.add_argument("--lang", choices=["zh", "en"], help="message language (default: $MINIGPT_LANG, else the locale)")
    return {"bench": cmd_bench, "lesson": _plain(cmd_lesson), "workbook": _plain(cmd_workbook),
            "check": _plain(cmd_check)}


def _plain(command):
    """A handler that takes no arguments beyond its parser's."""
    def handler(args, rest):
        if rest:
            raise UsageError(f"unrecognized arguments: {' '.join(rest)}")
        return command(args)
    return handler


def cmd_bench(args, rest: list[str]) -> int:
    script = find_repo_folder("benchmarks") / "run.py"
    return subprocess.run([sys.executable, str(script), *rest]).returncode


def find_repo_folder(name: str) -> Path:
    """``snippets/`` or ``benchmarks/``: in the current folder or a parent, else beside the package's source."""
    here = Path.cwd().resolve()
    for folder in (here, *here.parents, Path(__file__).resolve().parents[2]):
        if (folder / name / "").is_dir():
            return folder / name
    raise FileNotFoundError(f"no {name}/ folder here or above; run this from the minigpt repository")


def cmd_lesson(args) -> int:
    from minigpt_course import lessons

    root = lessons.repo_root()
    slugs = [lesson.slug for lesson in lessons.lessons(root)]  # in course order
    if args.slug is None:
        print("lessons: " + (", ".join(slugs) if slugs else "(none)"))
        return 0
    if args.slug not in slugs:
        raise UsageError(f"unknown lesson {args.slug!r}; available: {', '.join(slugs) or '(none)'}")
    for file in lessons.scripts(root / "snippets" / args.slug, args.answers):
        print(f"==> {file.relative_to(root)} <==", flush=True)
        done = subprocess.run([sys.executable, str(file)], cwd=root)
        if done.returncode:
            print(f"minigpt: error: {file.name} failed with exit code {done.returncode}", file=sys.stderr)
            return EXIT_FAILURE
        print(flush=True)
    return 0


def cmd_workbook(args) -> int:
    from minigpt_course import workbook

    lang = workbook.language(args.lang)
    folder = Path(args.dir)
    if args.workbook_command == "train":
        from minigpt_course import workbook_train

        if not folder.is_dir():
            raise UsageError(f"no workbook folder {args.dir!r}; create it with minigpt workbook init {args.dir}")
        if args.steps < 1:
            raise UsageError(f"--steps must be at least 1, got {args.steps}")
        try:
            losses = workbook_train.train(folder, lang, corpus=args.corpus, steps=args.steps, seed=args.seed)
        except workbook_train.NotReady as e:
            print(str(e), file=sys.stderr)
            return EXIT_FAILURE
        return 0 if all(math.isfinite(x) for x in losses) else EXIT_FAILURE
    try:
        files = workbook.init(folder, lang)
    except FileExistsError as e:
        raise UsageError(str(e)) from None
    print(workbook.TEXT[lang]["created"].format(dir=folder, files=", ".join(files)))
    print(workbook.TEXT[lang]["next"].format(dir=folder))
    return 0


def _course_order() -> list[str]:
    """The lesson slugs in course order: the repository's nav, else the lessons that have checks."""
    from minigpt_course import lessons, workbook

    try:
        return [lesson.slug for lesson in lessons.lessons(lessons.repo_root())]
    except FileNotFoundError:
        return [lesson.slug for lesson in workbook.graded()]


def cmd_check(args) -> int:
    from minigpt_course import workbook

    lang = workbook.language(args.lang)
    folder = Path(args.workbook)
    if (args.lesson is None) == (not args.all):
        raise UsageError("give a lesson or --all, not both" if args.all else "give a lesson or --all")
    if not folder.is_dir():
        raise UsageError(f"no workbook folder {args.workbook!r}; create it with minigpt workbook init "
                         f"{args.workbook}")
    slugs = _course_order()
    if args.all:
        return workbook.check_all(slugs, folder, lang)
    if args.lesson not in slugs and args.lesson not in [lesson.slug for lesson in workbook.graded()]:
        raise UsageError(f"unknown lesson {args.lesson!r}; available: {', '.join(slugs)}")
    return workbook.check(args.lesson, folder, lang)
