"""Broadcasting and batched matmul, as lesson 1 builds them on plain numpy arrays.

broadcast_shapes and batched_matmul spell out rules numpy and torch apply silently; broadcasting's
backward pass, un-broadcasting, waits for lesson 3's engine (snippets/softmax-cross-entropy/tensor.py).
"""

from __future__ import annotations

import itertools

import numpy as np


# --8<-- [start:broadcast_shapes]
def broadcast_shapes(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """The shape of a op b: align the shapes at the right; each pair of sizes must be equal or contain a 1."""
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)  # pad on the left with 1s
    out = []
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y and 1 not in (x, y):
            raise ValueError(f"shapes {a} and {b} do not broadcast: dim {i} has sizes {x} and {y}")
        out.append(max(x, y))
    return tuple(out)
# --8<-- [end:broadcast_shapes]


# --8<-- [start:batched_matmul]
def batched_matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(..., M, K) @ (..., K, N) -> (..., M, N): one (M, K) @ (K, N) product per position of the batch
    dims, which broadcast like elementwise ops."""
    if a.ndim < 2 or b.ndim < 2:
        raise ValueError(f"matmul: {a.shape} @ {b.shape}: both need at least 2 dims, (..., M, K) and (..., K, N)")
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(f"matmul: {a.shape} @ {b.shape}: inner sizes {a.shape[-1]} and {b.shape[-2]} differ")
    batch = broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = np.broadcast_to(a, batch + a.shape[-2:])  # views: nothing is copied
    b = np.broadcast_to(b, batch + b.shape[-2:])
    out = np.empty(batch + (a.shape[-2], b.shape[-1]), dtype=np.result_type(a, b))
    for idx in itertools.product(*(range(n) for n in batch)):  # every (b0, b1, ...) of the batch
        out[idx] = a[idx] @ b[idx]  # (M, K) @ (K, N) -> (M, N)
    return out
# --8<-- [end:batched_matmul]

