"""Layers, lesson 4: Module collects Parameters; Linear and Embedding (and LayerNorm, added in lesson 7,
the first model that needs it) are built from the engine's ops (the library, src/minigpt/nn.py, has the
same names, arguments and parameter shapes).

The engine is the one lesson 3 left, not a copy: snippets/softmax-cross-entropy/tensor.py and
functional.py, imported as lesson 3's modules under their own names, so that ``import tensor`` and
``import functional`` find them here as in the reader's folder.
"""

from __future__ import annotations

import numpy as np

from minigpt_course.lessons import lesson_module

Tensor = lesson_module("softmax-cross-entropy", "tensor").Tensor  # lesson 3's engine
lesson_module("softmax-cross-entropy", "functional")  # and its cross_entropy, for the scripts


# --8<-- [start:module]
class Parameter(Tensor):
    """A tensor a Module learns: it always wants a gradient."""

    def __init__(self, data):
        super().__init__(data, requires_grad=True)


class Module:
    """Finds its parameters by looking at its attributes: Parameters, and Modules holding more."""

    def named_parameters(self, prefix: str = ""):
        for name, value in vars(self).items():
            if isinstance(value, Parameter):
                yield prefix + name, value
            elif isinstance(value, Module):
                yield from value.named_parameters(prefix + name + ".")

    def parameters(self) -> list[Parameter]:
        return [p for _, p in self.named_parameters()]

    def zero_grad(self) -> None:
        for p in self.parameters():
            p.grad = None

    def __call__(self, *args):
        return self.forward(*args)
# --8<-- [end:module]


# --8<-- [start:linear]
class Linear(Module):
    """y = x @ W.T + b, W of shape (out_features, in_features) as in torch, initialised N(0, std)."""

    def __init__(self, in_features: int, out_features: int, bias: bool = True, rng=None, std: float = 0.02):
        rng = rng if rng is not None else np.random.default_rng()
        self.weight = Parameter(rng.standard_normal((out_features, in_features)) * std)
        self.bias = Parameter(np.zeros(out_features)) if bias else None

    def forward(self, x: Tensor) -> Tensor:
        y = x @ self.weight.T  # (..., in) @ (in, out) -> (..., out)
        return y + self.bias if self.bias is not None else y
# --8<-- [end:linear]


# --8<-- [start:embedding]
class Embedding(Module):
    """A table with one learned row per token id: forward(idx) picks rows, (*idx.shape, dim)."""

    def __init__(self, num_embeddings: int, embedding_dim: int, rng=None, std: float = 0.02):
        rng = rng if rng is not None else np.random.default_rng()
        self.weight = Parameter(rng.standard_normal((num_embeddings, embedding_dim)) * std)

    def forward(self, idx) -> Tensor:
        return self.weight[np.asarray(idx)]
# --8<-- [end:embedding]


# --8<-- [start:layernorm]
class LayerNorm(Module):
    """Each vector to mean 0 and variance 1 over its last dim, then scaled by weight and shifted by bias."""

    def __init__(self, ndim: int, eps: float = 1e-5):
        self.eps = eps
        self.weight = Parameter(np.ones(ndim))
        self.bias = Parameter(np.zeros(ndim))

    def forward(self, x: Tensor) -> Tensor:
        mu = x.mean(dim=-1, keepdim=True)  # (..., 1)
        var = ((x - mu) ** 2).mean(dim=-1, keepdim=True)  # (..., 1), the biased variance, as torch
        xhat = (x - mu) / (var + self.eps) ** 0.5  # (..., C)
        return xhat * self.weight + self.bias
# --8<-- [end:layernorm]
