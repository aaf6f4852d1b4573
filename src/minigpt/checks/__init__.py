"""Checks for the lessons' "write it yourself" exercises, one module per lesson, named after its slug
(``minigpt.checks.storage`` for ``tensor/storage``, ``minigpt.checks.multi_head`` for
``attention/multi-head``). Every check is a ``check_<what>(fn, ...)`` that takes the reader's function
or class and returns one report: ``"<name>: passed ..."``, or ``"<name>: not yet"`` followed by what was
expected and what came back, in the lesson's terms (numbers written by ``show``). An exception the
reader's code raises (a failed ``assert`` too) becomes the same kind of report (``reader_errors``): what
was expected, the error, and the reader's line it came from, never a bare traceback.
"""

from __future__ import annotations

import functools
import inspect
import traceback
from pathlib import Path

import numpy as np

PACKAGE = Path(__file__).resolve().parents[1]  # src/minigpt


def where(error: BaseException, prefer: str | None = None) -> str:
    """`` (line 12 of gpt.py: y = att @ v)``: the deepest line in the file ``prefer`` (where the reader's
    function lives), else the deepest outside minigpt that is not a ``raise`` (the line that went wrong,
    not the shape check that caught it), else the deepest outside minigpt; "" when every line is minigpt's."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if PACKAGE not in Path(f.filename).resolve().parents]
    if isinstance(error, SyntaxError) and error.filename:
        return f" (line {error.lineno} of {Path(error.filename).name})"
    if not frames:
        return ""
    mine = [f for f in frames if prefer and Path(f.filename).resolve() == Path(prefer).resolve()]
    calls = [f for f in frames if not (f.line or "").startswith("raise")]
    f = (mine or calls or frames)[-1]
    return f" (line {f.lineno} of {Path(f.filename).name}: {f.line})"


def raised(name: str, expected: str, error: BaseException, prefer: str | None = None) -> str:
    """The report for an exception of the reader's code: what was expected, the error, where it arose."""
    message = " ".join(str(error).split())
    got = f"{type(error).__name__}: {message}" if message else type(error).__name__
    return f"{name}: not yet\n  expected {expected}\n  got      {got}{where(error, prefer)}"


def source_file(obj) -> str | None:
    try:
        return inspect.getsourcefile(obj)
    except TypeError:
        return None


def reader_errors(expected: str):
    """Decorate a ``check_<what>(fn, ...)``: an exception from the reader's ``fn`` (or anything it calls)
    becomes a "not yet" report saying ``expected`` (what ``fn`` should do, in the lesson's terms) and what
    was raised instead, at which line of the reader's file."""

    def decorate(check):
        @functools.wraps(check)
        def wrapped(fn, *args, **kwargs):
            try:
                return check(fn, *args, **kwargs)
            except Exception as e:  # the reader's error, beside what was expected
                name = kwargs.get("name") or getattr(fn, "__name__", "your function")
                return raised(name, expected.replace("fn(", f"{name}(").replace("cls(", f"{name}("), e,
                              source_file(fn))

        return wrapped

    return decorate


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
