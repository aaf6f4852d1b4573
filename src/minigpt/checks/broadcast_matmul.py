"""Checks for lesson 2 (``tensor/broadcast-matmul``): the reader writes ``broadcast_shapes(a, b)``.

``check_broadcast_shapes(fn)`` gives ``fn`` pairs of shapes and compares what comes back with
``np.broadcast_shapes``: a tuple for shapes that broadcast, a ``ValueError`` raised for shapes that do
not. It returns one report: ``"<name>: passed ..."``, or ``"<name>: not yet"`` with the first pair that
differs, what was expected, what ``fn`` gave and, where the answer matches a known mistake (the shapes
aligned at the left, sizes not checked, the smaller size kept), what that mistake is. A ``ValueError``
from ``fn`` is part of the answer; any other error ``fn`` raises is reported as expected vs got.
"""

from __future__ import annotations

import numpy as np

from minigpt.checks import int_tuple, reader_errors

# (a, b): the lesson's (B, T, C) + (C,) first; then the cases that tell the rules apart
PAIRS = [
    ((2, 3, 4), (4,)),  # a bias on (B, T, C)
    ((2, 3, 4), (3, 1)),  # one number per position
    ((3,), (3, 1)),  # a row and a column: (3, 3), not (3,)
    ((8, 1, 6, 1), (7, 1, 5)),  # numpy's documentation example
    ((2, 4, 8, 8), (8, 8)),  # a causal mask on the scores (B, nh, T, T)
    ((), (2, 2)),  # a scalar
    ((3, 4), (3,)),  # does not broadcast: 4 and 3
    ((2, 1), (8, 4, 3)),  # does not broadcast: 2 and 4
    ((5, 2), (5, 3)),  # does not broadcast: 2 and 3
]


def _reference(a, b):
    """np.broadcast_shapes(a, b), or the string "ValueError"."""
    try:
        return tuple(np.broadcast_shapes(a, b))
    except ValueError:
        return "ValueError"


def _left_aligned(a, b):
    """What broadcasting would give if shapes were padded with 1s on the right (aligned at the left)."""
    n = max(len(a), len(b))
    return _reference(tuple(a) + (1,) * (n - len(a)), tuple(b) + (1,) * (n - len(b)))


def _unchecked(a, b, pick):
    """Right-aligned, every pair of sizes combined by ``pick`` (max or min) with no check."""
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    return tuple(pick(x, y) for x, y in zip(a, b))


def _mistake(a, b, got) -> str | None:
    """What known mistake gives ``got`` (a shape or "ValueError") for ``a`` and ``b``, if one does."""
    if got == _unchecked(a, b, max):
        return ("each size is the larger of the pair, but two different sizes where neither is 1\n  "
                "do not broadcast: raise ValueError")
    if got == _left_aligned(a, b):
        return ("that is what aligning the shapes at the left gives; broadcasting aligns them at the right,\n  "
                "at their last dims, and pads the shorter one with 1s on the left")
    if got == _unchecked(a, b, min):
        return "a dim of size 1 is stretched to the other size: keep the larger one, not the smaller"
    return None


@reader_errors('fn(a, b) -> the broadcast shape as a tuple, or ValueError as np.broadcast_shapes')
def check_broadcast_shapes(fn) -> str:
    """``fn(a, b)`` must return the shape ``a`` and ``b`` broadcast to, as a tuple, or raise ValueError
    when they do not broadcast, exactly as ``np.broadcast_shapes(a, b)`` does.

    Returns one report: ``"<name>: passed ..."``, or ``"<name>: not yet"`` and the first pair where ``fn``
    differs, as expected vs got. Other errors ``fn`` raises are reported as expected vs got.
    """
    name = getattr(fn, "__name__", "your function")
    for a, b in PAIRS:
        want = _reference(a, b)
        expected = "a ValueError (they do not broadcast)" if want == "ValueError" else str(want)
        head = f"{name}: not yet\n  {name}({a}, {b}): expected {expected}"
        try:
            answer = fn(a, b)
        except ValueError as e:
            if want == "ValueError":
                continue
            got, head = "ValueError", f"{head}, got ValueError: {e}"
        else:
            if answer is None:
                return f"{head}, got None (the function returned nothing: is a `return` missing?)"
            got = int_tuple(answer)
            if got is None:
                return f"{head}, got {answer!r}: expected a tuple of ints"
            if got == want:
                continue
            head += f", got {got}"
        why = _mistake(a, b, got)
        return head + (f"\n  {why}" if why else "")
    fits = sum(_reference(a, b) != "ValueError" for a, b in PAIRS)
    return (f"{name}: passed ({len(PAIRS)} pairs: {fits} broadcast as numpy's, "
            f"{len(PAIRS) - fits} raise ValueError)")
