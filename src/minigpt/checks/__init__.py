"""Checks for the lessons' "write it yourself" exercises, one module per lesson, named after its slug
(``minigpt.checks.storage`` for ``tensor/storage``, ``minigpt.checks.multi_head`` for
``attention/multi-head``). Every check is a ``check_<what>(fn, ...)`` that takes the reader's function
or class and returns one report: ``"<name>: passed ..."``, or ``"<name>: not yet"`` followed by what was
expected and what came back, in the lesson's terms (numbers written by ``show``). Errors raised by the
reader's code are not caught: their traceback says more about the bug than a summary would.
"""

from __future__ import annotations

import numpy as np


def int_tuple(got) -> tuple[int, ...] | None:
    """A reader's shape or strides as a tuple of ints, or None when it is not a sequence of whole numbers."""
    try:
        values = tuple(got)
    except TypeError:
        return None
    if not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in values):
        return None
    return tuple(int(v) for v in values)


def show(values, digits: int = 4, decimals: int | None = None) -> str:
    """Numbers as a reader writes them, for a report: ``[-2, -0.5, 0, 0.07065]``, nested lists for arrays,
    a bare number for a scalar. Whole numbers as integers; others to ``digits`` significant digits, or to
    ``decimals`` decimals when given, without numpy's padding or an exponent; -0 as 0; inf and nan as is."""

    def number(v: float) -> str:
        if not np.isfinite(v):
            return str(v)
        if v == round(v) and abs(v) < 1e15:
            return str(int(v))
        if decimals is not None:
            text = np.format_float_positional(v, precision=decimals, fractional=True, trim="-")
        else:
            text = np.format_float_positional(v, precision=digits, fractional=False, trim="-")
        return "0" if text == "-0" else text

    def nested(a: np.ndarray) -> str:
        return number(float(a)) if a.ndim == 0 else "[" + ", ".join(nested(row) for row in a) + "]"

    return nested(np.asarray(values, dtype=np.float64))
