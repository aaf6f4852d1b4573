"""Automatic checks for the lessons' exercises: a reader's function goes in, "all checks passed" or
an AssertionError saying what is wrong comes out."""

from __future__ import annotations

import numpy as np

from minigpt.gpt import merge_heads, split_heads
from minigpt.tensor import Tensor


def check_split_heads(fn) -> str:
    """``fn(x, n_head)`` must turn (B, T, C) into (B, nh, T, hs) with head h holding channels
    h*hs .. (h+1)*hs - 1 of every token, exactly as ``minigpt.gpt.split_heads`` does."""
    B, T, C, nh = 2, 3, 12, 3
    hs = C // nh
    # value 1000*b + 100*t + c: each number says which sequence, token and channel it came from
    x = Tensor((1000 * np.arange(B)[:, None, None] + 100 * np.arange(T)[:, None] + np.arange(C)).astype(np.float32))
    y = fn(x, nh)
    assert tuple(y.shape) == (B, nh, T, hs), f"shape {tuple(y.shape)}, expected {(B, nh, T, hs)}"
    for b, h, t in np.ndindex(B, nh, T):  # y[b, h, t] = x[b, t, h*hs : (h+1)*hs]
        assert np.array_equal(y.data[b, h, t], x.data[b, t, h * hs:(h + 1) * hs]), f"wrong values at b={b} h={h} t={t}"
    assert np.array_equal(merge_heads(y).data, x.data), "merge_heads does not undo it"
    assert np.array_equal(y.data, split_heads(x, nh).data), "differs from minigpt.gpt.split_heads"
    return "all checks passed"
