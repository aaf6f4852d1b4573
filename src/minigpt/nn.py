"""Layers on the numpy engine: Module, ModuleList, Linear, Embedding, LayerNorm, Dropout.

Names, arguments and parameter shapes follow ``torch.nn``, so ``minigpt.gpt`` (built from these) and
``minigpt.gpt_torch`` share one ``state_dict`` layout.
"""

from __future__ import annotations

import numpy as np

from . import functional as F
from .tensor import Tensor


class Parameter(Tensor):
    """A tensor a Module learns: it always requires a gradient."""

    def __init__(self, data):
        super().__init__(data, requires_grad=True)


class Module:
    """Base class: registers Parameters and sub-Modules in the order they are assigned."""

    def __init__(self) -> None:
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_modules", {})
        object.__setattr__(self, "training", True)

    def __setattr__(self, name, value) -> None:
        if "_parameters" not in self.__dict__:
            raise RuntimeError(f"{type(self).__name__}.__init__ must call super().__init__() before setting {name}")
        self._parameters.pop(name, None)
        self._modules.pop(name, None)
        if isinstance(value, Parameter):
            self._parameters[name] = value
        elif isinstance(value, Module):
            self._modules[name] = value
        object.__setattr__(self, name, value)

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} does not define forward()")

    def named_parameters(self, prefix: str = ""):
        """(dotted name, parameter) pairs in registration order; a shared parameter appears once."""
        seen: set[int] = set()
        for name, p in self._named_parameters(prefix):
            if id(p) not in seen:
                seen.add(id(p))
                yield name, p

    def _named_parameters(self, prefix: str):
        for name, p in self._parameters.items():
            yield prefix + name, p
        for name, m in self._modules.items():
            yield from m._named_parameters(prefix + name + ".")

    def parameters(self) -> list[Parameter]:
        return [p for _, p in self.named_parameters()]

    def modules(self):
        yield self
        for m in self._modules.values():
            yield from m.modules()

    def zero_grad(self) -> None:
        for p in self.parameters():
            p.grad = None

    def train(self, mode: bool = True) -> "Module":
        for m in self.modules():
            object.__setattr__(m, "training", mode)
        return self

    def eval(self) -> "Module":
        return self.train(False)

    def to(self, dtype) -> "Module":
        """Cast every parameter to ``dtype`` (e.g. np.float64 for gradient checks)."""
        for p in self.parameters():
            p.data = p.data.astype(dtype)
            p.grad = None
        return self

    def state_dict(self) -> dict[str, np.ndarray]:
        """{name: copy of the parameter's array}."""
        return {name: p.data.copy() for name, p in self.named_parameters()}

    def load_state_dict(self, state: dict) -> None:
        """Copy arrays into the parameters; names and shapes must match (nothing changes if one does not).

        A torch state dict converts with ``minigpt.convert.to_numpy`` first."""
        own = dict(self.named_parameters())
        missing = [k for k in own if k not in state]
        unexpected = [k for k in state if k not in own]
        if missing or unexpected:
            raise KeyError(f"load_state_dict: missing keys {missing}, unexpected keys {unexpected}")
        arrays = {}
        for name, value in state.items():
            value = np.asarray(value)
            if value.shape != own[name].shape:
                raise ValueError(f"load_state_dict: {name} has shape {value.shape}, expected {own[name].shape}")
            arrays[name] = value
        for name, value in arrays.items():
            own[name].data = value.astype(own[name].dtype, copy=True)


class ModuleList(Module):
    """A list of Modules, registered as "0", "1", ..."""

    def __init__(self, modules) -> None:
        super().__init__()
        for i, m in enumerate(modules):
            setattr(self, str(i), m)

    def __iter__(self):
        return iter(self._modules.values())

    def __len__(self) -> int:
        return len(self._modules)

    def __getitem__(self, i: int) -> Module:
        return list(self._modules.values())[i]


def _normal(rng: np.random.Generator | None, shape, std: float) -> np.ndarray:
    rng = rng if rng is not None else np.random.default_rng()
    return (rng.standard_normal(shape) * std).astype(np.float32)


class Linear(Module):
    """y = x @ W.T + b, with W of shape (out_features, in_features) as in torch."""

    def __init__(self, in_features: int, out_features: int, bias: bool = True, rng=None, std: float = 0.02):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        self.weight = Parameter(_normal(rng, (out_features, in_features), std))
        self.bias = Parameter(np.zeros(out_features, dtype=np.float32)) if bias else None

    def forward(self, x: Tensor) -> Tensor:
        if x.shape[-1] != self.in_features:
            raise ValueError(f"Linear: input has last dim {x.shape[-1]}, expected in_features={self.in_features}")
        y = x @ self.weight.T  # (..., in) @ (in, out) -> (..., out)
        return y + self.bias if self.bias is not None else y


class Embedding(Module):
    """A lookup table: row i of ``weight`` is the vector of token i."""

    def __init__(self, num_embeddings: int, embedding_dim: int, rng=None, std: float = 0.02):
        super().__init__()
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.weight = Parameter(_normal(rng, (num_embeddings, embedding_dim), std))

    def forward(self, idx) -> Tensor:
        idx = F.check_token_ids(idx, self.num_embeddings, ndim=None, name="Embedding: index")
        return self.weight[idx]  # (*idx.shape, embedding_dim)


class LayerNorm(Module):
    def __init__(self, ndim: int, bias: bool = True, eps: float = 1e-5):
        super().__init__()
        self.eps = eps
        self.weight = Parameter(np.ones(ndim, dtype=np.float32))
        self.bias = Parameter(np.zeros(ndim, dtype=np.float32)) if bias else None

    def forward(self, x: Tensor) -> Tensor:
        return F.layer_norm(x, self.weight, self.bias, self.eps)


class Dropout(Module):
    def __init__(self, p: float = 0.0, rng: np.random.Generator | None = None):
        super().__init__()
        self.p = p
        self.rng = rng if rng is not None else np.random.default_rng()

    def forward(self, x: Tensor) -> Tensor:
        return F.dropout(x, self.p, self.training, self.rng)

