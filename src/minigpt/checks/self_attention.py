"""Checks for the exercises of lesson 10, ``attention/self-attention``.

``check_attention(fn)`` calls a reader's ``fn(q, k, v)`` on small Tensors and returns one report:
``"<name>: passed ..."``, or ``"<name>: not yet"`` followed by what was expected, what the function gave
and, when the numbers match a known mistake (no scaling, dividing by d, softmax over the wrong dimension,
the weights returned instead of the weighted sum), which one. An error raised by the reader's code is
reported as expected vs got (``reader_errors``).
"""

from __future__ import annotations

import numpy as np

from minigpt.checks import reader_errors

from minigpt.tensor import Tensor

B, T, D, DV = 2, 5, 8, 3


def _inputs() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """q, k (B, T, D) and v (B, T, DV) in float64, large enough that the weights are far from uniform."""
    rng = np.random.default_rng(10)
    return rng.normal(0, 1.5, (B, T, D)), rng.normal(0, 1.5, (B, T, D)), rng.normal(0, 1.0, (B, T, DV))


def _softmax(s: np.ndarray, axis: int) -> np.ndarray:
    e = np.exp(s - s.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _expected(q, k, v, divide_by: float | None = None, axis: int = -1, aggregate: bool = True) -> np.ndarray:
    s = q @ np.swapaxes(k, -1, -2) / (np.sqrt(q.shape[-1]) if divide_by is None else divide_by)  # (B, T, T)
    w = _softmax(s, axis)
    return w @ v if aggregate else w


def _mistakes(q, k, v) -> dict[str, np.ndarray]:
    return {
        "that is v unchanged: compare q with k, scale, normalise, then take the weighted sum of v": v,
        "that is softmax(q @ k^T) @ v without the scale: multiply the scores by 1/sqrt(d) first":
            _expected(q, k, v, divide_by=1.0),
        f"that divides the scores by d = {D}; divide by sqrt(d) = {np.sqrt(D):.3f}":
            _expected(q, k, v, divide_by=float(D)),
        "that is the softmax over dim=-2 (each column sums to 1); each row must: softmax(dim=-1)":
            _expected(q, k, v, axis=-2),
        "those are the attention weights (B, T, T); the last step multiplies them by v":
            _expected(q, k, v, aggregate=False),
    }


def _show(a: np.ndarray) -> list:
    return np.round(np.asarray(a, dtype=np.float64), 3).tolist()


@reader_errors('fn(q, k, v) -> softmax(q @ k^T / sqrt(d), dim=-1) @ v, (B, T, dv)')
def check_attention(fn) -> str:
    """``fn(q, k, v)``: q, k (B, T, d), v (B, T, dv) Tensors -> softmax(q @ k^T / sqrt(d), dim=-1) @ v."""
    name = getattr(fn, "__name__", "your function")
    q, k, v = _inputs()
    got = fn(Tensor(q), Tensor(k), Tensor(v))
    got = np.asarray(got.data if isinstance(got, Tensor) else got, dtype=np.float64)
    want = _expected(q, k, v)
    head = f"{name}: not yet\n  q, k (B, T, d) = {q.shape}, v (B, T, dv) = {v.shape}\n"
    if got.shape != want.shape:
        report = head + f"  shape: expected (B, T, dv) = {want.shape}, got {got.shape}"
        weights = _expected(q, k, v, aggregate=False)
        if got.shape == weights.shape and np.allclose(got, weights, atol=1e-9):
            report += "\n  " + "those are the attention weights (B, T, T); the last step multiplies them by v"
        return report
    if np.allclose(got, want, rtol=1e-9, atol=1e-9):
        return f"{name}: passed (output {got.shape}, every number within 1e-9 of softmax(q @ k^T / sqrt(d)) @ v)"
    b, t = np.unravel_index(np.abs(got - want).max(-1).argmax(), want.shape[:2])
    report = (head + f"  output[{b}, {t}] (sequence {b}, position {t}):\n"
              f"    expected {_show(want[b, t])}\n    got      {_show(got[b, t])}")
    for hint, wrong in _mistakes(q, k, v).items():
        if wrong.shape == got.shape and np.allclose(got, wrong, atol=1e-9):
            return report + "\n  " + hint
    return report
