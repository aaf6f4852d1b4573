"""Checks for the exercise of lesson 0, ``first-network``: the reader's gradient by nudging.

``check_grad_by_nudging(fn)`` calls ``fn(f, theta)`` on two functions whose partial derivatives calculus
gives exactly, and returns one report: ``"<name>: every check passed ..."``, or ``"<name>: not yet"``
followed by what was expected, what came back and, when the numbers match a known mistake, which one.
An exception raised by the reader's code is reported the same way, with the line of the reader's file
it came from, so that the reader sees what was expected next to what went wrong.
"""

from __future__ import annotations

import traceback

import numpy as np

RTOL, ATOL = 1e-4, 1e-4  # a one-sided nudge with h = 1e-6 is within about 1e-5 of calculus here


def _line_data() -> tuple[np.ndarray, np.ndarray]:
    """The lesson's 20 points around y = 2x + 1 (snippets/first-network/01_fit_a_line.py)."""
    rng = np.random.default_rng(0)
    x = rng.uniform(-2, 2, size=20)
    return x, 2 * x + 1 + rng.normal(0, 0.3, size=20)


def _cases():
    """(what, f, theta, calculus's gradient of f at theta, how calculus got it)."""
    x, y = _line_data()

    def line_loss(t):
        return float(np.mean((t[0] * x + t[1] - y) ** 2))

    err = -y  # w * x + b - y at w = b = 0
    yield ("L(w, b) = mean((w*x + b - y)^2) on the lesson's 20 points, at theta = [w, b] = [0, 0]", line_loss,
           np.array([0.0, 0.0]), np.array([np.mean(2 * err * x), np.mean(2 * err)]),
           "[mean(2*err*x), mean(2*err)], err = w*x + b - y")

    def three(t):
        return float((t[0] - 1) ** 2 + 2 * t[0] * t[1] + t[2] ** 3)

    t = np.array([0.5, -1.0, 2.0])
    yield ("f(t) = (t0 - 1)^2 + 2*t0*t1 + t2^3 at theta = [0.5, -1, 2]", three, t,
           np.array([2 * (t[0] - 1) + 2 * t[1], 2 * t[0], 3 * t[2] ** 2]),
           "[2*(t0 - 1) + 2*t1, 2*t0, 3*t2^2]")


def _show(a) -> str:
    return "[" + ", ".join(f"{v:.4f}" for v in np.ravel(np.asarray(a, dtype=np.float64))) + "]"


def _where(error: BaseException) -> str:
    """The deepest line of the traceback outside this module: usually the reader's own line."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename != __file__]
    if not frames:
        return ""
    f = frames[-1]
    return f" (line {f.lineno} of {f.filename.rsplit('/', 1)[-1]}: {f.line})"


def _close(got, want, rtol=RTOL, atol=ATOL) -> bool:
    return got.shape == want.shape and bool(np.allclose(got, want, rtol=rtol, atol=atol))


def check_grad_by_nudging(fn) -> str:
    """``fn(f, theta)`` must return the partial derivatives of ``f`` at ``theta``, one per entry of
    ``theta``, each estimated by nudging that entry alone, and must leave ``theta`` as it found it."""
    name = getattr(fn, "__name__", "your function")
    for what, f, theta, want, how in _cases():
        given = theta.copy()
        head = f"{name}: not yet\n  {what}:\n    expected {_show(want)}  (calculus: {how})"
        try:
            got = fn(f, given)
        except Exception as e:  # the reader's error, next to what was expected
            return f"{head}\n    got      {type(e).__name__}: {e}{_where(e)}"
        if got is None:
            return f"{head}\n    got      None: return the array of partial derivatives"
        try:
            got = np.asarray(got, dtype=np.float64)
        except (TypeError, ValueError):
            return f"{head}\n    got      {got!r}, which is not an array of numbers"
        if got.shape != want.shape:
            return (f"{head}\n    got      an array of shape {got.shape}: one partial derivative per "
                    f"entry of theta, shape {want.shape}")
        moved = given - theta
        if np.any(np.abs(moved) > 1e-9):  # += h then -= h may leave a rounding error, no more
            return (f"{head}\n    got      {_show(got)}, and theta was left as {_show(given)}:\n"
                    f"  put each entry back after nudging it (theta[i] -= h), so that the next one starts from theta")
        if _close(got, want):
            continue
        report = f"{head}\n    got      {_show(got)}"
        if not np.any(got):
            return report + "\n  all zeros: fill grad[i] for every i, (f(theta with theta[i] + h) - f(theta)) / h"
        if _close(got, -want):
            return report + "\n  the sign is flipped: (f(theta + h) - f(theta)) / h, the nudged value first"
        if np.allclose(got, np.cumsum(want), rtol=RTOL, atol=ATOL):
            return (report + "\n  entry i is the sum of the first i+1 partial derivatives: the nudges pile up;\n"
                    "  undo each nudge before the next one")
        nonzero = np.abs(want) > 1e-3
        if nonzero.any():
            ratio = got[nonzero] / want[nonzero]
            if np.allclose(ratio, ratio[0], rtol=1e-2) and 1e-9 < abs(ratio[0]) < 1e-2:
                return report + f"\n  {ratio[0]:.1e} times too small: the change of f is not yet divided by h"
        if _close(got, want, rtol=5e-2, atol=5e-2):
            return report + "\n  close, but not close enough: make h smaller (1e-6 works well in float64)"
        return report
    return (f"{name}: every check passed (2 functions, 5 partial derivatives, "
            f"each within {RTOL:g} of calculus's)")
