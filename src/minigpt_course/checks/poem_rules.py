"""Checks for the lesson (``train/poem-rules``): does one line fit a tone pattern, with 一三五不论?

``check_fits(fn)`` calls ``fn(bits, pattern)`` on lines of a poem: ``bits`` holds each character's tones as
``minigpt.poetry.tone_bits`` gives them (1 平, 2 仄, 3 either: a character with two readings; 0: the rhyme
book does not list it), ``pattern`` is a standard line of five or seven tones ("平平平仄仄"). It wants True
when every position that is not free (一三五不论: the 1st and 3rd of a 五言 line, the 1st, 3rd and 5th of a
七言 line, 1-based) holds a character that can take the pattern's tone there, a character the book does not
list being skipped, as ``minigpt.poetry.check_tones`` does. It returns a Result: ``"<name>: passed ..."``, or
``"<name>: not yet"`` with the first line it got wrong, what was expected, and the usual mistake the answers
match. An error raised by ``fn`` is reported the same way, with its line.
"""

from __future__ import annotations

import numpy as np

from minigpt.poetry import FREE_POSITIONS, TONE_BITS
from minigpt_course.checks import (Check, Lesson, Message, Result, error_text, name_of, not_yet, passed, source_file,
                                   speaker, where)

MESSAGES = {
    "free_first": ("line 3 of 登鹳雀楼: 欲 is 仄 where the pattern has 平, at a free position",
                   "《登鹳雀楼》第三句：“欲”是仄声，格式要平，但这是不论的位置"),
    "line_end": ("a 五言 line whose last character has the wrong tone", "五言句的末字声调不对"),
    "second": ("a 五言 line whose 2nd character has the wrong tone", "五言句的第二字声调不对"),
    "both": ("看 has two readings, 平 and 仄, at a checked position", "“看”有平、仄两读，落在要论的位置"),
    "unknown": ("啼 is not in the rhyme book (bits 0), at a checked position", "“啼”韵书里没有（bits 为 0），落在要论的位置"),
    "qi_fifth": ("a 七言 line: its 5th character off the pattern, a free position", "七言句：第五字不合格式，这是不论的位置"),
    "qi_sixth": ("a 七言 line: its 6th character off the pattern", "七言句：第六字不合格式"),
    "case": ("  {what}\n    line {line}, bits {bits}, pattern {pattern}\n    expected {want}",
             "  {what}\n    句子 {line}，bits {bits}，格式 {pattern}\n    期望     {want}"),
    "not_bool": ("    got      {got}: return True or False", "    得到     {got}：要返回 True 或 False"),
    # the usual mistakes: what the answers to every case match
    "always": ("  it says True to every line: compare each checked position's tones with the pattern's",
               "  每一句都说 True：要把每个要论的位置的声调和格式比一比"),
    "no_free": ("  every position is checked: 一三五不论 leaves the 1st and 3rd free (and the 5th of a 七言 line)",
                "  每个位置都论了：一三五不论，第一、三字（七言还有第五字）不论"),
    "literal_135": ("  the 5th position is free in a 五言 line too: there it is the line's last character, which is always "
                    "checked; 一三五 counts in a 七言 line, a 五言 line frees only the 1st and 3rd",
                    "  五言句的第五字也被当成不论了：五言的第五字是句末，总要论；一三五是按七言说的，五言只有第一、三字不论"),
    "five_only": ("  a 七言 line's 5th position is checked: in a 七言 line the 1st, 3rd and 5th are free",
                  "  七言句的第五字被论了：七言句第一、三、五字都不论"),
    "off_by_one": ("  the 2nd and 4th positions are the free ones here: 一三五 counts from 1, enumerate from 0 "
                   "(enumerate(..., 1), or free positions 0, 2, 4 when counting from 0)",
                   "  这里不论的成了第二、四字：一三五从 1 数，enumerate 从 0 数（用 enumerate(..., 1)，或者从 0 数时不论 0、2、4）"),
    "exact": ("  a character with two readings (bits 3) fails: it fits either tone, so test the pattern's bit with &, "
              "not ==", "  有两读的字（bits 为 3）被判成不合：它两种声调都行，要用 & 检查格式的那一位，不能用 =="),
    "unknown_breaks": ("  a character the book does not list (bits 0) breaks the line: skip it, as check_tones does",
                       "  韵书里没有的字（bits 为 0）被判成不合：应该跳过它，和 check_tones 一样"),
    "compare": ("  compare your answer with the expected one, position by position",
                "  逐个位置对比你的答案和期望的答案"),
    "passed": ("{name}: passed (all {n} lines: free positions in 五言 and 七言, two readings, a character the book "
               "lacks)", "{name}：通过（全部 {n} 句：五言和七言的不论位置、两读的字、韵书里没有的字）"),
}
say = speaker(__name__)

