"""Checks for the exercises of lesson 9, ``lm/context``.

``check_concat_window(fn)`` feeds a reader's function a labelled window of embeddings, e of shape
(B, k, d) whose value ``100*b + 10*j + c`` says which sequence b, window position j and channel c it is,
and returns one report: ``"<name>: passed ..."``, or ``"<name>: not yet"`` followed by the first row
slice that holds something else, what was expected there, what the function put there, and, when the
result matches a known mistake, which one. An error raised by the reader's code is reported as expected vs
got (``reader_errors``).
"""

from __future__ import annotations

import numpy as np

from minigpt.checks import reader_errors

from minigpt.tensor import Tensor

B, K, D = 2, 3, 4  # sequences, window positions, channels: each below 10, so a label reads digit by digit


def _labelled() -> np.ndarray:
    b, j, c = np.ix_(np.arange(B), np.arange(K), np.arange(D))
    return (100 * b + 10 * j + c).astype(np.float64)  # (B, K, D)


def _describe(v: np.ndarray) -> str:
    v = np.asarray(v, dtype=np.float64)
    if not np.all(v == np.round(v)) or v.min() < 0 or v.max() >= 100 * B:
        return "numbers that are not in e"
    v = v.astype(np.int64)
    b, j, c = v // 100, v % 100 // 10, v % 10
    if (b == b[0]).all() and (j == j[0]).all() and np.array_equal(c, np.arange(D)):
        return f"e[{b[0]}, {j[0]}], the vector of window position {j[0]}"
    return ", ".join(f"e[{bi}, {ji}, {ci}]" for bi, ji, ci in zip(b, j, c))


def _show(v: np.ndarray) -> list:
    """Whole numbers as ints ([0, 10, 20, 1]), anything else rounded."""
    return v.astype(np.int64).tolist() if np.all(v == np.round(v)) else np.round(v, 3).tolist()


MISTAKES = {
    "interleaved": (lambda e: e.transpose(0, 2, 1).reshape(B, K * D),
                    "that is e.permute(0, 2, 1) flattened: channel 0 of every position, then channel 1, ...;\n"
                    "  e is already (B, k, d) in order, reshape it as it is"),
    "reversed": (lambda e: e[:, ::-1].reshape(B, K * D),
                 "the window is reversed: position k-1 comes first; keep the positions in order 0, 1, ..., k-1"),
}


@reader_errors("fn(e): e (B, k, d) -> x (B, k*d), the window's vectors in order")
def check_concat_window(fn) -> str:
    """``fn(e)`` must turn e (B, k, d) into x (B, k*d) whose row b is e[b, 0], e[b, 1], ..., e[b, k-1]."""
    name = getattr(fn, "__name__", "your function")
    e = Tensor(_labelled(), requires_grad=True)
    x = fn(e)
    if not isinstance(x, Tensor):
        return (f"{name}: not yet\n  expected a Tensor (the engine must see the op to send gradients back), "
                f"got {type(x).__name__}")
    head = f"{name}: not yet\n  e is (B, k, d) = {(B, K, D)}"
    if tuple(x.shape) != (B, K * D):
        report = f"{head}\n  shape: expected (B, k*d) = {(B, K * D)}, got {tuple(x.shape)}"
        if tuple(x.shape) == (B, D):
            report += "\n  (B, d) is the window summed or averaged: the order of the k tokens is lost"
        return report
    want = _labelled().reshape(B, K * D)
    got = np.asarray(x.data, dtype=np.float64)
    for b in range(B):
        for j in range(K):
            s = slice(j * D, (j + 1) * D)
            if not np.array_equal(got[b, s], want[b, s]):
                report = (f"{head}\n  x[{b}, {s.start}:{s.stop}]:\n"
                          f"    expected {want[b, s].astype(int).tolist()} = {_describe(want[b, s])}\n"
                          f"    got      {_show(got[b, s])} = {_describe(got[b, s])}")
                for wrong, hint in MISTAKES.values():
                    if np.array_equal(got, wrong(_labelled())):
                        return report + "\n  " + hint
                return report
    if x.requires_grad:
        (x * Tensor(np.arange(x.numel(), dtype=np.float64).reshape(x.shape))).sum().backward()
    if e.grad is None or not np.array_equal(e.grad, np.arange(B * K * D, dtype=np.float64).reshape(B, K, D)):
        return (f"{name}: not yet\n  the values are right, but the gradient does not reach e as it should:\n"
                f"  build x from e with Tensor ops (reshape), not from e.data with numpy")
    return f"{name}: passed (e {(B, K, D)} -> x {(B, K * D)}, all {x.numel()} numbers in order, gradients back to e)"
