"""Cross-entropy as one fused op, lesson 3: the loss and its gradient softmax - one_hot in one node."""

from __future__ import annotations

import numpy as np

from tensor import Tensor


# --8<-- [start:cross_entropy]
def cross_entropy(logits: Tensor, targets) -> Tensor:
    """Mean over rows of -log softmax(logits)[target]; logits (N, V), targets N integers in [0, V)."""
    targets = np.asarray(targets)
    N, V = logits.shape
    if targets.shape != (N,) or not np.issubdtype(targets.dtype, np.integer):
        raise ValueError(f"cross_entropy: expected {N} integer targets for logits of shape {logits.shape}, "
                         f"got {targets.dtype} of shape {targets.shape}")
    bad = (targets < 0) | (targets >= V)
    if bad.any():
        raise ValueError(f"cross_entropy: target {targets[bad][0]} is out of range for {V} classes (0 to {V - 1})")
    shifted = logits.data - logits.data.max(axis=1, keepdims=True)  # the max trick: no overflow
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))  # (N, V) log softmax
    loss = -log_probs[np.arange(N), targets].mean()

    def _backward(g):  # d loss / d logits = (softmax - one_hot) / N
        grad = np.exp(log_probs)
        grad[np.arange(N), targets] -= 1.0
        logits._accumulate(g * grad / N)

    return Tensor._make(loss, (logits,), _backward, "cross_entropy")
# --8<-- [end:cross_entropy]
