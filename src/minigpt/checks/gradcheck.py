"""Checks for lesson 4 (``tensor/gradcheck``): the reader's central-difference gradient.

``check_numerical_grad(fn)`` takes a function with the lesson's signature, ``fn(f, x, eps)``: ``f`` maps
a float64 array to a number, and ``fn`` returns d f / d x, an array shaped like ``x``. The check knows
the exact derivatives of its test functions, so it needs nothing from the reader's engine. It returns one
report: ``"<name>: passed ..."``, or ``"<name>: not yet"`` and what was expected and what came back.
An error raised by the reader's code is reported as expected vs got (``reader_errors``).
"""

from __future__ import annotations

import numpy as np

from minigpt.checks import show, reader_errors


def _cube_sum(a: np.ndarray) -> float:
    return float((a * a * a).sum())  # f(x) = sum(x^3), df/dx = 3 x^2


@reader_errors('fn(f, x, eps) -> (f(x + eps) - f(x - eps)) / (2 eps) for every element of x')
def check_numerical_grad(fn) -> str:
    """``fn(f, x, eps)`` must return (f(x + eps e_i) - f(x - eps e_i)) / (2 eps) for every element i of x,
    in an array of x's shape, and leave x as it found it.

    Four tests, in order: f(x) = sum(x^3) on a vector at eps = 1e-3, where a central difference is off by
    exactly eps^2 = 1e-6 and a forward difference by about 3 x eps; the same f on a (2, 3) array (every
    element, in its place); x unchanged afterwards; the eps it is given used (at eps = 0.5 a central
    difference of x^3 is 3 x^2 + eps^2 exactly, whatever the rounding).
    """
    name = getattr(fn, "__name__", "your function")
    eps = 1e-3

    x = np.array([1.0, 2.0, 3.0])
    got = np.asarray(fn(_cube_sum, x.copy(), eps), dtype=np.float64)
    want = 3 * x**2
    if got.shape != x.shape:
        return (f"{name}: not yet\n  f(x) = sum(x**3) at x = {show(x, digits=7)}: expected a gradient of shape {x.shape}, "
                f"got shape {got.shape}")
    if not np.allclose(got, want, rtol=0, atol=1e-5):
        hint = ""
        if np.allclose(got, want + 3 * x * eps + eps**2, rtol=0, atol=1e-9):
            hint = "\n  that is (f(x + eps) - f(x)) / eps, a forward difference, off by about 3 x eps; use central differences"
        elif np.allclose(got, want - 3 * x * eps + eps**2, rtol=0, atol=1e-9):
            hint = "\n  that is (f(x) - f(x - eps)) / eps, a backward difference, off by about 3 x eps; use central differences"
        elif np.allclose(got, 2 * want, rtol=0, atol=1e-4):
            hint = "\n  twice the gradient: divide by 2 eps, the distance between x + eps and x - eps"
        return (f"{name}: not yet\n  f(x) = sum(x**3) at x = {show(x, digits=7)}, eps = {eps:g}\n"
                f"    expected 3 x**2 = {show(want, digits=7)} (within 1e-5)\n    got      {show(got, digits=7)}{hint}")

    x = np.array([[0.5, -1.0, 2.0], [1.5, 0.0, -2.5]])
    before = x.copy()
    got = np.asarray(fn(_cube_sum, x, eps), dtype=np.float64)
    want = 3 * before**2
    if got.shape != x.shape:
        return (f"{name}: not yet\n  x of shape {x.shape}: expected a gradient of the same shape, got shape {got.shape}"
                f"\n  loop over every index of x, e.g. np.ndindex(x.shape)")
    wrong = np.argwhere(~np.isclose(got, want, rtol=0, atol=1e-5))
    if len(wrong):
        i = tuple(int(j) for j in wrong[0])
        return (f"{name}: not yet\n  f(x) = sum(x**3) on a {x.shape} array, element {i} (x = {before[i]:g}):\n"
                f"    expected 3 x**2 = {want[i]:g}\n    got      {got[i]:g}")
    changed = np.argwhere(x != before)
    if len(changed):
        i = tuple(int(j) for j in changed[0])
        return (f"{name}: not yet\n  x changed: after the call x{list(i)} is {x[i]:g}, it was {before[i]:g}\n"
                f"  put every element back after perturbing it")

    x, big = np.array([1.0, 2.0]), 0.5
    got = np.asarray(fn(_cube_sum, x.copy(), big), dtype=np.float64)
    want = 3 * x**2 + big**2
    if not np.allclose(got, want, rtol=0, atol=1e-9):
        return (f"{name}: not yet\n  f(x) = sum(x**3) at x = {show(x, digits=7)} with eps = {big:g}: a central difference "
                f"is 3 x**2 + eps**2 exactly\n    expected {show(want, digits=7)}\n    got      {show(got, digits=7)}\n"
                f"  use the eps you are given")
    return (f"{name}: passed (3 x**2 within 1e-5 on shapes (3,) and {before.shape}, x left as it was, "
            f"eps = {big:g} used as given)")
