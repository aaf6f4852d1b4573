"""The toy problem of lesson 4: predict the next character of four short poems from the current one.

The data, a model made of two layers (wte -> lm_head, named as the first and last layers of nanoGPT's
GPT) and the training loop that the lesson's scripts share.
"""

from __future__ import annotations

import numpy as np

from nn import Embedding, Linear, Module

from functional import cross_entropy

# --8<-- [start:data]
TEXT = (
    "床前明月光，疑是地上霜。举头望明月，低头思故乡。\n"
    "春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。\n"
    "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。\n"
    "红豆生南国，春来发几枝。愿君多采撷，此物最相思。\n"
)
CHARS = sorted(set(TEXT))  # the vocabulary, V characters
V = len(CHARS)


def pairs() -> tuple[np.ndarray, np.ndarray]:
    """Every (character, next character) of TEXT as two id arrays of shape (N,)."""
    ids = np.array([CHARS.index(c) for c in TEXT])
    return ids[:-1], ids[1:]


def floor(x: np.ndarray, y: np.ndarray) -> float:
    """The lowest loss any model that sees one character can reach: -mean log p(y | x), p counted."""
    counts = np.zeros((V, V))
    np.add.at(counts, (x, y), 1)
    p = counts / np.maximum(counts.sum(axis=1, keepdims=True), 1)
    return float(-np.log(p[x, y]).mean())
# --8<-- [end:data]


# --8<-- [start:model]
class TinyLM(Module):
    """Next-character logits from the current character: (N,) ids -> (N, V)."""

    def __init__(self, C: int = 16, rng=None):
        self.wte = Embedding(V, C, rng=rng)  # (V, C)
        self.lm_head = Linear(C, V, rng=rng)  # (V, C), (V,)

    def forward(self, idx):
        return self.lm_head(self.wte(idx))  # (N,) -> (N, C) -> (N, V)
# --8<-- [end:model]


# --8<-- [start:loop]
def train(model: Module, opt, x, y, steps: int) -> list[float]:
    """Full-batch training; the loss before each step."""
    losses = []
    for _ in range(steps):
        loss = cross_entropy(model(x), y)  # forward: a scalar
        opt.zero_grad()  # grads of the last step would add up (+=)
        loss.backward()  # fills p.grad for every parameter
        opt.step()  # p.data moves against p.grad
        losses.append(float(loss.data))
    return losses
# --8<-- [end:loop]
