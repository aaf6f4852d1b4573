"""Layers and the GPT, on the numpy engine. Parameter names and shapes match ``minigpt.model`` (torch)."""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from . import functional as F
from .config import GPTConfig
from .tensor import Tensor, no_grad


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
        """Copy arrays (numpy or torch tensors) into the parameters; names and shapes must match."""
        own = dict(self.named_parameters())
        missing = [k for k in own if k not in state]
        unexpected = [k for k in state if k not in own]
        if missing or unexpected:
            raise KeyError(f"load_state_dict: missing keys {missing}, unexpected keys {unexpected}")
        arrays = {}
        for name, value in state.items():
            if hasattr(value, "detach"):  # a torch tensor; torch itself is never imported here
                value = value.detach().cpu().numpy()
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
        idx = np.asarray(idx.data if isinstance(idx, Tensor) else idx)
        if not np.issubdtype(idx.dtype, np.integer):
            raise TypeError(f"Embedding: indices must be integers, got dtype {idx.dtype}")
        if idx.size and (idx.min() < 0 or idx.max() >= self.num_embeddings):
            bad = idx[(idx < 0) | (idx >= self.num_embeddings)][0]
            raise ValueError(f"Embedding: index {bad} is out of range for {self.num_embeddings} rows (vocabulary size)")
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


# --- attention ---------------------------------------------------------------------


