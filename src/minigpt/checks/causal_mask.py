"""Checks for the exercises of lesson 11, ``attention/causal-mask``.

``check_causal_mask(fn)`` calls a reader's ``fn(T)`` for a few sizes and returns one report:
``"<name>: passed ..."``, or ``"<name>: not yet"`` followed by the expected and the given table (1 = hidden)
and, when the table matches a known mistake, which one. An error raised by the reader's code is reported as
expected vs got (``reader_errors``).
"""

from __future__ import annotations

import numpy as np

from minigpt.checks import reader_errors

SIZES = (5, 2, 1)


def _right(T: int) -> np.ndarray:
    return np.triu(np.ones((T, T), dtype=bool), k=1)


MISTAKES = {
    "that hides the diagonal too (np.triu with k=0): position 0 may see nothing and its softmax gives nan":
        lambda T: np.triu(np.ones((T, T), dtype=bool), k=0),
    "that hides the past and shows the future (the table flipped): True must mark j > i, the later positions":
        lambda T: np.tril(np.ones((T, T), dtype=bool), k=-1),
    "that is True where a position MAY look (PyTorch's attn_mask); here True marks what is hidden":
        lambda T: ~_right(T),
    "that hides nothing: every position still sees the later ones": lambda T: np.zeros((T, T), dtype=bool),
}


def _table(a: np.ndarray) -> str:
    return "\n".join("      " + " ".join(str(int(v)) for v in row) for row in np.atleast_2d(a))


@reader_errors('fn(T) -> a (T, T) boolean array, True where j > i')
def check_causal_mask(fn) -> str:
    """``fn(T)`` must return a (T, T) boolean array, True at [i, j] when j > i (position i may not see j)."""
    name = getattr(fn, "__name__", "your function")
    for T in SIZES:
        got = np.asarray(fn(T))
        want = _right(T)
        if got.dtype != np.bool_:
            return (f"{name}: not yet\n  {name}({T}) has dtype {got.dtype}; masked_fill needs booleans "
                    f"(np.ones((T, T), dtype=bool))")
        if got.shape != want.shape:
            return f"{name}: not yet\n  {name}({T}): expected shape (T, T) = {want.shape}, got {got.shape}"
        if np.array_equal(got, want):
            continue
        report = (f"{name}: not yet\n  {name}({T}), 1 = hidden:\n    expected\n{_table(want)}\n"
                  f"    got\n{_table(got)}")
        for hint, wrong in MISTAKES.items():
            if np.array_equal(got, wrong(T)):
                return report + "\n  " + hint
        return report
    return f"{name}: passed (T = {', '.join(map(str, SIZES))}: True exactly where j > i)"
