import numpy as np

from minigpt.nn import merge_heads, split_heads
from minigpt.tensor import Tensor


def my_split_heads(x, n_head):
    B, T, C = x.shape
    x = x.reshape(B, T, n_head, C // n_head)  # (B, T, C) -> (B, T, nh, hs)
    return x.permute(0, 2, 1, 3)  # (B, T, nh, hs) -> (B, nh, T, hs)


def reshape_only(x, n_head):
    B, T, C = x.shape
    return x.reshape(B, n_head, T, C // n_head)  # (B, T, C) -> (B, nh, T, hs), tokens scrambled


def check(fn):
    B, T, C, nh = 2, 3, 12, 3
    hs = C // nh
    x = Tensor((1000 * np.arange(B)[:, None, None] + 100 * np.arange(T)[:, None] + np.arange(C)).astype(np.float32))
    y = fn(x, nh)
    assert y.shape == (B, nh, T, hs), f"shape {y.shape}, expected {(B, nh, T, hs)}"
    for b, h, t in np.ndindex(B, nh, T):  # y[b, h, t] = x[b, t, h*hs : (h+1)*hs]
        assert np.array_equal(y.data[b, h, t], x.data[b, t, h * hs:(h + 1) * hs]), f"wrong values at b={b} h={h} t={t}"
    assert np.array_equal(merge_heads(y).data, x.data), "merge_heads does not undo it"
    assert np.array_equal(y.data, split_heads(x, nh).data), "differs from minigpt.nn.split_heads"
    return "all checks passed"


for fn in (my_split_heads, reshape_only):
    try:
        print(f"{fn.__name__}:", check(fn))
    except AssertionError as e:
        print(f"{fn.__name__}: failed:", e)
