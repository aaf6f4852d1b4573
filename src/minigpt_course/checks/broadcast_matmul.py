"""Checks for the lesson (``tensor/broadcast-matmul``): the reader writes ``broadcast_shapes(a, b)``.

``check_broadcast_shapes(fn)`` gives ``fn`` pairs of shapes and compares what comes back with
``np.broadcast_shapes``: a tuple for shapes that broadcast, a ``ValueError`` raised for shapes that do
not. It returns one report: ``"<name>: passed ..."``, or ``"<name>: not yet"`` with the first pair that
differs, what was expected, what ``fn`` gave and, where the answer matches a known mistake (the shapes
aligned at the left, sizes not checked, the smaller size kept), what that mistake is. A ``ValueError``
from ``fn`` is part of the answer; any other error ``fn`` raises is reported as expected vs got.
"""

from __future__ import annotations

import numpy as np

from minigpt_course.checks import (Check, Lesson, Message, Result, int_tuple, name_of, not_yet, passed, reader_errors,
                            speaker)

# (a, b): the lesson's (B, T, C) + (C,) first; then the cases that tell the rules apart
PAIRS = [
    ((2, 3, 4), (4,)),  # a bias on (B, T, C)
    ((2, 3, 4), (3, 1)),  # one number per position
    ((3,), (3, 1)),  # a row and a column: (3, 3), not (3,)
    ((8, 1, 6, 1), (7, 1, 5)),  # numpy's documentation example
    ((2, 4, 8, 8), (8, 8)),  # a causal mask on the scores (B, nh, T, T)
    ((), (2, 2)),  # a scalar
    ((3, 4), (3,)),  # does not broadcast: 4 and 3
    ((2, 1), (8, 4, 3)),  # does not broadcast: 2 and 4
    ((5, 2), (5, 3)),  # does not broadcast: 2 and 3
]


def _reference(a, b):
    """np.broadcast_shapes(a, b), or the string "ValueError"."""
    try:
        return tuple(np.broadcast_shapes(a, b))
    except ValueError:
        return "ValueError"


def _left_aligned(a, b):
    """What broadcasting would give if shapes were padded with 1s on the right (aligned at the left)."""
    n = max(len(a), len(b))
    return _reference(tuple(a) + (1,) * (n - len(a)), tuple(b) + (1,) * (n - len(b)))


def _unchecked(a, b, pick):
    """Right-aligned, every pair of sizes combined by ``pick`` (max or min) with no check."""
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    return tuple(pick(x, y) for x, y in zip(a, b))


MESSAGES = {
    "expected": ("{name}(a, b) -> the broadcast shape as a tuple, or ValueError as np.broadcast_shapes",
                 "{name}(a, b) -> 广播后的形状（一个 tuple），不能广播时像 np.broadcast_shapes 一样抛出 ValueError"),
    "a_value_error": ("a ValueError (they do not broadcast)", "抛出 ValueError（它们不能广播）"),
    "pair": ("  {name}({a}, {b}): expected {want}", "  {name}({a}, {b})：期望 {want}"),
    "pair_got": ("  {name}({a}, {b}): expected {want}, got {got}", "  {name}({a}, {b})：期望 {want}，得到 {got}"),
    "none": ("  {name}({a}, {b}): expected {want}, got None (the function returned nothing: is a `return` missing?)",
             "  {name}({a}, {b})：期望 {want}，得到 None（函数什么也没返回：是不是少了 `return`？）"),
    "not_ints": ("  {name}({a}, {b}): expected {want}, got {got}: expected a tuple of ints",
                 "  {name}({a}, {b})：期望 {want}，得到 {got}：应该是由整数组成的 tuple"),
    "unchecked": ("  each size is the larger of the pair, but two different sizes where neither is 1\n  "
                  "do not broadcast: raise ValueError",
                  "  每一维都取了两者中大的那个，可是两个长度不同、又都不是 1 时，\n  是不能广播的：要抛出 ValueError"),
    "left": ("  that is what aligning the shapes at the left gives; broadcasting aligns them at the right,\n  "
             "at their last dims, and pads the shorter one with 1s on the left",
             "  这是把两个形状靠左对齐的结果；广播是靠右对齐的，\n  从最后一维对起，短的那个在左边补 1"),
    "smaller": ("  a dim of size 1 is stretched to the other size: keep the larger one, not the smaller",
                "  长度为 1 的维会被拉伸成另一边的长度：要保留大的那个，不是小的"),
    "passed": ("{name}: passed ({n} pairs: {fits} broadcast as numpy's, {errors} raise ValueError)",
               "{name}：通过（{n} 对形状：{fits} 对和 numpy 的广播结果一样，{errors} 对抛出 ValueError）"),
}
say = speaker(__name__)


def _mistake(a, b, got) -> Message | None:
    """What known mistake gives ``got`` (a shape or "ValueError") for ``a`` and ``b``, if one does."""
    if got == _unchecked(a, b, max):
        return say("unchecked")
    if got == _left_aligned(a, b):
        return say("left")
    if got == _unchecked(a, b, min):
        return say("smaller")
    return None


@reader_errors("expected")
def check_broadcast_shapes(fn) -> Result:
    """``fn(a, b)`` must return the shape ``a`` and ``b`` broadcast to, as a tuple, or raise ValueError
    when they do not broadcast, exactly as ``np.broadcast_shapes(a, b)`` does.

    Not yet: the first pair where ``fn`` differs, as expected vs got, and the known mistake it matches.
    Other errors ``fn`` raises are reported as expected vs got.
    """
    name = name_of(fn)
    for a, b in PAIRS:
        want = _reference(a, b)
        expected = say("a_value_error") if want == "ValueError" else str(want)
        try:
            answer = fn(a, b)
        except ValueError as e:
            if want == "ValueError":
                continue
            got, line = "ValueError", say("pair_got", a=a, b=b, want=expected, got=f"ValueError: {e}")
        else:
            if answer is None:
                return not_yet(name, say("none", a=a, b=b, want=expected))
            got = int_tuple(answer)
            if got is None:
                return not_yet(name, say("not_ints", a=a, b=b, want=expected, got=repr(answer)))
            if got == want:
                continue
            line = say("pair_got", a=a, b=b, want=expected, got=got)
        why = _mistake(a, b, got)
        return not_yet(name, line, *([why] if why else []))
    fits = sum(_reference(a, b) != "ValueError" for a, b in PAIRS)
    return passed(name, say("passed", n=len(PAIRS), fits=fits, errors=len(PAIRS) - fits))


LESSON = Lesson("broadcast-matmul", starts={"tensor.py": (
    "broadcasting (broadcast-matmul), the Tensor and autograd (autograd on), strides (storage)",
    "广播（broadcast-matmul）、Tensor 和自动求导（autograd 起）、步长（storage）")},
    introduces=(("tensor.py", "broadcast_shapes"),), checks=(
    Check("broadcast_shapes", "rules", lambda wb: check_broadcast_shapes(wb.get("tensor.py", "broadcast_shapes"))),))
