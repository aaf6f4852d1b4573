"""Each page's exercise instructions, run as a reader runs them: the literal `cp ...` from the repository
root, then the copy. A starter must run to its report (a "not yet" or a check table, not an ImportError); any other copied
script must at least find every module it imports from where the copy lands.

Each case works in a temporary repository root holding a copy of the snippet's folder, so nothing is
written into the checkout; `minigpt` comes from this checkout's src/ as an installed package would.
"""

from __future__ import annotations

import ast
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from course_pages import DOCS, LANGS, ROOT, pages

CP = re.compile(r"`?(cp snippets/[^`\n]+\.py)`?")
PY = re.compile(r"`python ([^`\s]+\.py)`")


def commands() -> list[tuple[str, str, str | None]]:
    """(where, cp command, the python command the same instruction gives, if any)."""
    found = []
    for lang in LANGS:
        for page in pages(lang):
            for n, line in enumerate((DOCS / lang / page).read_text(encoding="utf-8").splitlines(), 1):
                for m in CP.finditer(line):
                    target = shlex.split(m.group(1))[2]
                    runs = [p for p in PY.findall(line[m.end():]) if Path(p).name == Path(target).name]
                    found.append((f"{lang}/{page}:{n}", m.group(1), runs[0] if runs else None))
    return found


CASES = commands()


def test_the_instructions_were_found():
    assert len(CASES) >= 30 and any("layers-optim" in c for _, c, _ in CASES)


@pytest.mark.parametrize("where,cp,run", CASES, ids=[w for w, *_ in CASES])
def test_an_exercise_copy_runs_where_the_page_puts_it(where, cp, run, tmp_path):
    src, target = shlex.split(cp)[1:3]
    assert (ROOT / src).is_file(), f"{where}: {src} does not exist"
    if target.startswith("/"):  # an absolute target (/tmp/x.py): keep it inside this test's folder
        target = str(tmp_path / "abs" / Path(target).name)
        (tmp_path / "abs").mkdir()
    repo = tmp_path / "repo"
    shutil.copytree(ROOT / Path(src).parent, repo / Path(src).parent)
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), MPLBACKEND="Agg")
    subprocess.run(["cp", src, target], cwd=repo, check=True)
    copy = repo / target
    if run is not None:
        assert run == target or target.startswith(str(tmp_path)), f"{where}: copies to {target} but runs {run}"
    if "_ex_" in Path(src).name:  # a starter: runs to its report
        out = subprocess.run([sys.executable, target], cwd=repo, env=env, capture_output=True, text=True,
                             timeout=120)
        text = out.stdout + out.stderr
        assert "Traceback" not in out.stderr and out.stdout.strip(), f"{where}: {cp}; python {target}:\n{text[-2000:]}"
        assert "passed" not in out.stdout or "not yet" in out.stdout, f"{where}: the starter passes as given"
    else:  # a script to change: it finds its imports from where it lands
        tree = ast.parse(copy.read_text(encoding="utf-8"))
        names = sorted({(node.module if isinstance(node, ast.ImportFrom) else a.name).split(".")[0]
                        for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))
                        for a in (node.names if isinstance(node, ast.Import) else [None])})
        code = f"import sys; sys.path.insert(0, {str(copy.parent)!r}); " + "; ".join(f"import {n}" for n in names)
        out = subprocess.run([sys.executable, "-c", code], cwd=repo, env=env, capture_output=True, text=True,
                             timeout=120)
        assert out.returncode == 0, f"{where}: {cp}: {out.stderr[-1000:]}"


def test_scripts_find_their_lesson_modules_from_the_repository_root():
    """`python snippets/<slug>/NN_x.py` puts the script's folder first on sys.path: every script that imports
    a lesson module of its folder finds it, run from the repository root."""
    checked, tried = 0, set()
    for folder in sorted((ROOT / "snippets").iterdir()):
        modules = {p.stem for p in folder.glob("*.py") if not p.name[:2].isdigit()}
        for script in sorted(folder.glob("[0-9][0-9]_*.py")):
            tree = ast.parse(script.read_text(encoding="utf-8"))
            used = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module in modules}
            used |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names if a.name in modules}
            if not used or (folder, frozenset(used)) in tried:  # the same imports from the same folder: one run
                continue
            tried.add((folder, frozenset(used)))
            rel = script.relative_to(ROOT).as_posix()
            code = ("import runpy, sys; sys.path.insert(0, sys.argv[1]); "
                    + "; ".join(f"import {m}; assert {m}.__file__.startswith(sys.argv[1]), {m}.__file__" for m in used))
            out = subprocess.run([sys.executable, "-c", code, str(script.parent)], cwd=ROOT, capture_output=True,
                                 text=True, timeout=60, env=dict(os.environ, PYTHONPATH=str(ROOT / "src")))
            assert out.returncode == 0, f"python {rel}: {out.stderr[-800:]}"
            checked += 1
    assert checked >= 10
