"""Gradient checking, the end of lesson 2: the engine's gradient against central finite differences."""

from __future__ import annotations

import numpy as np

from tensor import Tensor


# --8<-- [start:numerical_grad]
def numerical_grad(f, x: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    """d f / d x by central differences: (f(x + eps) - f(x - eps)) / (2 eps), one element at a time.

    ``f`` maps an array to a number; the error of the formula shrinks like eps^2."""
    grad = np.zeros(x.shape, dtype=np.float64)
    for i in np.ndindex(x.shape):
        old = x[i]
        x[i] = old + eps
        up = f(x)
        x[i] = old - eps
        down = f(x)
        x[i] = old  # put it back
        grad[i] = (up - down) / (2 * eps)
    return grad
# --8<-- [end:numerical_grad]


# --8<-- [start:gradcheck]
def gradcheck(f, *arrays: np.ndarray, eps: float = 1e-6, rtol: float = 1e-5, atol: float = 1e-8) -> float:
    """The largest |autograd - numerical| over every input of ``f`` (Tensors in, a scalar Tensor out);
    raises AssertionError naming the input and the element where they disagree beyond the tolerance."""
    inputs = [Tensor(a.copy(), requires_grad=True) for a in arrays]
    f(*inputs).backward()
    worst = 0.0
    for k, t in enumerate(inputs):
        def f_k(a, k=k):  # f as a function of input k alone, the others held fixed
            args = [Tensor(a) if j == k else Tensor(arrays[j]) for j in range(len(arrays))]
            return f(*args).data.item()

        num = numerical_grad(f_k, np.array(arrays[k], dtype=np.float64), eps)
        grad = np.zeros_like(num) if t.grad is None else t.grad  # no gradient reached it: zero
        if grad.shape != num.shape:
            raise AssertionError(f"input {k}: autograd gave a gradient of shape {grad.shape} "
                                 f"for an input of shape {num.shape}")
        err = np.abs(grad - num)
        worst = max(worst, float(err.max()))
        bad = err > atol + rtol * np.abs(num)
        if bad.any():
            i = tuple(int(j) for j in np.argwhere(bad)[0])
            raise AssertionError(f"input {k}, element {i}: autograd {grad[i]:.6g}, numerical {num[i]:.6g}")
    return worst
# --8<-- [end:gradcheck]
