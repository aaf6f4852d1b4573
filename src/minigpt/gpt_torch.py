"""The GPT in PyTorch: the twin of ``minigpt.gpt``, KV cache included.

Same class names, constructor arguments, parameter names and shapes, and the same ``generate`` as
the numpy GPT (sampling is ``minigpt.sampling.sample`` in both). ``GPT(config, seed)`` starts from
exactly the numpy GPT's weights for that seed; the two load each other's ``state_dict`` (through
``minigpt.convert``) and produce the same logits on the same weights. Both have a KV cache
(``kv_cache=`` / ``use_cache=``, lesson 19).
"""

from __future__ import annotations

import math

import numpy as np
import torch
import torch.nn as nn
from torch.nn import functional as F

from minigpt.config import GPTConfig
from minigpt.functional import check_token_ids
from minigpt.sampling import check_generate, check_stop, sample


class KVCache:
    """Keys and values of the tokens seen so far: per layer, preallocated (B, nh, block_size, hs) buffers.

    ``length`` positions of each buffer are filled (the same in every layer).
    """

    def __init__(self, config: GPTConfig, batch_size: int, dtype: torch.dtype, device: torch.device):
        shape = (batch_size, config.n_head, config.block_size, config.head_size)  # (B, nh, block_size, hs)
        self.k = [torch.zeros(shape, dtype=dtype, device=device) for _ in range(config.n_layer)]
        self.v = [torch.zeros(shape, dtype=dtype, device=device) for _ in range(config.n_layer)]
        self.batch_size = batch_size
        self.length = 0  # positions already stored

    def reset(self) -> None:
        """Forget every stored token (the buffers are reused, not zeroed)."""
        self.length = 0


class MultiHeadAttention(nn.Module):
    """Causal multi-head self-attention: (B, T, C) -> (B, T, C)."""

    def __init__(self, config: GPTConfig):
        super().__init__()
        C = config.n_embd
        self.n_head = config.n_head
        self.c_q = nn.Linear(C, C, bias=config.bias)  # queries of all heads
        self.c_k = nn.Linear(C, C, bias=config.bias)  # keys
        self.c_v = nn.Linear(C, C, bias=config.bias)  # values
        self.c_proj = nn.Linear(C, C, bias=config.bias)  # output
        self.dropout = config.dropout  # on the attention weights, inside scaled_dot_product_attention
        self.resid_dropout = nn.Dropout(config.dropout)

    # --8<-- [start:mha_forward]
    def forward(self, x: torch.Tensor, kv_cache: tuple[torch.Tensor, torch.Tensor] | None = None,
                start: int = 0) -> torch.Tensor:
        """x (B, T, C). kv_cache: this layer's (k, v) buffers; the new tokens are positions
        start .. start+T-1 and attend to every cached position before them."""
        B, T, C = x.shape
        nh, hs = self.n_head, C // self.n_head
        q = self.c_q(x).view(B, T, nh, hs).transpose(1, 2)  # (B, T, C) -> (B, nh, T, hs)
        k = self.c_k(x).view(B, T, nh, hs).transpose(1, 2)  # (B, nh, T, hs)
        v = self.c_v(x).view(B, T, nh, hs).transpose(1, 2)  # (B, nh, T, hs)
        mask, is_causal = None, True
        if kv_cache is not None:  # store the new keys/values, attend to all stored ones
            k_buf, v_buf = kv_cache
            end = start + T
            k_buf[:, :, start:end], v_buf[:, :, start:end] = k, v
            k, v = k_buf[:, :, :end], v_buf[:, :, :end]  # (B, nh, end, hs)
            if start > 0:  # query i (position start+i) sees keys 0 .. start+i
                mask = torch.ones(T, end, dtype=torch.bool, device=x.device).tril(diagonal=start)  # (T, end)
                is_causal = False
        # softmax(q @ k^T / sqrt(hs) + causal mask) @ v, with dropout on the attention weights
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=is_causal,
                                           dropout_p=self.dropout if self.training else 0.0)  # (B, nh, T, hs)
        y = y.transpose(1, 2).contiguous().view(B, T, C)  # (B, nh, T, hs) -> (B, T, nh, hs) -> (B, T, C)
        return self.resid_dropout(self.c_proj(y))  # (B, T, C)
    # --8<-- [end:mha_forward]


