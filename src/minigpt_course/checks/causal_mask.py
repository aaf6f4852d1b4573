"""Checks for the exercises of the lesson ``attention/causal-mask``.

``check_causal_mask(fn)`` calls a reader's ``fn(T)`` for a few sizes and returns one report:
``"<name>: passed ..."``, or ``"<name>: not yet"`` followed by the expected and the given table (1 = hidden)
and, when the table matches a known mistake, which one. An error raised by the reader's code is reported as
expected vs got (``reader_errors``).
"""

from __future__ import annotations

import numpy as np

from minigpt_course.checks import Check, Lesson, Result, name_of, not_yet, passed, reader_errors, speaker

SIZES = (5, 2, 1)


def _right(T: int) -> np.ndarray:
    return np.triu(np.ones((T, T), dtype=bool), k=1)


MESSAGES = {
    "expected": ("{name}(T) -> a (T, T) boolean array, True where j > i", "{name}(T) -> (T, T) 的布尔数组，j > i 处为 True"),
    "diagonal": ("  that hides the diagonal too (np.triu with k=0): position 0 may see nothing and its softmax gives nan",
                 "  这把对角线也遮住了（np.triu 用了 k=0）：位置 0 什么也看不到，它的 softmax 得到 nan"),
    "flipped": ("  that hides the past and shows the future (the table flipped): True must mark j > i, the later positions",
                "  这遮住了过去、露出了未来（整张表反了）：True 要标在 j > i 处，也就是后面的位置"),
    "inverted": ("  that is True where a position MAY look (PyTorch's attn_mask); here True marks what is hidden",
                 "  这是在允许看的地方标 True（PyTorch 的 attn_mask 是这样）；这里 True 标的是要遮住的"),
    "nothing": ("  that hides nothing: every position still sees the later ones", "  什么也没遮住：每个位置还是看得到后面的"),
    "dtype": ("  {name}({T}) has dtype {dtype}; masked_fill needs booleans (np.ones((T, T), dtype=bool))",
              "  {name}({T}) 的 dtype 是 {dtype}；masked_fill 要的是布尔值（np.ones((T, T), dtype=bool)）"),
    "shape": ("  {name}({T}): expected shape (T, T) = {want}, got {got}", "  {name}({T})：形状应该是 (T, T) = {want}，得到的是 {got}"),
    "table": ("  {name}({T}), 1 = hidden:\n    expected\n{want}\n    got\n{got}",
              "  {name}({T})，1 = 遮住：\n    期望\n{want}\n    得到\n{got}"),
    "passed": ("{name}: passed (T = {sizes}: True exactly where j > i)", "{name}：通过（T = {sizes}：恰好在 j > i 处为 True）"),
}
say = speaker(__name__)

MISTAKES = {
    "diagonal": lambda T: np.triu(np.ones((T, T), dtype=bool), k=0),
    "flipped": lambda T: np.tril(np.ones((T, T), dtype=bool), k=-1),
    "inverted": lambda T: ~_right(T),
    "nothing": lambda T: np.zeros((T, T), dtype=bool),
}


def _table(a: np.ndarray) -> str:
    return "\n".join("      " + " ".join(str(int(v)) for v in row) for row in np.atleast_2d(a))


@reader_errors("expected")
def check_causal_mask(fn) -> Result:
    """``fn(T)`` must return a (T, T) boolean array, True at [i, j] when j > i (position i may not see j)."""
    name = name_of(fn)
    for T in SIZES:
        got = np.asarray(fn(T))
        want = _right(T)
        if got.dtype != np.bool_:
            return not_yet(name, say("dtype", T=T, dtype=got.dtype))
        if got.shape != want.shape:
            return not_yet(name, say("shape", T=T, want=want.shape, got=got.shape))
        if np.array_equal(got, want):
            continue
        hints = [say(key) for key, wrong in MISTAKES.items() if np.array_equal(got, wrong(T))]
        return not_yet(name, say("table", T=T, want=_table(want), got=_table(got)), *hints[:1])
    return passed(name, say("passed", sizes=", ".join(map(str, SIZES))))


LESSON = Lesson("causal-mask", introduces=(("gpt.py", "causal_mask"),), checks=(
    Check("causal_mask", "structure", lambda wb: check_causal_mask(wb.get("gpt.py", "causal_mask"))),))
