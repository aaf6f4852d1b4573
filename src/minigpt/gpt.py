"""The GPT on the numpy engine: causal mask, split/merge heads, MultiHeadAttention, MLP, Block, GPT,
and a KV cache for generation.

``minigpt.gpt_torch`` is its PyTorch twin: the same class names, arguments, parameter names and
shapes, and the same ``generate``, so the two load each other's ``state_dict`` and give the same logits.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from . import functional as F
from .config import GPTConfig
from .functional import check_token_ids
from .nn import Dropout, Embedding, LayerNorm, Linear, Module, ModuleList
from .sampling import check_generate, check_stop, sample
from .tensor import Tensor, no_grad


# --8<-- [start:kv_cache]
class KVCache:
    """Keys and values of the tokens seen so far: per layer, preallocated (B, nh, block_size, hs) buffers.

    ``length`` positions of each buffer are filled (the same in every layer). For generation only: no
    gradient flows through the stored keys and values.
    """

    def __init__(self, config: GPTConfig, batch_size: int, dtype=np.float32):
        shape = (batch_size, config.n_head, config.block_size, config.head_size)  # (B, nh, block_size, hs)
        self.k = [np.zeros(shape, dtype=dtype) for _ in range(config.n_layer)]
        self.v = [np.zeros(shape, dtype=dtype) for _ in range(config.n_layer)]
        self.batch_size = batch_size
        self.length = 0  # positions already stored

    def reset(self) -> None:
        """Forget every stored token (the buffers are reused, not zeroed)."""
        self.length = 0


def cached_keys_values(kv_cache: tuple[np.ndarray, np.ndarray], k: Tensor, v: Tensor,
                       start: int) -> tuple[Tensor, Tensor]:
    """Store the new keys and values (B, nh, T, hs) at positions start .. start+T-1 of one layer's
    buffers; return every stored position's, (B, nh, start+T, hs)."""
    k_buf, v_buf = kv_cache
    end = start + k.shape[2]
    k_buf[:, :, start:end], v_buf[:, :, start:end] = k.data, v.data
    return Tensor(k_buf[:, :, :end]), Tensor(v_buf[:, :, :end])
# --8<-- [end:kv_cache]


# --8<-- [start:causal_mask]
@lru_cache(maxsize=8)
def causal_mask(size: int) -> np.ndarray:
    """(size, size) booleans, True above the diagonal: position i must not see j > i."""
    mask = np.triu(np.ones((size, size), dtype=bool), k=1)
    mask.flags.writeable = False  # cached and shared: nobody may change it
    return mask
# --8<-- [end:causal_mask]


