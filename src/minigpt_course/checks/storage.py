"""Checks for the lesson ``storage`` (``tensor/storage``): the reader writes ``contiguous_strides(shape)``.

``check_contiguous_strides(fn)`` compares ``fn(shape)`` with numpy's strides of a row-major array, in
elements, shape by shape, and returns one report: ``"<name>: passed ..."``, or ``"<name>: not yet"``
with the first shape that differs, what was expected, what ``fn`` gave and, where the answer matches a
known mistake (column-major order, bytes instead of elements, strides in reverse, a product that
starts one dim too early), what that mistake is. An error raised by the reader's code is reported as
expected vs got (``reader_errors``).
"""

from __future__ import annotations

import math

import numpy as np

from minigpt_course.checks import (Check, Lesson, Message, Result, int_tuple, name_of, not_yet, passed, reader_errors,
                            speaker)

# the lesson's (B, T, C) first; then one dim, a dim of size 1, multi-head's (B, T, nh, hs), a square matrix
SHAPES = [(2, 3, 4), (5,), (3, 1, 2), (2, 3, 2, 4), (64, 64), (7, 1), ()]


def _numpy_strides(shape: tuple[int, ...], order: str = "C") -> tuple[int, ...]:
    """numpy's strides of an array of this shape, in elements (numpy's own .strides count bytes)."""
    a = np.empty(shape, dtype=np.float32, order=order)
    return tuple(s // a.itemsize for s in a.strides)


MESSAGES = {
    "expected": ("{name}(shape) -> row-major strides in elements, e.g. (12, 4, 1) for (2, 3, 4)",
                 "{name}(shape) -> 按元素数算的行优先步长，比如 (2, 3, 4) 的是 (12, 4, 1)"),
    "none": ("  {name}({shape}): expected {want}, got None (the function returned nothing: is a `return` missing?)",
             "  {name}({shape})：期望 {want}，得到 None（函数什么也没返回：是不是少了 `return`？）"),
    "not_ints": ("  {name}({shape}): expected {want}, got {got}: expected a tuple of ints, one per dim",
                 "  {name}({shape})：期望 {want}，得到 {got}：应该是由整数组成的 tuple，每一维一个"),
    "wrong": ("  {name}({shape}): expected {want}, got {got}", "  {name}({shape})：期望 {want}，得到 {got}"),
    "dims": ("  one stride per dim: shape {shape} needs {n}, the answer gives {got}",
             "  每一维一个步长：形状 {shape} 要 {n} 个，你的答案给了 {got} 个"),
    "reversed": ("  the right numbers in reverse order: strides[0] belongs to dim 0, the one that moves slowest",
                 "  数对了，顺序反了：strides[0] 属于第 0 维，也就是变得最慢的那一维"),
    "column_major": ("  column-major (Fortran-order) strides: there dim 0 moves by 1.\n  Row-major: the last dim moves "
                     "by 1, each earlier dim by the product of the sizes after it",
                     "  这是列优先（Fortran 顺序）的步长：那里第 0 维每步走 1。\n  行优先：最后一维每步走 1，"
                     "前面每一维每步走它后面各维长度的乘积"),
    "bytes": ("  bytes for {itemsize}-byte elements, what numpy's .strides shows;\n  strides here count elements: "
              "divide by the itemsize",
              "  这是按 {itemsize} 字节的元素算出的字节数，也就是 numpy 的 .strides 显示的；\n  这里的步长按元素个数算："
              "要除以 itemsize"),
    "from_d": ("  strides[d] is the product of the sizes after dim d, shape[d+1:], not from dim d on:\n  "
               "the last dim moves by 1",
               "  strides[d] 是第 d 维之后各维长度的乘积，即 shape[d+1:]，不从第 d 维算起：\n  最后一维每步走 1"),
    "passed": ("{name}: passed ({n} shapes of {lo} to {hi} dims, the same strides as numpy's)",
               "{name}：通过（{n} 个形状，{lo} 到 {hi} 维，步长都和 numpy 的一样）"),
}
say = speaker(__name__)


def _mistake(shape: tuple[int, ...], want: tuple[int, ...], got: tuple[int, ...]) -> Message | None:
    """What known mistake gives ``got`` for ``shape``, if one does (lines of the report)."""
    if len(got) != len(shape):
        return say("dims", shape=shape, n=len(shape), got=len(got))
    if got == tuple(reversed(want)):
        return say("reversed")
    if got == _numpy_strides(shape, "F"):
        return say("column_major")
    for itemsize in (2, 4, 8):
        if got == tuple(s * itemsize for s in want):
            return say("bytes", itemsize=itemsize)
    if got == tuple(math.prod(shape[d:]) for d in range(len(shape))):
        return say("from_d")
    return None


@reader_errors("expected")
def check_contiguous_strides(fn) -> Result:
    """``fn(shape)`` must return the row-major strides of ``shape`` in elements, e.g. (12, 4, 1) for
    (2, 3, 4), as numpy's ``.strides`` divided by ``.itemsize`` and torch's ``.stride()`` give them.

    Not yet: the first shape whose strides differ, as expected vs got, and the known mistake it matches.
    """
    name = name_of(fn)
    for shape in SHAPES:
        want = _numpy_strides(shape)
        answer = fn(shape)
        if answer is None:
            return not_yet(name, say("none", shape=shape, want=want))
        got = int_tuple(answer)
        if got is None:
            return not_yet(name, say("not_ints", shape=shape, want=want, got=repr(answer)))
        if got != want:
            why = _mistake(shape, want, got)
            return not_yet(name, say("wrong", shape=shape, want=want, got=got), *([why] if why else []))
    dims = sorted(len(s) for s in SHAPES)
    return passed(name, say("passed", n=len(SHAPES), lo=dims[0], hi=dims[-1]))


LESSON = Lesson("storage", introduces=(("tensor.py", "contiguous_strides"),),
    checks=(Check("contiguous_strides", "row-major",
                  lambda wb: check_contiguous_strides(wb.get("tensor.py", "contiguous_strides"))),))
