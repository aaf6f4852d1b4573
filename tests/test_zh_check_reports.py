"""``minigpt check --lang zh`` leaves no grader sentence in English, and the message catalogue is whole.

Every result the graders return while their own tests and the workbook's tests run (the library's code, each
named mistake those tests build, the reader's exceptions) is recorded by tests/hint_recorder.py in English and
in Chinese, and the Chinese is searched for a run of 4 or more English words outside code: backticks, the
reader's own line quoted in a location, and an exception's message (numpy's, torch's or Python's own words, or
the reader's) are left as they are. Every message of the catalogue (each check module's ``MESSAGES``) has both
languages with the same placeholders and no English in its Chinese, and every key a grader says exists, so
that a hint no test reaches is not left out. Controls: an untranslated sentence is caught.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import hint_recorder
from minigpt_course import checks, workbook

ROOT = Path(__file__).resolve().parents[1]
CHECKS = ROOT / "src" / "minigpt_course" / "checks"

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
def reports(request, tmp_path_factory) -> list[tuple[str, str]]:
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
    return [tuple(pair) for pair in json.loads(out.read_text(encoding="utf-8"))]


def test_the_recording_covers_every_lesson_and_its_mistakes(reports):
    firsts = [en.splitlines()[0] for en, _ in reports if en]
    assert len(reports) > 200
    assert sum(": not yet" in f for f in firsts) > 100 and sum(": passed" in f for f in firsts) > 20
    for lesson in workbook.graded():  # each lesson's workbook check, in Chinese, failing and passing
        anchors = {check.reread for check in lesson.checks}
        assert any(f"一节（#{a}）" in r for _, r in reports for a in anchors), lesson.slug
    assert any("it matches a known mistake" in en for en, _ in reports)


def test_no_grader_sentence_is_left_in_english(reports):
    left = {}
    for en, chinese in reports:
        runs = english_runs(chinese)
        if runs:
            left[en.splitlines()[0]] = runs
    assert not left, "\n".join(f"{k}: {v}" for k, v in sorted(left.items()))


def _filled(template: str) -> str:
    """A template with each placeholder filled with a number (its format spec dropped)."""
    return re.sub(r"\{[^{}]*\}", "7", template)


def test_every_message_has_both_languages_with_the_same_placeholders_and_no_english_in_its_chinese():
    catalogue = checks.catalogue()
    assert len(catalogue) > 140
    left = []
    for key, texts in catalogue.items():
        assert set(texts) == {"en", "zh"} and all(texts.values()), key
        assert checks.fields(texts["en"]) == checks.fields(texts["zh"]), key
        if english_runs(_filled(texts["zh"])):
            left.append(f"{key}: {texts['zh']}")
    assert not left, "\n".join(left)


SAYS = re.compile(r"""\bsay\(\s*["'](\w+)["']""")


@pytest.mark.parametrize("path", sorted(set(CHECKS.glob("*.py")) - {CHECKS / "__init__.py"}),
                         ids=lambda p: p.stem)
def test_every_message_a_grader_says_is_in_its_catalogue(path):
    """Each ``say("key")`` of a check module, each ``reader_errors("key")`` and each ``Message("key")`` of the
    shared catalogue names a message that exists; a key built at run time (``say(key)``) comes from a table of
    the module whose keys are checked the same way."""
    import importlib

    module = importlib.import_module(f"minigpt_course.checks.{path.stem}")
    text = path.read_text(encoding="utf-8")
    said = set(SAYS.findall(text)) | set(re.findall(r"""@reader_errors\(["'](\w+)["']\)""", text))
    said |= set(getattr(module, "MISTAKES", ()) if not isinstance(getattr(module, "MISTAKES", None), dict)
                else getattr(module, "MISTAKES"))
    assert said, path.stem
    assert said <= set(module.MESSAGES), sorted(said - set(module.MESSAGES))
    shared = set(re.findall(r"""\bMessage\(["'](\w+)["']""", text))
    assert shared <= set(checks.MESSAGES), sorted(shared - set(checks.MESSAGES))


def test_a_result_is_data_rendered_in_either_language():
    from minigpt_course.checks.storage import check_contiguous_strides

    def reversed_strides(shape):
        strides, step = [], 1
        for size in reversed(shape):
            strides.append(step)
            step *= size
        return tuple(strides)

    result = check_contiguous_strides(reversed_strides)
    assert not result.passed and result.keys == ["not_yet", "storage.wrong", "storage.reversed"]
    assert result.lines[1].values == {"shape": (2, 3, 4), "want": (12, 4, 1), "got": (1, 4, 12)}
    assert str(result) == result.render(checks.language())  # the reader's language (tests/test_report_language.py)
    assert result.render("en").startswith("reversed_strides: not yet\n")
    assert result.render("zh").startswith("reversed_strides：还没通过\n  reversed_strides((2, 3, 4))：期望 (12, 4, 1)")


def test_the_search_catches_an_untranslated_sentence(reports):
    """Controls: an English hint is caught in a report, behind backticks and an exception it is not, and a
    message whose Chinese is left in English is caught in a report."""
    assert english_runs("x：还没通过\n  the gradient lost its shape, so sum nothing") == [
        "the gradient lost its shape, so sum nothing"]
    assert english_runs("  `is a return missing here`\n  得到     ValueError: shapes do not match here at all") == []
    assert english_runs("  得到     x（tensor.py 第 2 行：return a  # the whole vector goes here）") == []
    from minigpt_course.checks import sampling

    sentence = "probs came back as they went in: nothing was dropped"
    assert any(sentence in en and not english_runs(chinese) for en, chinese in reports)
    result = sampling.check_top_p(lambda probs, top_p: probs)
    assert sentence in result.render("en") and not english_runs(result.render("zh"))
    kept = sampling.MESSAGES["unchanged"]
    try:
        sampling.MESSAGES["unchanged"] = (kept[0], kept[0])
        assert english_runs(result.render("zh")), "an untranslated hint went unnoticed"
    finally:
        sampling.MESSAGES["unchanged"] = kept
    assert english_runs(_filled("  the right numbers in reverse order: strides[0] belongs to dim {n}"))


def test_chinese_keeps_the_numbers_and_code():
    from minigpt_course.checks.storage import check_contiguous_strides

    def broken(shape):
        return {(2, 3, 4): (1, 2, 6)}.get(shape, ())

    out = check_contiguous_strides(broken).render("zh")
    assert out.splitlines()[1] == "  broken((2, 3, 4))：期望 (12, 4, 1)，得到 (1, 2, 6)", out
    assert "列优先（Fortran 顺序）" in out and not english_runs(out)
