"""Checks for the exercises of lesson 5, ``tensor/softmax-cross-entropy``.

``check_logsumexp(fn)``: ``fn(x, dim)`` is log(sum(exp(x))) along ``dim``, like ``torch.logsumexp``.
``check_cross_entropy_grad(fn)``: ``fn(logits, targets)`` is d(mean cross-entropy)/d logits, (N, V).

Each returns one report, ``"<name>: passed ..."`` or ``"<name>: not yet"`` followed by the first case that
differs, what was expected and what the function gave, and a hint when the difference has a known cause.
An error raised by the reader's code is reported as expected vs got (``reader_errors``).
"""

from __future__ import annotations

import numpy as np

from minigpt.checks import show, reader_errors

from minigpt.functional import cross_entropy
from minigpt.tensor import Tensor


def _reference_logsumexp(x: np.ndarray, dim: int) -> np.ndarray:
    m = x.max(axis=dim, keepdims=True)
    return (m + np.log(np.exp(x - m).sum(axis=dim, keepdims=True))).squeeze(axis=dim)


# name, x, dim, why the case is there (shown when it fails)
_LSE_CASES = [
    ("small numbers", np.array([1.0, 2.0, 3.0]), -1, "ln(e^1 + e^2 + e^3)"),
    ("large logits", np.array([1000.0, 1000.0]), -1, "1000 + ln 2"),
    ("very negative logits", np.array([-1000.0, -1000.0]), -1, "-1000 + ln 2"),
    ("a (2, 3) array along dim 1", np.array([[1.0, 2.0, 3.0], [1000.0, 0.0, -1000.0]]), 1, "one value per row"),
    ("a (2, 3) array along dim 0", np.array([[1.0, 2.0, 3.0], [1000.0, 0.0, -1000.0]]), 0, "one value per column"),
]


def _lse_hint(x: np.ndarray, dim: int, want: np.ndarray, got: np.ndarray) -> str:
    if np.isposinf(got).any() or np.isnan(got).any():
        return "exp of a large number overflowed to inf: subtract the largest value first, then add it back"
    if np.isneginf(got).any():
        return "every exp underflowed to 0 and log(0) = -inf: subtract the largest value first, then add it back"
    if np.allclose(got, want - x.max(axis=dim), rtol=1e-10, atol=1e-10):
        return "you subtracted the largest value m but did not add it back: logsumexp(x) = m + log(sum(exp(x - m)))"
    return ""


@reader_errors('fn(x, dim) -> log(sum(exp(x))) along dim, finite for logits of 1000')
def check_logsumexp(fn) -> str:
    """``fn(x, dim)`` must return log(sum(exp(x))) along ``dim``, that dim removed (``torch.logsumexp(x, dim)``),
    and stay finite for logits of +-1000."""
    name = getattr(fn, "__name__", "your function")
    for case, x, dim, why in _LSE_CASES:
        want = _reference_logsumexp(x, dim)
        with np.errstate(all="ignore"):
            got = np.asarray(fn(x.copy(), dim), dtype=np.float64)
        head = f"{name}: not yet\n  {case}: logsumexp(x, dim={dim}) with x =\n    {show(x, decimals=4)}\n"
        if got.shape != want.shape:
            return head + f"  expected shape {want.shape} (dim {dim} summed away), got shape {got.shape}"
        if not np.allclose(got, want, rtol=1e-10, atol=1e-10):
            hint = _lse_hint(x, dim, want, got)
            return (head + f"  expected {show(want, decimals=4)}   ({why})\n  got      {show(got, decimals=4)}"
                    + (f"\n  hint: {hint}" if hint else ""))
    return f"{name}: passed ({len(_LSE_CASES)} cases, logits of +-1000 included)"


def _reference_grad(logits: np.ndarray, targets: np.ndarray) -> np.ndarray:
    x = Tensor(logits, requires_grad=True)
    cross_entropy(x, targets).backward()
    return x.grad


_CE_CASES = [
    ("4 rows, 5 classes", np.random.default_rng(2).standard_normal((4, 5)) * 2, np.array([1, 0, 4, 1])),
    ("large logits", np.array([[1000.0, 0.0, -1000.0], [0.0, -800.0, 5.0]]), np.array([0, 1])),
]


def _ce_hint(logits: np.ndarray, targets: np.ndarray, want: np.ndarray, got: np.ndarray) -> str:
    N = len(targets)
    if not np.isfinite(got).all():
        return "exp of a large logit overflowed: subtract each row's largest logit before exp (the max trick)"
    if np.allclose(got, -want, atol=1e-9):
        return "the sign is flipped: the gradient is softmax - one_hot, not one_hot - softmax"
    if np.allclose(got, want * N, atol=1e-9):
        return f"{N} times too large: the loss is the mean over N = {N} rows, so divide by N"
    sums = got.sum(axis=1)
    if not np.allclose(sums, 0.0, atol=1e-9):
        return (f"each row of the gradient sums to 0 (softmax sums to 1, the one-hot too); "
                f"row 0 of yours sums to {show(sums[0], decimals=4)}")
    return ""


@reader_errors('fn(logits, targets) -> d loss / d logits = (softmax - one_hot) / N')
def check_cross_entropy_grad(fn) -> str:
    """``fn(logits, targets)`` (logits (N, V) floats, targets N integers) must return d loss / d logits for
    loss = mean over rows of -log softmax(logits)[target]: (softmax - one_hot) / N, finite for logits of 1000."""
    name = getattr(fn, "__name__", "your function")
    for case, logits, targets in _CE_CASES:
        N, V = logits.shape
        want = _reference_grad(logits, targets)
        with np.errstate(all="ignore"):
            got = np.asarray(fn(logits.copy(), targets.copy()), dtype=np.float64)
        head = f"{name}: not yet\n  {case}: logits (N, V) = {logits.shape}, targets {targets.tolist()}\n"
        if got.shape != want.shape:
            return head + f"  expected a gradient of shape (N, V) = {want.shape}, got {got.shape}"
        if not np.allclose(got, want, rtol=1e-8, atol=1e-12):
            row = int(np.argmax(~np.isclose(got, want, rtol=1e-8, atol=1e-12).all(axis=1)))
            hint = _ce_hint(logits, targets, want, got)
            return (head + f"  row {row} (target {targets[row]}), logits {show(logits[row], decimals=4)}:\n"
                    f"    expected {show(want[row], decimals=4)}   ((softmax - one_hot) / {N})\n"
                    f"    got      {show(got[row], decimals=4)}"
                    + (f"\n  hint: {hint}" if hint else ""))
    return f"{name}: passed ({len(_CE_CASES)} cases, logits of 1000 included)"
