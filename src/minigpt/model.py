"""The GPT in PyTorch: the twin of `minigpt.nn.GPT`, with a KV cache for fast generation.

Parameter names and shapes are identical to the numpy GPT, so the two engines can load each
other's `state_dict()` and must produce the same logits on the same weights.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import NamedTuple

import numpy as np
import torch
import torch.nn as nn
from torch.nn import functional as F

from minigpt.config import GPTConfig


class KVCache:
    """Keys and values of the tokens seen so far, one preallocated buffer pair per layer.

    Each buffer is (B, nh, block_size, hs); `length` tokens of it are filled (the same in every layer).
    """

    def __init__(self, config: GPTConfig, batch_size: int, dtype: torch.dtype, device: torch.device):
        shape = (batch_size, config.n_head, config.block_size, config.head_size)  # (B, nh, block_size, hs)
        self.k = [torch.zeros(shape, dtype=dtype, device=device) for _ in range(config.n_layer)]
        self.v = [torch.zeros(shape, dtype=dtype, device=device) for _ in range(config.n_layer)]
        self.batch_size = batch_size
        self.max_length = config.block_size
        self.length = 0  # number of positions already stored

    def reset(self) -> None:
        """Forget every stored token (the buffers are reused, not zeroed)."""
        self.length = 0


class CausalSelfAttention(nn.Module):
    def __init__(self, config: GPTConfig):
        super().__init__()
        C = config.n_embd
        self.c_q = nn.Linear(C, C, bias=config.bias)
        self.c_k = nn.Linear(C, C, bias=config.bias)
        self.c_v = nn.Linear(C, C, bias=config.bias)
        self.c_proj = nn.Linear(C, C, bias=config.bias)
        self.resid_dropout = nn.Dropout(config.dropout)
        self.n_head = config.n_head
        self.dropout = config.dropout
        self._qkv_cache = None  # (stacked weight, stacked bias) while generate holds them

    def _qkv_weight(self):
        """c_q, c_k and c_v stacked, (3C, C), to run as one matmul: the same numbers as three, but one
        bigger (faster) kernel. ``generate`` stacks them once for all its steps (see hold_qkv)."""
        if self._qkv_cache is not None:
            return self._qkv_cache
        layers = (self.c_q, self.c_k, self.c_v)
        weight = torch.cat([layer.weight for layer in layers])  # (3C, C)
        bias = None if self.c_q.bias is None else torch.cat([layer.bias for layer in layers])  # (3C,)
        return weight, bias

    def hold_qkv(self, hold: bool) -> None:
        """Keep the stacked q/k/v weights while ``hold`` (the weights must not change meanwhile)."""
        self._qkv_cache = None
        if hold:
            self._qkv_cache = self._qkv_weight()

    def forward(self, x: torch.Tensor, kv=None, start: int = 0) -> torch.Tensor:
        """x (B, T, C). kv: optional (k_buf, v_buf) cache buffers of this layer; the new tokens sit at
        positions start .. start+T-1 and attend to every cached position before them."""
        B, T, C = x.shape
        nh, hs = self.n_head, C // self.n_head
        weight, bias = self._qkv_weight()
        q, k, v = F.linear(x, weight, bias).split(C, dim=2)  # (B, T, 3C) -> 3 x (B, T, C)
        q = q.view(B, T, nh, hs).transpose(1, 2)  # (B, T, C) -> (B, nh, T, hs)
        k = k.view(B, T, nh, hs).transpose(1, 2)  # (B, nh, T, hs)
        v = v.view(B, T, nh, hs).transpose(1, 2)  # (B, nh, T, hs)
        mask, is_causal = None, True
        if kv is not None:
            k_buf, v_buf = kv
            end = start + T
            k_buf[:, :, start:end] = k
            v_buf[:, :, start:end] = v
            k, v = k_buf[:, :, :end], v_buf[:, :, :end]  # (B, nh, end, hs)
            if T == 1:
                is_causal = False  # one new query may see every key: no mask
            elif start > 0:
                # query i (absolute position start+i) sees keys 0 .. start+i
                mask = torch.ones(T, end, dtype=torch.bool, device=x.device).tril(diagonal=start)  # (T, end)
                is_causal = False
        p = self.dropout if self.training else 0.0
        # softmax(q @ k^T / sqrt(hs) + mask) @ v, with dropout on the attention weights
        if x.device.type == "cpu" and q.dtype in (torch.bfloat16, torch.float16):
            # under CPU autocast: torch's bf16 attention kernels are slow (the backward most of all), and
            # attention is a small share of the FLOPs, so it runs in float32; the projections stay bf16
            with torch.autocast("cpu", enabled=False):
                y = F.scaled_dot_product_attention(q.float(), k.float(), v.float(), attn_mask=mask, dropout_p=p,
                                                   is_causal=is_causal)  # (B, nh, T, hs)
        else:
            y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, dropout_p=p, is_causal=is_causal)  # (B, nh, T, hs)
        y = y.transpose(1, 2).contiguous().view(B, T, C)  # (B, nh, T, hs) -> (B, T, nh, hs) -> (B, T, C)
        return self.resid_dropout(self.c_proj(y))


class MLP(nn.Module):
    def __init__(self, config: GPTConfig):
        super().__init__()
        self.c_fc = nn.Linear(config.n_embd, 4 * config.n_embd, bias=config.bias)
        self.c_proj = nn.Linear(4 * config.n_embd, config.n_embd, bias=config.bias)
        self.dropout = nn.Dropout(config.dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = F.gelu(self.c_fc(x), approximate="tanh")  # (B, T, 4C)
        return self.dropout(self.c_proj(h))  # (B, T, C)


class Block(nn.Module):
    def __init__(self, config: GPTConfig):
        super().__init__()
        self.ln_1 = nn.LayerNorm(config.n_embd, eps=1e-5, bias=config.bias)
        self.attn = CausalSelfAttention(config)
        self.ln_2 = nn.LayerNorm(config.n_embd, eps=1e-5, bias=config.bias)
        self.mlp = MLP(config)

    def forward(self, x: torch.Tensor, kv=None, start: int = 0) -> torch.Tensor:
        x = x + self.attn(self.ln_1(x), kv, start)  # pre-norm residual
        x = x + self.mlp(self.ln_2(x))
        return x


class LoadResult(NamedTuple):
    missing_keys: list[str]
    unexpected_keys: list[str]


class GPT(nn.Module):
    """GPT with a tied output head: logits = ln_f(x) @ wte.weight.T (no lm_head parameter)."""

    def __init__(self, config: GPTConfig):
        super().__init__()
        if not isinstance(config, GPTConfig):
            raise TypeError(f"config must be a GPTConfig, got {type(config).__name__}")
        self.config = config
        self.wte = nn.Embedding(config.vocab_size, config.n_embd)
        self.wpe = nn.Embedding(config.block_size, config.n_embd)
        self.drop = nn.Dropout(config.dropout)
        self.blocks = nn.ModuleList([Block(config) for _ in range(config.n_layer)])
        self.ln_f = nn.LayerNorm(config.n_embd, eps=1e-5, bias=config.bias)
        self.apply(self._init_weights)
        proj_std = 0.02 / math.sqrt(2 * config.n_layer)  # residual projections are scaled down
        for block in self.blocks:
            nn.init.normal_(block.attn.c_proj.weight, mean=0.0, std=proj_std)
            nn.init.normal_(block.mlp.c_proj.weight, mean=0.0, std=proj_std)

    @staticmethod
    def _init_weights(module: nn.Module) -> None:
        if isinstance(module, (nn.Linear, nn.Embedding)):
            nn.init.normal_(module.weight, mean=0.0, std=0.02)
        if isinstance(module, nn.Linear) and module.bias is not None:
            nn.init.zeros_(module.bias)
        if isinstance(module, nn.LayerNorm):
            nn.init.ones_(module.weight)
            if module.bias is not None:
                nn.init.zeros_(module.bias)

    def num_params(self, non_embedding: bool = False) -> int:
        """Number of parameters; the tied wte/head weight counts once. non_embedding drops wpe."""
        n = sum(p.numel() for p in self.parameters())
        return n - self.wpe.weight.numel() if non_embedding else n

    # ---- forward ---------------------------------------------------------------------------
    def _check_idx(self, idx) -> torch.Tensor:
        if isinstance(idx, np.ndarray):
            idx = torch.from_numpy(idx)
        if not isinstance(idx, torch.Tensor):
            raise TypeError(f"idx must be a torch.Tensor (or numpy array) of token ids, got {type(idx).__name__}")
        if idx.dtype.is_floating_point or idx.dtype.is_complex or idx.dtype == torch.bool:
            raise TypeError(f"idx must hold integer token ids, got dtype {idx.dtype}")
        if idx.dim() != 2:
            raise ValueError(f"idx must have shape (B, T), got {tuple(idx.shape)}")
        if idx.numel() and bool(((idx < 0) | (idx >= self.config.vocab_size)).any()):  # one device sync
            raise ValueError(
                f"idx holds token ids outside [0, {self.config.vocab_size}): "
                f"min {int(idx.min())}, max {int(idx.max())}"
            )
        return idx.to(device=self.wte.weight.device, dtype=torch.long)

    def _hidden(self, idx: torch.Tensor, kv_cache: KVCache | None = None) -> torch.Tensor:
        """Token ids (B, T) -> final hidden states ln_f(x) (B, T, C). Advances kv_cache if given."""
        B, T = idx.shape
        start = 0 if kv_cache is None else kv_cache.length
        pos = torch.arange(start, start + T, device=idx.device)  # (T,)
        x = self.drop(self.wte(idx) + self.wpe(pos))  # (B, T, C) + (T, C) -> (B, T, C)
        for i, block in enumerate(self.blocks):
            kv = None if kv_cache is None else (kv_cache.k[i], kv_cache.v[i])
            x = block(x, kv, start)  # (B, T, C)
        if kv_cache is not None:
            kv_cache.length += T
        return self.ln_f(x)  # (B, T, C)

    def forward(self, idx, targets=None, *, kv_cache: KVCache | None = None):
        """idx (B, T) token ids -> (logits (B, T, V), loss or None).

        With kv_cache, idx holds only the new tokens; they continue the cached ones.
        """
        idx = self._check_idx(idx)
        B, T = idx.shape
        block_size = self.config.block_size
        if T > block_size:
            raise ValueError(f"sequence length T={T} exceeds block_size={block_size}")
        if kv_cache is not None:
            if kv_cache.batch_size != B:
                raise ValueError(f"kv_cache holds batch size {kv_cache.batch_size}, idx has B={B}")
            if kv_cache.length + T > block_size:
                raise ValueError(
                    f"kv_cache holds {kv_cache.length} tokens; adding T={T} exceeds block_size={block_size}"
                )
        x = self._hidden(idx, kv_cache)  # (B, T, C)
        logits = x @ self.wte.weight.T  # tied head: (B, T, C) @ (C, V) -> (B, T, V)
        loss = None
        if targets is not None:
            if isinstance(targets, np.ndarray):
                targets = torch.from_numpy(targets)
            if not isinstance(targets, torch.Tensor) or targets.shape != idx.shape:
                got = tuple(targets.shape) if hasattr(targets, "shape") else type(targets).__name__
                raise ValueError(f"targets must be a tensor of shape {tuple(idx.shape)}, got {got}")
            targets = targets.to(device=logits.device, dtype=torch.long)
            loss = F.cross_entropy(logits.view(B * T, -1), targets.reshape(B * T), ignore_index=-1)
        return logits, loss

    def new_kv_cache(self, batch_size: int) -> KVCache:
        """An empty cache for `batch_size` rows, in this model's dtype and device."""
        w = self.wte.weight
        return KVCache(self.config, batch_size, dtype=w.dtype, device=w.device)

    # ---- state dict ------------------------------------------------------------------------
    def state_dict_numpy(self) -> dict[str, np.ndarray]:
        """{name: np.ndarray copy} with the same keys as state_dict()."""
        return {k: v.detach().cpu().numpy().copy() for k, v in self.state_dict().items()}

    def load_state_dict(self, state_dict: Mapping, strict: bool = True, assign: bool = False) -> LoadResult:
        """Copy weights in from {name: torch.Tensor or np.ndarray}, converted to each parameter's
        dtype and device. strict: missing or unexpected keys raise KeyError naming them.
        Wrong shapes always raise ValueError naming the key. `assign` is accepted for torch
        compatibility and ignored (values are always copied)."""
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"state_dict must be a mapping of name -> array, got {type(state_dict).__name__}")
        own = dict(self.named_parameters())
        missing = sorted(k for k in own if k not in state_dict)
        unexpected = sorted(k for k in state_dict if k not in own)
        if strict and (missing or unexpected):
            parts = []
            if missing:
                parts.append(f"missing keys: {', '.join(missing)}")
            if unexpected:
                parts.append(f"unexpected keys: {', '.join(unexpected)}")
            raise KeyError("state_dict does not match the model; " + "; ".join(parts))
        values = {}
        for name, param in own.items():
            if name not in state_dict:
                continue
            value = state_dict[name]
            if isinstance(value, np.ndarray):
                value = torch.from_numpy(np.ascontiguousarray(value))
            elif not isinstance(value, torch.Tensor):
                raise TypeError(f"state_dict[{name!r}] must be a torch.Tensor or np.ndarray, got {type(value).__name__}")
            if tuple(value.shape) != tuple(param.shape):
                raise ValueError(
                    f"shape mismatch for {name}: model has {tuple(param.shape)}, state_dict has {tuple(value.shape)}"
                )
            values[name] = value
        with torch.no_grad():  # check everything first, then copy: a failed load changes nothing
            for name, value in values.items():
                own[name].copy_(value.detach().to(dtype=own[name].dtype, device=own[name].device))
        return LoadResult(missing, unexpected)

    # ---- generation ------------------------------------------------------------------------
    @torch.no_grad()
    def generate(
        self,
        idx,
        max_new_tokens: int,
        temperature: float = 1.0,
        top_k: int | None = None,
        top_p: float | None = None,
        use_cache: bool = True,
        stop=None,
        generator: torch.Generator | None = None,
    ) -> torch.Tensor:
        """Continue idx (B, T) by up to max_new_tokens tokens; returns (B, T + n).

        temperature 0 picks the argmax (greedy); otherwise logits / temperature are filtered by
        top_k (keep the k largest) and top_p (keep the smallest set of tokens whose probability
        reaches top_p) and sampled with torch.multinomial(generator=generator).
        The context is cropped to the last block_size tokens. use_cache keeps a KV cache; it
        gives exactly the tokens of the uncached path. Once the context is longer than
        block_size every position shifts, so the cache is rebuilt from the cropped window.
        stop: a token id or a collection of ids. Generation ends after the step in which every
        row has produced a stop token (for B=1: as soon as it is sampled; it is included).
        Rows that stopped earlier keep sampling until then: nothing is padded, so cut each
        row at its first stop token. The model runs in eval mode (no dropout) and its
        training flag is restored afterwards.
        """
        idx = self._check_idx(idx)
        B, T = idx.shape
        if T == 0:
            raise ValueError("idx must hold at least one token per row to generate from")
        if isinstance(max_new_tokens, bool) or not isinstance(max_new_tokens, int) or max_new_tokens < 0:
            raise ValueError(f"max_new_tokens must be a non-negative integer, got {max_new_tokens!r}")
        if not isinstance(temperature, (int, float)) or isinstance(temperature, bool) or temperature < 0:
            raise ValueError(f"temperature must be a number >= 0, got {temperature!r}")
        if top_k is not None and (isinstance(top_k, bool) or not isinstance(top_k, int) or top_k < 1):
            raise ValueError(f"top_k must be a positive integer or None, got {top_k!r}")
        if top_p is not None and not (isinstance(top_p, (int, float)) and 0.0 < top_p <= 1.0):
            raise ValueError(f"top_p must be in (0, 1], got {top_p!r}")
        stop_ids = self._stop_ids(stop, idx.device)

        block_size = self.config.block_size
        was_training = self.training
        self.eval()
        for block in self.blocks:  # weights are fixed while generating: stack q/k/v once
            block.attn.hold_qkv(True)
        try:
            cache = self.new_kv_cache(B) if use_cache else None
            done = torch.zeros(B, dtype=torch.bool, device=idx.device)
            for _ in range(max_new_tokens):
                if cache is None:
                    x = self._hidden(idx[:, -block_size:])  # (B, T', C)
                elif cache.length == idx.size(1) - 1 and idx.size(1) <= block_size:
                    x = self._hidden(idx[:, -1:], cache)  # only the newest token: (B, 1, C)
                else:  # empty cache or the window slid: rebuild from the cropped context
                    cache.reset()
                    x = self._hidden(idx[:, -block_size:], cache)  # (B, T', C)
                logits = x[:, -1, :] @ self.wte.weight.T  # last position only: (B, C) @ (C, V) -> (B, V)
                next_id = _sample(logits, temperature, top_k, top_p, generator)  # (B, 1)
                idx = torch.cat((idx, next_id), dim=1)  # (B, T+1)
                if stop_ids is not None:
                    done |= torch.isin(next_id[:, 0], stop_ids)
                    if bool(done.all()):
                        break
        finally:
            for block in self.blocks:
                block.attn.hold_qkv(False)
            self.train(was_training)
        return idx

    def _stop_ids(self, stop, device) -> torch.Tensor | None:
        if stop is None:
            return None
        ids = [stop] if isinstance(stop, (int, np.integer)) else stop
        if isinstance(ids, torch.Tensor):
            ids = ids.flatten().tolist()
        if not isinstance(ids, Iterable) or isinstance(ids, (str, bytes)):
            raise TypeError(f"stop must be a token id or a collection of ids, got {type(stop).__name__}")
        ids = list(ids)
        V = self.config.vocab_size
        for t in ids:
            if isinstance(t, bool) or not isinstance(t, (int, np.integer)) or not 0 <= t < V:
                raise ValueError(f"stop ids must be integers in [0, {V}), got {t!r}")
        if not ids:
            return None
        return torch.tensor([int(t) for t in ids], dtype=torch.long, device=device)


def _sample(logits: torch.Tensor, temperature: float, top_k, top_p, generator) -> torch.Tensor:
    """logits (B, V) -> next token ids (B, 1)."""
    if temperature == 0:
        return logits.argmax(dim=-1, keepdim=True)  # greedy
    logits = logits / temperature
    if top_k is not None and top_k < logits.size(-1):
        kth = torch.topk(logits, top_k, dim=-1).values[:, -1:]  # (B, 1) k-th largest
        logits = logits.masked_fill(logits < kth, float("-inf"))
    if top_p is not None and top_p < 1.0:
        sorted_logits, order = torch.sort(logits, dim=-1, descending=True, stable=True)  # (B, V)
        probs = F.softmax(sorted_logits, dim=-1)
        before = probs.cumsum(dim=-1) - probs  # probability mass ranked above each token
        sorted_logits = sorted_logits.masked_fill(before > top_p, float("-inf"))  # the top token always stays
        logits = torch.full_like(logits, float("-inf")).scatter(-1, order, sorted_logits)
    probs = F.softmax(logits, dim=-1)  # (B, V)
    return torch.multinomial(probs, num_samples=1, generator=generator)  # (B, 1)
