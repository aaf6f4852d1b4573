"""Checks for the lesson (``attention/multi-head``): the reader's ``split_heads``.

``check_split_heads(fn)`` feeds ``fn`` a tensor whose every number says where it came from and returns
one report: ``"<name>: passed ..."``, or ``"<name>: not yet"`` with the first row that differs, as expected
vs got and which token and channels those numbers are. An error raised by the reader's code is reported as
expected vs got (``reader_errors``).
"""

from __future__ import annotations

import numpy as np

from minigpt_course.checks import Check, Lesson, Message, Result, name_of, not_yet, passed, reader_errors, show, speaker
from minigpt.gpt import split_heads
from minigpt.tensor import Tensor as LibraryTensor


MESSAGES = {
    "expected": ("{name}(x, n_head): x (B, T, C) -> (B, nh, T, hs)", "{name}(x, n_head)：x (B, T, C) -> (B, nh, T, hs)"),
    "nothing": ("nothing", "什么也没有"),
    "not_in_x": ("numbers that are not in x", "x 里没有的数"),
    "token": ("token {t} of sequence {b}, channels {first}..{last}", "序列 {b} 的词元 {t}，通道 {first}..{last}"),
    "not_tensor": ("  expected a Tensor, got {got}", "  期望     一个 Tensor，得到的是 {got}"),
    "at": ("(seq {b}, token {t}, ch {c})", "（序列 {b}，词元 {t}，通道 {c}）"),
    "x_is": ("  x is (B, T, C) = {shape}, n_head = {nh}", "  x 是 (B, T, C) = {shape}，n_head = {nh}"),
    "shape": ("  shape: expected (B, nh, T, hs) = {want}, got {got}", "  形状：应该是 (B, nh, T, hs) = {want}，得到的是 {got}"),
    "row": ("  y[{b}, {h}, {t}] (sequence {b}, head {h}, token {t}):\n    expected {want} = {want_is}\n"
            "    got      {got} = {got_is}",
            "  y[{b}, {h}, {t}]（序列 {b}，头 {h}，词元 {t}）：\n    期望     {want} = {want_is}\n"
            "    得到     {got} = {got_is}"),
    "passed": ("{name}: passed (x {x} -> {y}, all {n} numbers where they belong)",
               "{name}：通过（x {x} -> {y}，{n} 个数都在该在的位置）"),
}
say = speaker(__name__)


def _labelled(Tensor, B: int, T: int, C: int):
    """(B, T, C) with value 1000*b + 100*t + c: every number says which sequence, token and channel it is."""
    b = np.arange(B)[:, None, None]
    t = np.arange(T)[None, :, None]
    c = np.arange(C)[None, None, :]
    return Tensor((1000 * b + 100 * t + c).astype(np.float32))


def _describe(values: np.ndarray, B: int, T: int, C: int) -> Message | tuple[Message, ...]:
    """Where labelled numbers came from: 'token 1 of sequence 0, channels 4..7', or a list of them."""
    v = np.asarray(values).ravel()
    if v.size == 0:
        return say("nothing")
    if not np.all(v == np.round(v)) or v.min() < 0:
        return say("not_in_x")
    v = v.astype(np.int64)
    b, t, c = v // 1000, v % 1000 // 100, v % 100
    if b.max() >= B or t.max() >= T or c.max() >= C:
        return say("not_in_x")
    if (b == b[0]).all() and (t == t[0]).all() and np.array_equal(c, np.arange(c[0], c[0] + v.size)):
        return say("token", t=t[0], b=b[0], first=c[0], last=c[-1])
    return tuple(say("at", b=bi, t=ti, c=ci) for bi, ti, ci in zip(b, t, c))


@reader_errors("expected")
def check_split_heads(fn, Tensor=LibraryTensor) -> Result:
    """``fn(x, n_head)`` must turn x (B, T, C) into (B, nh, T, hs), with row ``[b, h, t]`` holding channels
    h*hs .. (h+1)*hs - 1 of token t of sequence b, exactly as ``minigpt.gpt.split_heads`` does; ``Tensor``
    is the class x is made of (the reader's, in their workbook).

    Not yet: the first difference as expected vs got, each row said as where its numbers came from.
    """
    B, T, C, nh = 2, 3, 12, 3
    name = name_of(fn)
    x = _labelled(Tensor, B, T, C)
    y = fn(x, nh)
    if not isinstance(y, Tensor):
        return not_yet(name, say("not_tensor", got=type(y).__name__))
    want = split_heads(x, nh)
    if tuple(y.shape) != tuple(want.shape):
        return not_yet(name, say("x_is", shape=(B, T, C), nh=nh), say("shape", want=tuple(want.shape), got=tuple(y.shape)))
    for b, h, t in np.ndindex(B, nh, T):
        expected, got = want.data[b, h, t], y.data[b, h, t]
        if not np.array_equal(expected, got):
            return not_yet(name, say("row", b=b, h=h, t=t, want=show(expected, decimals=3),
                                     want_is=_describe(expected, B, T, C), got=show(got, decimals=3),
                                     got_is=_describe(got, B, T, C)))
    return passed(name, say("passed", x=(B, T, C), y=tuple(y.shape), n=y.numel()))


def _attention_class(wb) -> Result:
    from minigpt_course.checks.gpt import check_attention_class

    return check_attention_class(wb.get("gpt.py", "MultiHeadAttention"), wb.get("tensor.py", "Tensor"))


LESSON = Lesson("multi-head", introduces=(("gpt.py", "split_heads"), ("gpt.py", "MultiHeadAttention")), checks=(
    Check("split_heads", "split-heads", lambda wb: check_split_heads(wb.get("gpt.py", "split_heads"), wb.tensor())),
    Check("MultiHeadAttention", "structure", _attention_class)))
