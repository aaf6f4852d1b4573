"""The language a check report speaks (``minigpt_course.checks.language``): one rule for ``print(result)`` in a
lesson's script and for ``minigpt check``: ``--lang``, else $MINIGPT_LANG, else a zh_* locale, else English.
And the page runner's way of reading both languages out of one run (``framed``); tests/test_page_runner.py
compares what it reads with a reader's own runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from minigpt_course import checks, workbook
from minigpt_course.checks import BOTH_VAR, LANG_VAR, framed, language
from minigpt_course.checks.storage import check_contiguous_strides

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ("LC_ALL", "LC_MESSAGES", "LANG")


@pytest.fixture
def env(monkeypatch):
    """A clean slate: no language chosen anywhere (the reader's own shell may have set any of these)."""
    for var in (LANG_VAR, BOTH_VAR, *LOCALE):
        monkeypatch.delenv(var, raising=False)
    return monkeypatch


def my_contiguous_strides(shape):  # the starter of snippets/storage/12_ex_strides.py: returns nothing
    return None


def failing() -> checks.Result:
    return check_contiguous_strides(my_contiguous_strides)


def test_nothing_set_is_english_and_a_chinese_locale_is_chinese(env):
    assert language() == "en"
    env.setenv("LANG", "zh_CN.UTF-8")
    assert language() == "zh"
    env.setenv("LC_ALL", "C.UTF-8")  # the first one set wins, as for gettext
    assert language() == "en"
    env.setenv("LC_ALL", "zh_TW.UTF-8")
    assert language() == "zh"


def test_minigpt_lang_overrides_the_locale_both_ways(env):
    env.setenv("LANG", "en_US.UTF-8")
    env.setenv(LANG_VAR, "zh")
    assert language() == "zh"
    env.setenv("LANG", "zh_CN.UTF-8")
    env.setenv(LANG_VAR, "en")
    assert language() == "en"
    assert language("zh") == "zh" and workbook.language("zh") == "zh"  # --lang over everything
    assert workbook.language() == "en"  # minigpt check follows the same rule


def test_a_bad_choice_is_a_short_error_naming_it(env):
    env.setenv(LANG_VAR, "fr")
    with pytest.raises(ValueError, match=r"^MINIGPT_LANG must be zh or en, got 'fr'$"):
        language()
    with pytest.raises(ValueError, match=r"^--lang must be zh or en, got 'de'$"):
        language("de")


def test_printing_a_result_speaks_the_chosen_language(env):
    result = failing()
    english, chinese = result.render("en"), result.render("zh")
    assert english != chinese and "not yet" in english and "还没通过" in chinese
    assert str(result) == english  # control: nothing chosen
    env.setenv("LANG", "zh_CN.UTF-8")
    assert str(result) == chinese
    env.setenv(LANG_VAR, "en")
    assert str(result) == english and f"{result}" == english


def test_the_page_runner_frame_holds_both_renderings_and_splits_back(env):
    result = failing()
    env.setenv(BOTH_VAR, "1")
    env.setenv(LANG_VAR, "zh")  # ignored while framing: both languages are printed
    printed = f"before\n{result}\nbetween\n{result}\nafter\n"
    assert framed(printed, "en") == f"before\n{result.render('en')}\nbetween\n{result.render('en')}\nafter\n"
    assert framed(printed, "zh") == f"before\n{result.render('zh')}\nbetween\n{result.render('zh')}\nafter\n"
    assert framed("no report here\n", "zh") == "no report here\n"  # control: other output is left as it is



READS_LANGUAGE = re.compile(r"\blanguage\(|MINIGPT_LANG|\bLC_ALL\b|\bLC_MESSAGES\b|[\"']LANG[\"']|getlocale")


def test_no_lesson_script_reads_the_language_itself():
    """The page runner runs a script once for both pages and reads each page's language out of the framed
    reports (tools/course_pages.seen_by): faithful only while str(result) is the one place a script's output
    depends on the language. A script that looked at the language itself would print other things for a
    Chinese reader than the run the zh page is checked against. Control: such a line is caught."""
    assert READS_LANGUAGE.search("if checks.language() == 'zh':") and READS_LANGUAGE.search("os.environ['LANG']")
    scripts = sorted((ROOT / "snippets").rglob("*.py"))  # the scripts and the lesson modules they import
    assert len(scripts) > 100
    found = [f"{p.relative_to(ROOT)}: {line.strip()}" for p in scripts
             for line in p.read_text(encoding="utf-8").splitlines() if READS_LANGUAGE.search(line)]
    assert not found, "\n".join(found)
