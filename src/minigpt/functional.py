"""Fused functions with hand-written backward: cross-entropy, layer norm, dropout; and the check of token ids.

Each is one node in the graph (not dozens of small ones), which keeps the numpy engine fast.
Names and arguments follow ``torch.nn.functional``.
"""

from __future__ import annotations

import numpy as np

from .tensor import Tensor


def softmax(x: Tensor, dim: int = -1) -> Tensor:
    return x.softmax(dim)


def log_softmax(x: Tensor, dim: int = -1) -> Tensor:
    return x.log_softmax(dim)


def gelu(x: Tensor) -> Tensor:
    return x.gelu()


def relu(x: Tensor) -> Tensor:
    return x.relu()


def cross_entropy(logits: Tensor, targets, ignore_index: int = -1) -> Tensor:
    """Mean of -log softmax(logits)[target] over the positions whose target is not ``ignore_index``.

    logits: (N, V) or (B, T, V); targets: integers of shape (N,) or (B, T).
    """
    targets = np.asarray(targets.data if isinstance(targets, Tensor) else targets)
    if not np.issubdtype(targets.dtype, np.integer):
        raise TypeError(f"cross_entropy: targets must be integers, got dtype {targets.dtype}")
    if logits.ndim < 2 or targets.shape != logits.shape[:-1]:
        raise ValueError(
            f"cross_entropy: targets of shape {targets.shape} do not match logits of shape {logits.shape} "
            f"(expected targets of shape {logits.shape[:-1]})"
        )
    V = logits.shape[-1]
    x = logits.data.reshape(-1, V)  # (N, V)
    t = targets.reshape(-1)  # (N,)
    keep = t != ignore_index
    bad = keep & ((t < 0) | (t >= V))
    if bad.any():
        raise ValueError(f"cross_entropy: target {t[bad][0]} is out of range for {V} classes")
    rows = np.nonzero(keep)[0]
    count = len(rows)

    shifted = x - x.max(axis=1, keepdims=True)  # the max is subtracted first: no overflow
    logsumexp = np.log(np.exp(shifted).sum(axis=1, keepdims=True))  # (N, 1)
    picked = shifted[rows, t[rows]] - logsumexp[rows, 0]  # log p(target), (count,)
    loss = np.asarray(-picked.sum() / count if count else np.nan, dtype=x.dtype)

    def _backward(g):  # d loss / d logits = (softmax - one_hot) / count, 0 on ignored rows
        grad = np.exp(shifted - logsumexp)
        grad[rows, t[rows]] -= 1.0
        grad *= g / count
        grad[~keep] = 0.0
        logits._accumulate(grad.reshape(logits.shape))

    return Tensor._make(loss, (logits,), _backward, "cross_entropy")


def check_token_ids(idx, vocab_size: int, ndim: int | None = 2, name: str = "idx"):
    """``idx`` as a numpy integer array, every id in [0, vocab_size); else one clear error.

    ``ndim=2`` asks for a (B, T) batch; None accepts any shape. Both GPTs and the numpy Embedding
    check their input here, so a bad id is reported in the reader's terms, not deep inside numpy.
    """
    arr = np.asarray(idx)
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"{name} must hold integer token ids, got dtype {arr.dtype}")
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must have shape (B, T), got shape {arr.shape}")
    if arr.size and (arr.min() < 0 or arr.max() >= vocab_size):
        bad = arr[(arr < 0) | (arr >= vocab_size)][0]
        raise ValueError(f"{name} {bad} is out of range for vocab_size={vocab_size} (ids go from 0 to {vocab_size - 1})")
    return arr


# --8<-- [start:layer_norm]
def layer_norm(x: Tensor, weight: Tensor | None, bias: Tensor | None, eps: float = 1e-5) -> Tensor:
    """Normalise the last dim to mean 0 and variance 1, then scale by ``weight`` and shift by ``bias``."""
    C = x.shape[-1]
    for name, p in (("weight", weight), ("bias", bias)):
        if p is not None and p.shape != (C,):
            raise ValueError(f"layer_norm: {name} has shape {p.shape}, expected ({C},) for input of shape {x.shape}")
    mu = x.data.mean(axis=-1, keepdims=True)
    xc = x.data - mu
    rstd = 1.0 / np.sqrt((xc * xc).mean(axis=-1, keepdims=True) + eps)  # 1 / sqrt(var + eps)
    xhat = xc * rstd
    out = xhat * weight.data if weight is not None else xhat.copy()
    if bias is not None:
        out += bias.data

    def _backward(g):
        lead = tuple(range(g.ndim - 1))
        if bias is not None:
            bias._accumulate(g.sum(axis=lead))
        if weight is not None:
            weight._accumulate((g * xhat).sum(axis=lead))
            g = g * weight.data  # gradient with respect to xhat
        # dx = rstd * (g - mean(g) - xhat * mean(g * xhat))
        gx = g - g.mean(axis=-1, keepdims=True) - xhat * (g * xhat).mean(axis=-1, keepdims=True)
        x._accumulate(gx * rstd)

    parents = tuple(p for p in (x, weight, bias) if p is not None)
    return Tensor._make(out, parents, _backward, "layer_norm")
# --8<-- [end:layer_norm]


def dropout(x: Tensor, p: float, training: bool, rng: np.random.Generator | None = None) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by 1/(1-p); identity in eval."""
    if not 0.0 <= p < 1.0:
        raise ValueError(f"dropout: p must be in [0, 1), got {p}")
    if not training or p == 0.0:
        return x
    rng = rng if rng is not None else np.random.default_rng()
    keep = rng.random(x.shape, dtype=np.float32) >= p
    scale = np.asarray(1.0 / (1.0 - p), dtype=x.dtype)
    mask = keep * scale  # (same shape as x), 0 or 1/(1-p)

    def _backward(g):
        x._accumulate(g * mask)

    return Tensor._make(x.data * mask, (x,), _backward, "dropout")
