"""The check of the BPE appendix's exercise passes the library's merge and names the usual wrong ones."""

from __future__ import annotations

import pytest

from minigpt.bpe import merge
from minigpt_course import checks
from minigpt_course.checks.bpe import LESSON, check_merge


def test_the_library_passes():
    assert str(check_merge(merge)).startswith("merge: passed (all 6 cases")


def first_only(ids, pair, new_id):
    for i in range(len(ids) - 1):
        if (ids[i], ids[i + 1]) == pair:
            return ids[:i] + [new_id] + ids[i + 2:]
    return list(ids)


def keeps_second(ids, pair, new_id):
    return [new_id if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair else x for i, x in enumerate(ids)]


def drops_last(ids, pair, new_id):
    out, i = [], 0
    while i < len(ids) - 1:
        if (ids[i], ids[i + 1]) == pair:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def in_place(ids, pair, new_id):
    i = 0
    while i < len(ids) - 1:
        if (ids[i], ids[i + 1]) == pair:
            ids[i:i + 2] = [new_id]
        i += 1
    return ids


def overlapping(ids, pair, new_id):
    out = []
    for i in range(len(ids)):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(new_id)
        elif not (i > 0 and (ids[i - 1], ids[i]) == pair):
            out.append(ids[i])
    return out


@pytest.mark.parametrize("fn, needles", [
    (first_only, ["(the pair twice)", "got      [256, 3, 1, 2]", "only the first occurrence is merged"]),
    (keeps_second, ["got      [256, 2, 3, 256, 2]", "step past both ids (i += 2)"]),
    (drops_last, ["(three equal ids in a row)", "got      [256]\n", "the last id is lost"]),
    (in_place, ["the ids it was given became"]),
    (overlapping, ["(three equal ids in a row)", "got      [256, 256]", "an id joins at most one pair"]),
    (lambda ids, pair, new_id: None, ["got      None: return the new list"]),
    (lambda ids, pair, new_id: "abc", ["which is not a list of ids"]),
    (lambda ids, pair, new_id: [0] * len(ids), ["compare the two lists"]),
], ids=["first only", "keeps second", "drops last", "in place", "overlapping", "None", "text", "zeros"])
def test_usual_mistakes_are_named(fn, needles):
    report = str(check_merge(fn))
    assert "not yet" in report.splitlines()[0], report
    for needle in needles:
        assert needle in report, report


def test_errors_of_the_readers_code_are_expected_vs_got():
    def broken(ids, pair, new_id):
        return [ids[i] + ids[i + 1] for i in range(len(ids))]

    report = str(check_merge(broken))
    assert report.startswith("broken: not yet\n  merge([1, 2, 3, 1, 2]"), report
    assert "got      IndexError" in report and "return [ids[i] + ids[i + 1]" in report, report


def test_chinese_report_and_the_lesson_declaration():
    report = check_merge(keeps_second).render("zh")
    assert "还没通过" in report and "合并之后要跳过两个 id（i += 2）" in report and "（这一对出现两次）" in report
    assert checks.lesson("bpe") is LESSON and LESSON.introduces == (("bpe.py", "merge"),)