class MLP(nn.Module):
    """Position-wise feed-forward: widen to 4C, GELU, back to C."""

    def __init__(self, config: GPTConfig):
        super().__init__()
        self.c_fc = nn.Linear(config.n_embd, 4 * config.n_embd, bias=config.bias)
        self.c_proj = nn.Linear(4 * config.n_embd, config.n_embd, bias=config.bias)
        self.dropout = nn.Dropout(config.dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = F.gelu(self.c_fc(x), approximate="tanh")  # (B, T, 4C)
        return self.dropout(self.c_proj(h))  # (B, T, C)


class Block(nn.Module):
    """Pre-norm Transformer block: x + attn(ln_1(x)), then x + mlp(ln_2(x))."""

    def __init__(self, config: GPTConfig):
        super().__init__()
        self.ln_1 = nn.LayerNorm(config.n_embd, eps=1e-5, bias=config.bias)
        self.attn = MultiHeadAttention(config)
        self.ln_2 = nn.LayerNorm(config.n_embd, eps=1e-5, bias=config.bias)
        self.mlp = MLP(config)

    def forward(self, x: torch.Tensor, kv_cache=None, start: int = 0) -> torch.Tensor:
        x = x + self.attn(self.ln_1(x), kv_cache, start)  # (B, T, C)
        return x + self.mlp(self.ln_2(x))  # (B, T, C)


class GPT(nn.Module):
    """Token + position embeddings, n_layer blocks, a final LayerNorm, output head tied to wte."""

    def __init__(self, config: GPTConfig, seed: int = 0):
        super().__init__()
        if not isinstance(config, GPTConfig):
            raise TypeError(f"config must be a GPTConfig, got {type(config).__name__}")
        self.config = config
        with torch.random.fork_rng(devices=[]):  # torch's default init draws from the global generator: undo it
            self.wte = nn.Embedding(config.vocab_size, config.n_embd)
            self.wpe = nn.Embedding(config.block_size, config.n_embd)
            self.drop = nn.Dropout(config.dropout)
            self.blocks = nn.ModuleList([Block(config) for _ in range(config.n_layer)])
            self.ln_f = nn.LayerNorm(config.n_embd, eps=1e-5, bias=config.bias)
        self._init_weights(seed)

    # --8<-- [start:init_weights]
    @torch.no_grad()
    def _init_weights(self, seed: int) -> None:
        """Exactly the numpy GPT's initial weights for the same seed: the same numpy generator, drawn in
        the same order (weights N(0, 0.02), residual projections N(0, 0.02 / sqrt(2 n_layer)), biases 0,
        LayerNorm gains 1). torch's global random state is left alone."""
        rng = np.random.default_rng(seed)
        proj_std = 0.02 / math.sqrt(2 * self.config.n_layer)
        for name, p in self.named_parameters():
            if p.device.type == "meta":  # shapes only (e.g. to count parameters): nothing to fill
                continue
            if name.endswith("bias"):
                p.zero_()
            elif name.startswith("ln_") or ".ln_" in name:
                p.fill_(1.0)
            else:
                std = proj_std if name.endswith("c_proj.weight") else 0.02
                p.copy_(torch.from_numpy((rng.standard_normal(tuple(p.shape)) * std).astype(np.float32)))
    # --8<-- [end:init_weights]

    def num_params(self) -> int:
        """Number of learned numbers; the tied wte/output weight counts once."""
        return sum(p.numel() for p in self.parameters())

    def forward(self, idx, targets=None, kv_cache: KVCache | None = None):
        """idx (B, T) token ids -> (logits (B, T, V), mean cross-entropy or None).

        With kv_cache, idx holds only the new tokens; they continue the cached ones.
        """
        idx = self._token_ids(idx)
        B, T = idx.shape
        start = 0 if kv_cache is None else kv_cache.length
        block_size = self.config.block_size
        if start + T > block_size:
            held = f"the cache holds {start} tokens; adding " if kv_cache is not None else ""
            raise ValueError(f"sequence length: {held}T={T} is longer than block_size={block_size}")
        if kv_cache is not None and kv_cache.batch_size != B:
            raise ValueError(f"kv_cache holds batch size {kv_cache.batch_size}, idx has B={B}")
        pos = torch.arange(start, start + T, device=idx.device)  # (T,)
        x = self.drop(self.wte(idx) + self.wpe(pos))  # (B, T, C) + (T, C) -> (B, T, C)
        for i, block in enumerate(self.blocks):
            x = block(x, None if kv_cache is None else (kv_cache.k[i], kv_cache.v[i]), start)  # (B, T, C)
        if kv_cache is not None:
            kv_cache.length += T
        logits = self.ln_f(x) @ self.wte.weight.T  # tied head: (B, T, C) @ (C, V) -> (B, T, V)
        loss = None
        if targets is not None:
            targets = torch.as_tensor(np.asarray(targets) if isinstance(targets, (list, np.ndarray)) else targets)
            if targets.shape != idx.shape:
                raise ValueError(f"targets must have the shape of idx {tuple(idx.shape)}, got {tuple(targets.shape)}")
            targets = targets.to(device=logits.device, dtype=torch.long)
            loss = F.cross_entropy(logits.view(B * T, -1), targets.view(B * T), ignore_index=-1)
        return logits, loss

    def _token_ids(self, idx) -> torch.Tensor:
        """idx (a tensor, array or list) checked like the numpy GPT's, as a long tensor on our device."""
        device = self.wte.weight.device
        if isinstance(idx, torch.Tensor):
            check_token_ids(idx.detach().cpu().numpy(), self.config.vocab_size)
            return idx.to(device=device, dtype=torch.long)
        return torch.as_tensor(check_token_ids(idx, self.config.vocab_size), dtype=torch.long, device=device)

    def new_kv_cache(self, batch_size: int) -> KVCache:
        """An empty cache for ``batch_size`` rows, in this model's dtype and device."""
        w = self.wte.weight
        return KVCache(self.config, batch_size, dtype=w.dtype, device=w.device)

    @torch.no_grad()
    def generate(self, idx, max_new_tokens: int, temperature: float = 1.0, top_k: int | None = None,
                 top_p: float | None = None, stop=None, rng: np.random.Generator | None = None,
                 constraint=None, use_cache: bool = True) -> torch.Tensor:
        """Continue idx (B, T) by up to ``max_new_tokens`` tokens sampled by ``minigpt.sampling.sample``.

        The same as the numpy GPT's ``generate`` (cropping, ``stop``, ``constraint``, eval mode). ``use_cache`` keeps a
        KV cache: each step runs only the newest token; the tokens are exactly those of the uncached path.
        Once the context is longer than block_size every position shifts, and the cache is rebuilt.
        """
        idx = self._token_ids(idx)
        check_generate(tuple(idx.shape), max_new_tokens, temperature, top_k, top_p)
        stop_ids = check_stop(stop, self.config.vocab_size)
        rng = rng if rng is not None else np.random.default_rng()
        block_size = self.config.block_size
        was_training = self.training
        self.eval()
        try:
            cache = self.new_kv_cache(idx.size(0)) if use_cache else None
            done = np.zeros(idx.size(0), dtype=bool)
            for _ in range(max_new_tokens):
                if cache is not None and cache.length == idx.size(1) - 1 and idx.size(1) <= block_size:
                    logits, _ = self(idx[:, -1:], kv_cache=cache)  # only the newest token: (B, 1, V)
                else:  # no cache, an empty one, or the window slid: run the cropped context
                    if cache is not None:
                        cache.reset()
                    logits, _ = self(idx[:, -block_size:], kv_cache=cache)  # (B, T', V)
                logits = logits[:, -1, :].double().cpu().numpy()  # (B, V)
                if constraint is not None:
                    logits = constraint(idx.cpu().numpy(), logits)
                nxt = sample(logits, temperature, top_k, top_p, rng)  # (B,)
                idx = torch.cat((idx, torch.from_numpy(nxt).to(idx)[:, None]), dim=1)  # (B, T+1)
                if stop_ids:
                    done |= np.isin(nxt, list(stop_ids))
                    if done.all():
                        break
        finally:
            self.train(was_training)
        return idx