# (what the case tests: its message, the line, its tone bits, the pattern); tests/ checks the bits against the book
CASES = (
    (say("free_first"), "欲穷千里目", (2, 1, 1, 2, 2), "平平平仄仄"),
    (say("line_end"), "黄河入海尽", (1, 1, 2, 2, 2), "平平仄仄平"),
    (say("second"), "白云依山尽", (2, 1, 1, 1, 2), "仄仄平平仄"),
    (say("both"), "山看月下流", (1, 3, 2, 2, 1), "平平仄仄平"),
    (say("unknown"), "江啼入海流", (1, 0, 2, 2, 1), "平平仄仄平"),
    (say("qi_fifth"), "万里黄河入海口", (2, 2, 1, 1, 2, 2, 2), "仄仄平平平仄仄"),
    (say("qi_sixth"), "万里黄河入江口", (2, 2, 1, 1, 2, 1, 2), "仄仄平平平仄仄"),
)


def _fits(bits, pattern, free=lambda n: FREE_POSITIONS[n], start=1, match=lambda b, need: b & need,
          skip_unknown=True) -> bool:
    """Every position not in ``free(len(pattern))`` (counted from ``start``) matches, unknown ones skipped."""
    for i, (b, tone) in enumerate(zip(bits, pattern), start):
        if i in free(len(pattern)) or (b == 0 and skip_unknown):
            continue
        if not match(b, TONE_BITS[tone]):
            return False
    return True


def reference(bits, pattern) -> bool:
    """The rule ``minigpt.poetry.check_tones`` applies to one line, written out plainly."""
    return _fits(bits, pattern)


# the usual wrong rules: the key of the message that says what each means -> the rule
MISTAKES = {
    "always": lambda bits, pattern: True,
    "no_free": lambda bits, pattern: _fits(bits, pattern, free=lambda n: ()),
    "literal_135": lambda bits, pattern: _fits(bits, pattern, free=lambda n: (1, 3, 5)),
    "five_only": lambda bits, pattern: _fits(bits, pattern, free=lambda n: (1, 3)),
    "off_by_one": lambda bits, pattern: _fits(bits, pattern, start=0),
    "exact": lambda bits, pattern: _fits(bits, pattern, match=lambda b, need: b == need),
    "unknown_breaks": lambda bits, pattern: _fits(bits, pattern, skip_unknown=False),
}


def _diagnose(answers: list) -> Message:
    """The usual mistake whose answers to every case are the reader's, else a plain hint."""
    for key, wrong in MISTAKES.items():
        if answers == [wrong(bits, pattern) for _, _, bits, pattern in CASES]:
            return say(key)
    return say("compare")


def check_fits(fn) -> Result:
    """``fn(bits, pattern)`` must say whether a line with those tone bits fits ``pattern`` under 一三五不论."""
    name = name_of(fn)
    answers, first = [], None  # the reader's answer to every case; the first case it got wrong
    for what, line, bits, pattern in CASES:
        want = reference(bits, pattern)
        head = say("case", what=what, line=line, bits=list(bits), pattern=pattern, want=want)
        try:
            got = fn(list(bits), pattern)
        except Exception as e:  # the reader's error, next to what was expected
            return not_yet(name, head, Message("got_error_in", {"error": error_text(e),
                                                                "where": where(e, source_file(fn))}))
        if isinstance(got, np.bool_):  # np.all(...) gives one
            got = bool(got)
        if not isinstance(got, bool):
            return not_yet(name, head, say("not_bool", got=repr(got)))
        answers.append(got)
        if got != want and first is None:
            first = head, got
    if first is None:
        return passed(name, say("passed", n=len(CASES)))
    head, got = first
    return not_yet(name, head, Message("got_in", {"what": got}), _diagnose(answers))


LESSON = Lesson("poem-rules", starts={"tones.py": (
    "fits: does a line fit a tone pattern, with 一三五不论", "fits：一句诗合不合某个平仄格式（一三五不论）")},
    introduces=(("tones.py", "fits"),),
    checks=(Check("fits", "one-line", lambda wb: check_fits(wb.get("tones.py", "fits"))),))
