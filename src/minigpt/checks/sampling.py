"""Checks for lesson 17 (``train/sampling``): the reader's top-p (nucleus) filter.

``check_top_p(fn)`` calls ``fn(probs, top_p)`` on rows of probabilities (B, V) and wants what
``minigpt.sampling.sample`` draws from: in each row, the smallest set of most likely tokens whose
probability reaches ``top_p`` (a token is dropped once the tokens ranked above it hold ``top_p``; the most
likely token is always kept), the rest set to 0, the kept ones divided by their sum. It returns one report:
``"<name>: passed ..."``, or ``"<name>: not yet"`` with the case, the expected and the returned rows, and
what the difference usually means. An error raised by ``fn`` is reported the same way, with its line.
"""

from __future__ import annotations

import traceback

import numpy as np

from minigpt.checks import show

# (what the case tests, probs (B, V), top_p)
CASES = (
    ("sorted row, top_p 0.7", [[0.5, 0.3, 0.15, 0.05]], 0.7),
    ("the same probabilities out of order", [[0.05, 0.3, 0.5, 0.15]], 0.7),
    ("one token above top_p on its own", [[0.95, 0.03, 0.02]], 0.9),
    ("the first two hold exactly top_p", [[0.5, 0.25, 0.125, 0.125]], 0.75),
    ("two rows, a peaked one and a flat one", [[0.7, 0.2, 0.1, 0.0], [0.25, 0.25, 0.25, 0.25]], 0.6),
    ("top_p 1: nothing dropped", [[0.4, 0.3, 0.2, 0.1]], 1.0),
)


def _nucleus(probs: np.ndarray, top_p: float, order=lambda row: np.argsort(-row, kind="stable"),
             stop=lambda before, p, top_p: before >= top_p) -> np.ndarray:
    """Each row filtered: tokens taken in ``order`` until ``stop`` says so, then renormalised."""
    out = np.zeros_like(probs)
    for b, row in enumerate(probs):
        before = 0.0  # the probability of the tokens taken so far
        for t in order(row):
            if stop(before, row[t], top_p):
                break
            out[b, t] = row[t]
            before += row[t]
        total = out[b].sum()
        out[b] = out[b] / total if total > 0 else np.nan
    return out


def reference(probs: np.ndarray, top_p: float) -> np.ndarray:
    """The filter ``sample`` applies, row by row, written out plainly: most likely first, a token dropped
    once the tokens above it hold top_p."""
    return _nucleus(probs, top_p)


# the usual wrong filters, each with what it means
MISTAKES = (
    (lambda probs, p: _nucleus(probs, p, stop=lambda before, x, top_p: before + x > top_p),
     "the token that crosses top_p is dropped, so the kept tokens hold less than top_p (and a row whose most likely "
     "token alone passes top_p keeps nothing): drop a token only once the tokens ranked above it hold top_p"),
    (lambda probs, p: _nucleus(probs, p, stop=lambda before, x, top_p: before > top_p),
     "one token too many: a token whose more likely tokens already hold exactly top_p is dropped "
     "(compare the mass above it with >=, not >)"),
    (lambda probs, p: _nucleus(probs, p, order=lambda row: np.arange(len(row))),
     "the first tokens by index are kept: rank the tokens by probability, most likely first, before summing"),
    (lambda probs, p: _nucleus(probs, p, order=lambda row: np.argsort(row, kind="stable")),
     "the least likely tokens are kept: sort in decreasing order (np.argsort(-probs)), the most likely first"),
)


def _where(e: BaseException) -> str:
    """' (line N of file: code)' for the innermost frame of the reader's error."""
    frames = traceback.extract_tb(e.__traceback__)
    if not frames:
        return ""
    f = frames[-1]
    return f" (line {f.lineno} of {f.filename.rsplit('/', 1)[-1]}: {f.line})"


def _diagnose(probs: np.ndarray, top_p: float, want: np.ndarray, got: np.ndarray) -> str:
    if np.allclose(got, probs):
        return "probs came back as they went in: nothing was dropped"
    for wrong, meaning in MISTAKES:
        if np.allclose(np.nan_to_num(got, nan=-1.0), np.nan_to_num(wrong(probs, top_p), nan=-1.0)):
            return meaning
    if not np.all(np.isfinite(got)) or np.any(~(got > 0).any(axis=-1)):
        return (f"a row kept no token (or holds nan): the most likely token is always kept, even when it alone "
                f"has more than top_p")
    if np.array_equal(want > 0, got > 0):
        return (f"the right tokens are kept, but the rows sum to {show(got.sum(axis=-1))}: divide the kept "
                f"probabilities by their sum, so that each row sums to 1")
    return "compare the kept tokens with the expected ones, row by row"


def check_top_p(fn) -> str:
    """``fn(probs, top_p)`` must return ``probs`` (B, V) filtered to each row's nucleus and renormalised,
    without changing ``probs`` itself."""
    name = getattr(fn, "__name__", "your function")
    for what, rows, top_p in CASES:
        probs = np.array(rows, dtype=np.float64)
        want = reference(probs, top_p)
        given = probs.copy()
        head = (f"{name}: not yet\n  {what}: probs {show(probs)}, top_p {show(top_p)}\n"
                f"    expected {show(want)}")
        try:
            got = fn(given, top_p)
        except Exception as e:  # the reader's error, next to what was expected
            return f"{head}\n    got      {type(e).__name__}: {e}{_where(e)}"
        if got is None:
            return f"{head}\n    got      None: return the filtered probabilities"
        try:
            got = np.asarray(got, dtype=np.float64)
        except (TypeError, ValueError):
            return f"{head}\n    got      {got!r}, which is not an array of numbers"
        if got.shape != want.shape:
            return f"{head}\n    got      an array of shape {got.shape}: one row of V probabilities per input row, {want.shape}"
        if not np.array_equal(given, probs):
            return (f"{head}\n    got      {show(got)}, and probs was changed to {show(given)}:\n"
                    f"  work on a copy (np.where, or probs.copy()): sample() still needs the caller's array")
        if not np.allclose(got, want, rtol=1e-9, atol=1e-12):
            return f"{head}\n    got      {show(got)}\n  {_diagnose(probs, top_p, want, got)}"
    return f"{name}: passed (all {len(CASES)} cases: ties at top_p, a peaked row, rows out of order, a batch)"
