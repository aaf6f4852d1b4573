"""Checks for lesson 12 (``attention/multi-head``): the reader's ``split_heads``.

``check_split_heads(fn)`` feeds ``fn`` a tensor whose every number says where it came from and returns
one report: ``"<name>: passed ..."``, or ``"<name>: not yet"`` with the first row that differs, as expected
vs got and which token and channels those numbers are. An error raised by the reader's code is reported as
expected vs got (``reader_errors``).
"""

from __future__ import annotations

import numpy as np

from minigpt.checks import show, reader_errors
from minigpt.gpt import split_heads
from minigpt.tensor import Tensor


def _labelled(B: int, T: int, C: int) -> Tensor:
    """(B, T, C) with value 1000*b + 100*t + c: every number says which sequence, token and channel it is."""
    b = np.arange(B)[:, None, None]
    t = np.arange(T)[None, :, None]
    c = np.arange(C)[None, None, :]
    return Tensor((1000 * b + 100 * t + c).astype(np.float32))


def _describe(values: np.ndarray, B: int, T: int, C: int) -> str:
    """Where labelled numbers came from: 'token 1 of sequence 0, channels 4..7', or a list of them."""
    v = np.asarray(values).ravel()
    if v.size == 0:
        return "nothing"
    if not np.all(v == np.round(v)) or v.min() < 0:
        return "numbers that are not in x"
    v = v.astype(np.int64)
    b, t, c = v // 1000, v % 1000 // 100, v % 100
    if b.max() >= B or t.max() >= T or c.max() >= C:
        return "numbers that are not in x"
    if (b == b[0]).all() and (t == t[0]).all() and np.array_equal(c, np.arange(c[0], c[0] + v.size)):
        return f"token {t[0]} of sequence {b[0]}, channels {c[0]}..{c[-1]}"
    return ", ".join(f"(seq {bi}, token {ti}, ch {ci})" for bi, ti, ci in zip(b, t, c))


@reader_errors('fn(x, n_head): x (B, T, C) -> (B, nh, T, hs)')
def check_split_heads(fn) -> str:
    """``fn(x, n_head)`` must turn x (B, T, C) into (B, nh, T, hs), with row ``[b, h, t]`` holding channels
    h*hs .. (h+1)*hs - 1 of token t of sequence b, exactly as ``minigpt.gpt.split_heads`` does.

    Returns one report: ``"<name>: passed ..."``, or ``"<name>: not yet"`` and the first difference as
    expected vs got. An error raised by the reader's code is reported as expected vs got (``reader_errors``).
    """
    B, T, C, nh = 2, 3, 12, 3
    hs = C // nh
    name = getattr(fn, "__name__", "your function")
    x = _labelled(B, T, C)
    y = fn(x, nh)
    if not isinstance(y, Tensor):
        return f"{name}: not yet\n  expected a Tensor, got {type(y).__name__}"
    want = split_heads(x, nh)
    if tuple(y.shape) != tuple(want.shape):
        return (f"{name}: not yet\n  x is (B, T, C) = {(B, T, C)}, n_head = {nh}\n"
                f"  shape: expected (B, nh, T, hs) = {tuple(want.shape)}, got {tuple(y.shape)}")
    for b, h, t in np.ndindex(B, nh, T):
        expected, got = want.data[b, h, t], y.data[b, h, t]
        if not np.array_equal(expected, got):
            return (f"{name}: not yet\n  y[{b}, {h}, {t}] (sequence {b}, head {h}, token {t}):\n"
                    f"    expected {show(expected, decimals=3)} = {_describe(expected, B, T, C)}\n"
                    f"    got      {show(got, decimals=3)} = {_describe(got, B, T, C)}")
    return f"{name}: passed (x {(B, T, C)} -> {tuple(y.shape)}, all {y.numel()} numbers where they belong)"
