"""Checks for the exercises of lesson 8, ``lm/bigram``.

``check_smoothed(fn)`` calls a reader's ``fn(counts, alpha)`` on a small table of pair counts and
returns one report: ``"<name>: passed ..."``, or ``"<name>: not yet"`` followed by the first row that
differs, what was expected, what the function gave, and, when the numbers match a known mistake,
which one. An error raised by the reader's code is reported as expected vs got (``reader_errors``).
"""

from __future__ import annotations

import numpy as np

from minigpt.checks import reader_errors

CHARS = "abc$"  # the check's vocabulary: N[a, b] = how often b follows a
COUNTS = np.array([[0, 3, 1, 0],
                   [2, 0, 0, 2],
                   [1, 1, 0, 0],
                   [0, 0, 0, 0]])  # "$" is never followed by anything: a row of zeros
ALPHAS = (1.0, 0.5)


def _right(counts: np.ndarray, alpha: float) -> np.ndarray:
    V = counts.shape[1]
    return (counts + alpha) / (counts.sum(axis=1, keepdims=True) + alpha * V)


MISTAKES = {
    "alpha once": (lambda N, a: (N + a) / (N.sum(axis=1, keepdims=True) + a),
                   "the denominator adds alpha once, but each of the V cells of the row got alpha:\n"
                   "  divide by N[a].sum() + alpha * V, and every row sums to 1"),
    "columns": (lambda N, a: (N + a) / (N.sum(axis=0, keepdims=True) + a * N.shape[0]),
                "that normalises columns (sum over axis 0): the row of a is P(. | a),\n"
                "  so divide by the sum over axis 1, the next tokens"),
    "no alpha": (lambda N, a: N / np.maximum(N.sum(axis=1, keepdims=True), 1),
                 "alpha was not added: an unseen pair still gets P = 0 and costs -ln 0 = inf"),
}


def _show(a) -> list:
    return np.round(np.asarray(a, dtype=np.float64), 4).tolist()


@reader_errors('fn(counts, alpha) -> (V, V), row a = (N[a] + alpha) / (N[a].sum() + alpha * V)')
def check_smoothed(fn) -> str:
    """``fn(counts, alpha)`` must return (V, V) with row a = (N[a] + alpha) / (N[a].sum() + alpha * V)."""
    name = getattr(fn, "__name__", "your function")
    for alpha in ALPHAS:
        got = np.asarray(fn(COUNTS.copy(), alpha), dtype=np.float64)
        want = _right(COUNTS, alpha)
        if got.shape != want.shape:
            return f"{name}: not yet\n  counts {COUNTS.shape}, alpha={alpha}: expected shape {want.shape}, got {got.shape}"
        for i, c in enumerate(CHARS):
            if np.allclose(got[i], want[i], rtol=1e-9, atol=1e-12):
                continue
            report = (f"{name}: not yet\n  alpha={alpha}, row {c!r} (counts {COUNTS[i].tolist()}):\n"
                      f"    expected {_show(want[i])}, sum {want[i].sum():.4f}\n"
                      f"    got      {_show(got[i])}, sum {got[i].sum():.4f}")
            for wrong, hint in MISTAKES.values():
                with np.errstate(divide="ignore", invalid="ignore"):
                    if np.allclose(got, wrong(COUNTS, alpha), rtol=1e-9, atol=1e-12):
                        return report + "\n  " + hint
            return report
    return (f"{name}: passed (alpha {', '.join(str(a) for a in ALPHAS)}: every row sums to 1, "
            f"the never-seen row {CHARS[-1]!r} is uniform)")