def split_heads(x: Tensor, n_head: int) -> Tensor:
    """(B, T, C) -> (B, nh, T, hs): each head gets its own slice of hs = C // nh channels."""
    B, T, C = x.shape
    x = x.reshape(B, T, n_head, C // n_head)  # (B, T, nh, hs)
    return x.permute(0, 2, 1, 3)  # (B, nh, T, hs)


def merge_heads(x: Tensor) -> Tensor:
    """(B, nh, T, hs) -> (B, T, C): the inverse of split_heads."""
    B, nh, T, hs = x.shape
    x = x.permute(0, 2, 1, 3)  # (B, T, nh, hs)
    return x.reshape(B, T, nh * hs)  # (B, T, C)


@lru_cache(maxsize=8)
def causal_mask(size: int) -> np.ndarray:
    """(size, size) booleans, True above the diagonal: position i must not see j > i."""
    mask = np.triu(np.ones((size, size), dtype=bool), k=1)
    mask.flags.writeable = False
    return mask


class KVCache:
    """Keys and values of the tokens already seen, for one attention layer."""

    def __init__(self) -> None:
        self.k: np.ndarray | None = None  # (B, nh, T_seen, hs)
        self.v: np.ndarray | None = None

    def __len__(self) -> int:
        return 0 if self.k is None else self.k.shape[2]

    def update(self, k: Tensor, v: Tensor) -> tuple[Tensor, Tensor]:
        """Append the new keys/values; return all of them. Only for inference (no gradient)."""
        self.k = k.data if self.k is None else np.concatenate([self.k, k.data], axis=2)
        self.v = v.data if self.v is None else np.concatenate([self.v, v.data], axis=2)
        return Tensor(self.k), Tensor(self.v)


class MultiHeadAttention(Module):
    """Causal multi-head self-attention.

    ``MultiHeadAttention(config)`` with a GPTConfig, or
    ``MultiHeadAttention(n_embd, n_head, block_size, bias=True, dropout=0.0, n_layer=1, rng=None)``.
    """

    def __init__(self, config_or_n_embd, n_head: int | None = None, block_size: int | None = None,
                 bias: bool = True, dropout: float = 0.0, n_layer: int = 1, rng=None):
        super().__init__()
        if isinstance(config_or_n_embd, GPTConfig):
            c = config_or_n_embd
            n_embd, n_head, block_size = c.n_embd, c.n_head, c.block_size
            bias, dropout, n_layer = c.bias, c.dropout, c.n_layer
        else:
            n_embd = config_or_n_embd
            if n_head is None or block_size is None:
                raise TypeError("MultiHeadAttention(n_embd, n_head, block_size, ...) needs n_head and block_size")
        if n_embd % n_head != 0:
            raise ValueError(f"n_embd={n_embd} is not divisible by n_head={n_head}: each head needs an equal share")
        self.n_embd, self.n_head, self.block_size = n_embd, n_head, block_size
        self.c_q = Linear(n_embd, n_embd, bias, rng)
        self.c_k = Linear(n_embd, n_embd, bias, rng)
        self.c_v = Linear(n_embd, n_embd, bias, rng)
        self.c_proj = Linear(n_embd, n_embd, bias, rng, std=0.02 / math.sqrt(2 * n_layer))
        self.attn_dropout = Dropout(dropout, rng)
        self.resid_dropout = Dropout(dropout, rng)

    def forward(self, x: Tensor, kv_cache: KVCache | None = None) -> Tensor:
        B, T, C = x.shape
        nh, hs = self.n_head, C // self.n_head
        # 1. project every token to a query, a key and a value
        q = self.c_q(x)  # (B, T, C)
        k = self.c_k(x)  # (B, T, C)
        v = self.c_v(x)  # (B, T, C)
        # 2. split the channels into nh heads of hs channels
        q = split_heads(q, nh)  # (B, T, C) -> (B, T, nh, hs) -> (B, nh, T, hs)
        k = split_heads(k, nh)  # (B, nh, T, hs)
        v = split_heads(v, nh)  # (B, nh, T, hs)
        start = 0
        if kv_cache is not None:  # generation: prepend the keys/values of earlier tokens
            start = len(kv_cache)
            k, v = kv_cache.update(k, v)  # (B, nh, start + T, hs)
        Tk = k.shape[2]
        if Tk > self.block_size:
            raise ValueError(f"sequence length {Tk} is longer than block_size={self.block_size}")
        # 3. scores: how much each query matches each key
        att = q @ k.transpose(-2, -1)  # (B, nh, T, hs) @ (B, nh, hs, Tk) -> (B, nh, T, Tk)
        att = att * (1.0 / math.sqrt(hs))
        # 4. causal mask: a token may not look at later tokens
        att = att.masked_fill(causal_mask(self.block_size)[start:start + T, :Tk], -np.inf)
        # 5. softmax over the keys: each row becomes weights that sum to 1
        att = att.softmax(dim=-1)  # (B, nh, T, Tk)
        att = self.attn_dropout(att)
        # 6. weighted sum of the values
        y = att @ v  # (B, nh, T, Tk) @ (B, nh, Tk, hs) -> (B, nh, T, hs)
        # 7. merge the heads back into C channels
        y = merge_heads(y)  # (B, nh, T, hs) -> (B, T, nh, hs) -> (B, T, C)
        # 8. output projection
        return self.resid_dropout(self.c_proj(y))  # (B, T, C)


class MLP(Module):
    def __init__(self, config: GPTConfig, rng=None):
        super().__init__()
        C = config.n_embd
        self.c_fc = Linear(C, 4 * C, config.bias, rng)
        self.c_proj = Linear(4 * C, C, config.bias, rng, std=0.02 / math.sqrt(2 * config.n_layer))
        self.dropout = Dropout(config.dropout, rng)

    def forward(self, x: Tensor) -> Tensor:
        h = self.c_fc(x).gelu()  # (B, T, 4C)
        return self.dropout(self.c_proj(h))  # (B, T, C)


class Block(Module):
    """Pre-norm Transformer block: x + attn(ln_1(x)), then x + mlp(ln_2(x))."""

    def __init__(self, config: GPTConfig, rng=None):
        super().__init__()
        self.ln_1 = LayerNorm(config.n_embd, config.bias)
        self.attn = MultiHeadAttention(config, rng=rng)
        self.ln_2 = LayerNorm(config.n_embd, config.bias)
        self.mlp = MLP(config, rng)

    def forward(self, x: Tensor, kv_cache: KVCache | None = None) -> Tensor:
        x = x + self.attn(self.ln_1(x), kv_cache)
        return x + self.mlp(self.ln_2(x))


class GPT(Module):
    """Token + position embeddings, n_layer blocks, a final LayerNorm, output head tied to wte."""

    def __init__(self, config: GPTConfig, seed: int = 0):
        super().__init__()
        self.config = config
        rng = np.random.default_rng(seed)
        self.wte = Embedding(config.vocab_size, config.n_embd, rng)
        self.wpe = Embedding(config.block_size, config.n_embd, rng)
        self.drop = Dropout(config.dropout, rng)
        self.blocks = ModuleList([Block(config, rng) for _ in range(config.n_layer)])
        self.ln_f = LayerNorm(config.n_embd, config.bias)

    def forward(self, idx, targets=None, kv_caches: list[KVCache] | None = None):
        """idx: (B, T) token ids -> (logits (B, T, V), mean cross-entropy or None)."""
        idx = np.asarray(idx.data if isinstance(idx, Tensor) else idx)
        if idx.ndim != 2:
            raise ValueError(f"idx must have shape (B, T), got shape {idx.shape}")
        B, T = idx.shape
        start = len(kv_caches[0]) if kv_caches else 0
        if start + T > self.config.block_size:
            raise ValueError(f"sequence length T={start + T} is longer than block_size={self.config.block_size}")
        if not np.issubdtype(idx.dtype, np.integer):
            raise TypeError(f"idx must hold integer token ids, got dtype {idx.dtype}")
        V = self.config.vocab_size
        if idx.size and (idx.min() < 0 or idx.max() >= V):
            bad = idx[(idx < 0) | (idx >= V)][0]
            raise ValueError(f"token id {bad} is out of range for vocab_size={V}")
        tok = self.wte(idx)  # (B, T, C)
        pos = self.wpe(np.arange(start, start + T))  # (T, C)
        x = self.drop(tok + pos)  # (B, T, C)
        for i, block in enumerate(self.blocks):
            x = block(x, kv_caches[i] if kv_caches else None)  # (B, T, C)
        x = self.ln_f(x)  # (B, T, C)
        logits = x @ self.wte.weight.T  # (B, T, C) @ (C, V) -> (B, T, V), tied head
        loss = None if targets is None else F.cross_entropy(logits, targets, ignore_index=-1)
        return logits, loss

    def generate(self, idx, max_new_tokens: int, temperature: float = 1.0, top_k: int | None = None,
                 use_cache: bool = True, rng: np.random.Generator | None = None) -> np.ndarray:
        """Append ``max_new_tokens`` sampled tokens to idx (B, T); temperature 0 means greedy."""
        idx = np.asarray(idx)
        if idx.ndim != 2:
            raise ValueError(f"idx must have shape (B, T), got shape {idx.shape}")
        if temperature < 0:
            raise ValueError(f"temperature must be >= 0, got {temperature}")
        rng = rng if rng is not None else np.random.default_rng()
        bs = self.config.block_size
        was_training = self.training
        self.eval()
        caches = None
        try:
            with no_grad():
                for _ in range(max_new_tokens):
                    if use_cache and caches is not None and len(caches[0]) < bs:
                        logits, _ = self(idx[:, -1:], kv_caches=caches)  # only the newest token
                    else:  # first step, no cache, or the window is full: run the cropped context
                        caches = [KVCache() for _ in self.blocks] if use_cache else None
                        logits, _ = self(idx[:, -bs:], kv_caches=caches)
                    nxt = _sample(logits.data[:, -1, :], temperature, top_k, rng)  # (B,)
                    idx = np.concatenate([idx, nxt[:, None].astype(idx.dtype)], axis=1)
        finally:
            self.train(was_training)
        return idx


def _sample(logits: np.ndarray, temperature: float, top_k: int | None, rng: np.random.Generator) -> np.ndarray:
    """One token per row from logits (B, V)."""
    if temperature == 0:
        return logits.argmax(axis=-1)
    logits = logits.astype(np.float64) / temperature
    if top_k is not None:
        k = min(int(top_k), logits.shape[-1])
        kth = np.sort(logits, axis=-1)[:, -k][:, None]
        logits = np.where(logits < kth, -np.inf, logits)
    probs = np.exp(logits - logits.max(axis=-1, keepdims=True))
    probs /= probs.sum(axis=-1, keepdims=True)
    u = rng.random((logits.shape[0], 1))
    choice = (probs.cumsum(axis=-1) < u).sum(axis=-1)
    return np.minimum(choice, logits.shape[-1] - 1)