# --8<-- [start:split_heads]
def split_heads(x: Tensor, n_head: int) -> Tensor:
    """(B, T, C) -> (B, nh, T, hs): head h gets channels h*hs .. (h+1)*hs - 1 of every token."""
    B, T, C = x.shape
    x = x.reshape(B, T, n_head, C // n_head)  # (B, T, nh, hs)
    return x.permute(0, 2, 1, 3)  # (B, nh, T, hs)
# --8<-- [end:split_heads]


# --8<-- [start:merge_heads]
def merge_heads(x: Tensor) -> Tensor:
    """(B, nh, T, hs) -> (B, T, C): the inverse of split_heads."""
    B, nh, T, hs = x.shape
    x = x.permute(0, 2, 1, 3)  # (B, T, nh, hs): a view, contiguous only if x was laid out this way
    return x.reshape(B, T, nh * hs)  # (B, T, C): copies unless the permuted view is contiguous
# --8<-- [end:merge_heads]


class MultiHeadAttention(Module):
    """Causal multi-head self-attention: (B, T, C) -> (B, T, C)."""

    # --8<-- [start:mha_init]
    def __init__(self, config: GPTConfig, rng: np.random.Generator | None = None):
        super().__init__()
        C = config.n_embd
        self.n_head = config.n_head
        self.c_q = Linear(C, C, config.bias, rng)  # queries of all heads, (C, C)
        self.c_k = Linear(C, C, config.bias, rng)  # keys
        self.c_v = Linear(C, C, config.bias, rng)  # values
        self.c_proj = Linear(C, C, config.bias, rng, std=0.02 / math.sqrt(2 * config.n_layer))  # output
        self.attn_dropout = Dropout(config.dropout, rng)
        self.resid_dropout = Dropout(config.dropout, rng)
    # --8<-- [end:mha_init]

    # --8<-- [start:mha_forward]
    def forward(self, x: Tensor, kv_cache=None, start: int = 0) -> Tensor:
        B, T, C = x.shape
        hs = C // self.n_head
        # 1. project every token to a query, a key and a value
        q, k, v = self.c_q(x), self.c_k(x), self.c_v(x)  # (B, T, C) each
        # 2. split the channels into nh heads of hs channels
        q = split_heads(q, self.n_head)  # (B, T, C) -> (B, nh, T, hs)
        k = split_heads(k, self.n_head)  # (B, nh, T, hs)
        v = split_heads(v, self.n_head)  # (B, nh, T, hs)
        if kv_cache is not None:  # generating with a KV cache (lesson 19): the earlier tokens' k, v join in
            k, v = cached_keys_values(kv_cache, k, v, start)  # (B, nh, start+T, hs)
        # 3. scores: how well each query matches each key, scaled by 1/sqrt(hs)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hs))  # (B, nh, T, hs) @ (B, nh, hs, T) -> (B, nh, T, T)
        # 4. causal mask: a token may not look at later tokens
        att = att.masked_fill(causal_mask(T), -np.inf)  # (B, nh, T, T)
        # 5. softmax over the keys: each row becomes attention weights that sum to 1
        att = att.softmax(dim=-1)  # (B, nh, T, T)
        att = self.attn_dropout(att)  # (training only) zero some weights, scale the rest by 1/(1-p)
        # 6. weighted sum of the values
        y = att @ v  # (B, nh, T, T) @ (B, nh, T, hs) -> (B, nh, T, hs)
        # 7. merge the heads back into C channels
        y = merge_heads(y)  # (B, nh, T, hs) -> (B, T, C)
        # 8. output projection, then dropout on what goes back into the residual stream
        return self.resid_dropout(self.c_proj(y))  # (B, T, C)
    # --8<-- [end:mha_forward]


# --8<-- [start:mlp]
class MLP(Module):
    """Position-wise feed-forward: widen to 4C, GELU, back to C."""

    def __init__(self, config: GPTConfig, rng: np.random.Generator | None = None):
        super().__init__()
        C = config.n_embd
        self.c_fc = Linear(C, 4 * C, config.bias, rng)
        self.c_proj = Linear(4 * C, C, config.bias, rng, std=0.02 / math.sqrt(2 * config.n_layer))
        self.dropout = Dropout(config.dropout, rng)

    def forward(self, x: Tensor) -> Tensor:
        h = self.c_fc(x).gelu()  # (B, T, 4C)
        return self.dropout(self.c_proj(h))  # (B, T, C)
# --8<-- [end:mlp]


# --8<-- [start:block]
class Block(Module):
    """Pre-norm Transformer block: x + attn(ln_1(x)), then x + mlp(ln_2(x))."""

    def __init__(self, config: GPTConfig, rng: np.random.Generator | None = None):
        super().__init__()
        self.ln_1 = LayerNorm(config.n_embd, config.bias)
        self.attn = MultiHeadAttention(config, rng)
        self.ln_2 = LayerNorm(config.n_embd, config.bias)
        self.mlp = MLP(config, rng)

    def forward(self, x: Tensor, kv_cache=None, start: int = 0) -> Tensor:
        x = x + self.attn(self.ln_1(x), kv_cache, start)  # (B, T, C)
        return x + self.mlp(self.ln_2(x))  # (B, T, C)
# --8<-- [end:block]


class GPT(Module):
    """Token + position embeddings, n_layer blocks, a final LayerNorm, output head tied to wte."""

    # --8<-- [start:gpt_init]
    def __init__(self, config: GPTConfig, seed: int = 0):
        super().__init__()
        if not isinstance(config, GPTConfig):
            raise TypeError(f"config must be a GPTConfig, got {type(config).__name__}")
        self.config = config
        rng = np.random.default_rng(seed)  # every initial weight comes from this one generator
        self.wte = Embedding(config.vocab_size, config.n_embd, rng)
        self.wpe = Embedding(config.block_size, config.n_embd, rng)
        self.drop = Dropout(config.dropout, rng)
        self.blocks = ModuleList([Block(config, rng) for _ in range(config.n_layer)])
        self.ln_f = LayerNorm(config.n_embd, config.bias)
    # --8<-- [end:gpt_init]

    def num_params(self) -> int:
        """Number of learned numbers; the tied wte/output weight counts once."""
        return sum(p.numel() for p in self.parameters())

    def forward(self, idx, targets=None, kv_cache: KVCache | None = None):
        """idx: (B, T) token ids -> (logits (B, T, V), mean cross-entropy or None).

        With kv_cache, idx holds only the new tokens; they continue the cached ones.
        """
        idx = check_token_ids(idx, self.config.vocab_size)
        # --8<-- [start:forward_start]
        B, T = idx.shape
        start = 0 if kv_cache is None else kv_cache.length
        block_size = self.config.block_size
        if start + T > block_size:
            held = f"the cache holds {start} tokens; adding " if kv_cache is not None else ""
            raise ValueError(f"sequence length: {held}T={T} is longer than block_size={block_size}")
        if kv_cache is not None and kv_cache.batch_size != B:
            raise ValueError(f"kv_cache holds batch size {kv_cache.batch_size}, idx has B={B}")
        if start > 0 and T > 1:  # new tokens after cached ones go one at a time: causal_mask(T) is for a fresh start
            logits = Tensor(np.concatenate([self(idx[:, t : t + 1], kv_cache=kv_cache)[0].data for t in range(T)], 1))
            # --8<-- [end:forward_start]
            return logits, None if targets is None else F.cross_entropy(logits, targets, ignore_index=-1)
        # --8<-- [start:gpt_forward]
        tok = self.wte(idx)  # (B, T, C)
        pos = self.wpe(np.arange(start, start + T))  # (T, C)
        x = self.drop(tok + pos)  # (B, T, C)
        for i, block in enumerate(self.blocks):
            x = block(x, None if kv_cache is None else (kv_cache.k[i], kv_cache.v[i]), start)  # (B, T, C)
        if kv_cache is not None:
            kv_cache.length += T
        x = self.ln_f(x)  # (B, T, C)
        logits = x @ self.wte.weight.T  # (B, T, C) @ (C, V) -> (B, T, V), tied head
        loss = None if targets is None else F.cross_entropy(logits, targets, ignore_index=-1)
        # --8<-- [end:gpt_forward]
        return logits, loss

    def new_kv_cache(self, batch_size: int) -> KVCache:
        """An empty cache for ``batch_size`` rows, in this model's dtype."""
        return KVCache(self.config, batch_size, dtype=self.wte.weight.dtype)

    def generate(self, idx, max_new_tokens: int, temperature: float = 1.0, top_k: int | None = None,
                 top_p: float | None = None, stop=None, rng: np.random.Generator | None = None,
                 constraint=None, use_cache: bool = True) -> np.ndarray:
        """Continue idx (B, T) by up to ``max_new_tokens`` tokens sampled by ``minigpt.sampling.sample``.

        The context is cropped to the last block_size tokens. ``stop``: an id or ids; generation ends
        after the step in which every row has produced one (rows that stopped earlier keep sampling:
        cut each row at its first stop id). ``constraint``: called each step as ``constraint(idx, logits)``
        with the tokens so far (B, T) and the next-token logits (B, V), both numpy; it returns the logits
        to sample from, -inf where a token is not allowed (``minigpt.constrain``). ``use_cache`` keeps a
        KV cache: each step runs only the newest token; once the context is longer than block_size every
        position shifts, and the cache is rebuilt. Runs in eval mode (no dropout) and restores the mode after.
        """
        idx = check_token_ids(idx, self.config.vocab_size)
        check_generate(idx.shape, max_new_tokens, temperature, top_k, top_p)
        stop_ids = check_stop(stop, self.config.vocab_size)
        rng = rng if rng is not None else np.random.default_rng()
        block_size = self.config.block_size
        was_training = self.training
        self.eval()
        try:
            # --8<-- [start:generate_loop]
            cache = self.new_kv_cache(len(idx)) if use_cache else None
            done = np.zeros(len(idx), dtype=bool)
            with no_grad():
                for _ in range(max_new_tokens):
                    if cache is not None and cache.length == idx.shape[1] - 1 and idx.shape[1] <= block_size:
                        logits, _ = self(idx[:, -1:], kv_cache=cache)  # only the newest token: (B, 1, V)
                    else:  # no cache, an empty one, or the window slid: run the cropped context
                        if cache is not None:
                            cache.reset()
                        logits, _ = self(idx[:, -block_size:], kv_cache=cache)  # (B, T', V)
                    logits = logits.data[:, -1, :]  # (B, V)
                    if constraint is not None:
                        logits = constraint(idx, logits)
                    nxt = sample(logits, temperature, top_k, top_p, rng)  # (B,)
                    idx = np.concatenate([idx, nxt[:, None].astype(idx.dtype)], axis=1)  # (B, T+1)
                    # --8<-- [end:generate_loop]
                    if stop_ids:
                        done |= np.isin(nxt, list(stop_ids))
                        if done.all():
                            break
        finally:
            self.train(was_training)
        return idx
