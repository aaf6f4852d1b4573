"""Checks for lesson 1 (``tensor/storage``): the reader writes ``contiguous_strides(shape)``.

``check_contiguous_strides(fn)`` compares ``fn(shape)`` with numpy's strides of a row-major array, in
elements, shape by shape, and returns one report: ``"<name>: passed ..."``, or ``"<name>: not yet"``
with the first shape that differs, what was expected, what ``fn`` gave and, where the answer matches a
known mistake (column-major order, bytes instead of elements, strides in reverse, a product that
starts one dim too early), what that mistake is. An error raised by the reader's code is reported as
expected vs got (``reader_errors``).
"""

from __future__ import annotations

import math

import numpy as np

from minigpt.checks import int_tuple, reader_errors

# the lesson's (B, T, C) first; then one dim, a dim of size 1, lesson 12's (B, T, nh, hs), a square matrix
SHAPES = [(2, 3, 4), (5,), (3, 1, 2), (2, 3, 2, 4), (64, 64), (7, 1), ()]


def _numpy_strides(shape: tuple[int, ...], order: str = "C") -> tuple[int, ...]:
    """numpy's strides of an array of this shape, in elements (numpy's own .strides count bytes)."""
    a = np.empty(shape, dtype=np.float32, order=order)
    return tuple(s // a.itemsize for s in a.strides)


def _mistake(shape: tuple[int, ...], want: tuple[int, ...], got: tuple[int, ...]) -> str | None:
    """What known mistake gives ``got`` for ``shape``, if one does (lines of the report)."""
    if len(got) != len(shape):
        return f"one stride per dim: shape {shape} needs {len(shape)}, the answer gives {len(got)}"
    if got == tuple(reversed(want)):
        return "the right numbers in reverse order: strides[0] belongs to dim 0, the one that moves slowest"
    if got == _numpy_strides(shape, "F"):
        return ("column-major (Fortran-order) strides: there dim 0 moves by 1.\n  Row-major: the last dim "
                "moves by 1, each earlier dim by the product of the sizes after it")
    for itemsize in (2, 4, 8):
        if got == tuple(s * itemsize for s in want):
            return (f"bytes for {itemsize}-byte elements, what numpy's .strides shows;\n  "
                    f"strides here count elements: divide by the itemsize")
    if got == tuple(math.prod(shape[d:]) for d in range(len(shape))):
        return ("strides[d] is the product of the sizes after dim d, shape[d+1:], not from dim d on:\n  "
                "the last dim moves by 1")
    return None


@reader_errors('fn(shape) -> row-major strides in elements, e.g. (12, 4, 1) for (2, 3, 4)')
def check_contiguous_strides(fn) -> str:
    """``fn(shape)`` must return the row-major strides of ``shape`` in elements, e.g. (12, 4, 1) for
    (2, 3, 4), as numpy's ``.strides`` divided by ``.itemsize`` and torch's ``.stride()`` give them.

    Returns one report: ``"<name>: passed ..."``, or ``"<name>: not yet"`` and the first shape whose
    strides differ, as expected vs got. An error raised by the reader's code is reported as expected vs got
    (``reader_errors``).
    """
    name = getattr(fn, "__name__", "your function")
    for shape in SHAPES:
        want = _numpy_strides(shape)
        answer = fn(shape)
        head = f"{name}: not yet\n  {name}({shape}): expected {want}"
        if answer is None:
            return f"{head}, got None (the function returned nothing: is a `return` missing?)"
        got = int_tuple(answer)
        if got is None:
            return f"{head}, got {answer!r}: expected a tuple of ints, one per dim"
        if got != want:
            why = _mistake(shape, want, got)
            return f"{head}, got {got}" + (f"\n  {why}" if why else "")
    dims = sorted(len(s) for s in SHAPES)
    return f"{name}: passed ({len(SHAPES)} shapes of {dims[0]} to {dims[-1]} dims, the same strides as numpy's)"
