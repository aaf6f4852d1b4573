"""Automatic checks for the lessons' "write it yourself" exercises, one module per lesson
(``minigpt.checks.storage`` for lesson ``tensor/storage`` …): a reader's function goes in; the check
prints what it expected and what it got, in the reader's terms, or that every check passed."""

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
