"""``minigpt check --lang zh`` leaves no grader sentence in English.

Every report the graders write while their own tests and the workbook's tests run (the library's code, each
named mistake those tests build, the reader's exceptions) is recorded by tests/hint_recorder.py, translated
as ``minigpt check --lang zh`` translates it, and searched for a run of 4 or more English words outside code:
backticks, the reader's own line quoted in a location, and an exception's message (numpy's, torch's or
Python's own words, or the reader's) are left as they are. Every English sentence in a grader's source is
translated too, so that a hint no test reaches is not left out. Controls: an untranslated sentence is caught.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import hint_recorder
from minigpt import workbook
from minigpt.checks import zh

ROOT = Path(__file__).resolve().parents[1]
CHECKS = ROOT / "src" / "minigpt" / "checks"

EXCEPTION = re.compile(r"\b[A-Z]\w*(?:Error|Exception|Warning|Interrupt)\b(?::.*?(?=（[\w.<>-]+ 第 \d+ 行：|$)|)")
LOCATION = re.compile(r"（[\w.<>-]+ 第 \d+ 行：.*?）$")
CJK = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef"  # Chinese characters and punctuation: a word of its own, never English
TOKEN = re.compile(f"[{CJK}]+|[^\\s{CJK}]+")
# a word: two letters or more, or "a" (a single letter elsewhere is a variable: x, e, L, B)
WORD = re.compile(r"[(\[\"']*(?:[A-Za-z][a-z]+|a)[)\],.:;!?\"']*")


def english_runs(text: str) -> list[str]:
    """Runs of 4 or more consecutive English words in ``text``, outside code: backticks, the reader's line in a
    location, an exception's name and message."""
    runs = []
    for line in text.splitlines():
        line = LOCATION.sub("", EXCEPTION.sub("", re.sub(r"`[^`]*`", "", line)))
        run: list[str] = []
        for token in TOKEN.findall(line) + [""]:
            if token and WORD.fullmatch(token):
                run.append(token)
                continue
            if len(run) >= 4:
                runs.append(" ".join(run))
            run = []
    return runs


GRADER_TESTS = sorted((ROOT / "tests").glob("test_checks_*.py")) + [ROOT / "tests" / "test_workbook.py"]


@pytest.fixture(scope="module")
def reports(request, tmp_path_factory) -> list[str]:
    """Every report the graders wrote while the grader and workbook tests ran (each workbook check in Chinese
    too): recorded in this run when those tests ran before this file (a whole-suite run: tests/conftest.py
    turns the recorder on), else recorded by running them once in a subprocess."""
    ran = {Path(str(item.path)).name for item in request.session.items}
    if {p.name for p in GRADER_TESTS} <= ran and hint_recorder.REPORTS:
        return sorted(set(hint_recorder.REPORTS))
    out = tmp_path_factory.mktemp("hints") / "reports.json"
    env = dict(os.environ, HINT_RECORD=str(out),
               PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")]))
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "hint_recorder",
                          *map(str, GRADER_TESTS)], cwd=ROOT, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return json.loads(out.read_text(encoding="utf-8"))


def test_the_recording_covers_every_lesson_and_its_mistakes(reports):
    firsts = [r.splitlines()[0] for r in reports]
    assert len(reports) > 200
    assert sum(": not yet" in f for f in firsts) > 100 and sum(": passed" in f for f in firsts) > 20
    for lesson in workbook.LESSONS:  # each lesson's workbook check, in Chinese, failing and passing
        anchors = {anchor for (slug, _), anchor in workbook.REREAD.items() if slug == lesson}
        assert any(f"#{a} 一节" in r for r in reports for a in anchors), lesson
    assert any("it matches a known mistake" in r for r in reports)


def test_no_grader_sentence_is_left_in_english(reports):
    left = {}
    for report in reports:
        runs = english_runs(workbook.translate(report, "zh"))
        if runs:
            left[report.splitlines()[0]] = runs
    assert not left, "\n".join(f"{k}: {v}" for k, v in sorted(left.items()))


def _literals(path: Path) -> list[str]:
    """The strings (f-strings with {} for what they fill in) of a grader module, docstrings left out, each
    implicitly joined string whole."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs, inner = set(), set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            docs.add(id(body[0].value))
        if isinstance(node, ast.JoinedStr):
            inner.update(id(v) for v in ast.walk(node) if v is not node)
    out = []
    for node in ast.walk(tree):
        if id(node) in docs or id(node) in inner:
            continue
        if isinstance(node, ast.JoinedStr):
            out.append("".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.append(node.value)
    return out


# words of a grader's source that are not sentences a reader sees
NOT_SHOWN = re.compile(r"^(fn|cls)\(")


@pytest.mark.parametrize("path", sorted(p for p in CHECKS.glob("*.py") if p.name != "zh.py"), ids=lambda p: p.stem)
def test_every_english_sentence_of_a_grader_has_its_chinese(path):
    """Each string of the grader's source, its {} filled with a number, as a report line: no English left."""
    left = []
    for text in _literals(path):
        text = NOT_SHOWN.sub("name(", text).replace("{}", "7")
        for line in text.split("\n"):
            report = "name: not yet\n  " + line.strip()
            if english_runs(workbook.translate(report, "zh")):
                left.append(line.strip())
    assert not left, "\n".join(left)


def test_the_search_catches_an_untranslated_sentence(reports):
    """Controls: an English hint is caught in a report, behind backticks and an exception it is not, and a
    sentence whose table entry is taken out is caught again."""
    assert english_runs("x：还没通过\n  the gradient lost its shape, so sum nothing") == [
        "the gradient lost its shape, so sum nothing"]
    assert english_runs("  `is a return missing here`\n  得到     ValueError: shapes do not match here at all") == []
    assert english_runs("  得到     x（tensor.py 第 2 行：return a  # the whole vector goes here）") == []
    sentence = "the right numbers in reverse order: strides[0] belongs to dim 0, the one that moves slowest"
    report = next(r for r in reports if sentence in r)
    assert not english_runs(workbook.translate(report, "zh"))
    kept = list(zh.RULES)
    try:
        zh.RULES[:] = [(p, c) for p, c in kept if p.pattern != re.escape(sentence)]
        assert len(zh.RULES) == len(kept) - 1
        assert english_runs(workbook.translate(report, "zh")), "an untranslated hint went unnoticed"
    finally:
        zh.RULES[:] = kept


def test_chinese_keeps_the_numbers_and_code():
    report = ("broken: not yet\n  broken((2, 3, 4)): expected (12, 4, 1), got (1, 6, 2)\n"
              "  column-major (Fortran-order) strides: there dim 0 moves by 1.\n"
              "  Row-major: the last dim moves by 1, each earlier dim by the product of the sizes after it")
    out = workbook.translate(report, "zh")
    assert out.splitlines()[1] == "  broken((2, 3, 4))：期望 (12, 4, 1)，得到 (1, 6, 2)", out
    assert "列优先（Fortran 顺序）" in out and not english_runs(out)
    assert workbook.translate(report, "en") == report  # English as written
