"""One head of self-attention, four explicit steps, no mask (lesson 8's form; the library's is
minigpt.gpt.MultiHeadAttention)."""

import math

import numpy as np

from minigpt.nn import Linear, Module
from minigpt.tensor import Tensor


# --8<-- [start:attention]
def attention(q: Tensor, k: Tensor, v: Tensor) -> Tensor:
    """q, k: (B, T, d), v: (B, T, dv) -> (B, T, dv)."""
    d = q.shape[-1]
    scores = q @ k.transpose(-2, -1)  # 1. compare: (B, T, d) @ (B, d, T) -> (B, T, T)
    scores = scores * (1.0 / math.sqrt(d))  # 2. scale: var d -> var 1
    weights = scores.softmax(dim=-1)  # 3. normalise: each row >= 0, sums to 1
    return weights @ v  # 4. aggregate: (B, T, T) @ (B, T, dv) -> (B, T, dv)
# --8<-- [end:attention]


# --8<-- [start:one_head]
class OneHead(Module):
    """(B, T, C) -> (B, T, hs): every position attends to every position."""

    def __init__(self, n_embd: int, head_size: int, rng: np.random.Generator | None = None):
        super().__init__()
        self.c_q = Linear(n_embd, head_size, True, rng)  # W_Q (hs, C), b_Q (hs,)
        self.c_k = Linear(n_embd, head_size, True, rng)  # W_K
        self.c_v = Linear(n_embd, head_size, True, rng)  # W_V

    def forward(self, x: Tensor) -> Tensor:
        q, k, v = self.c_q(x), self.c_k(x), self.c_v(x)  # (B, T, hs) each
        return attention(q, k, v)  # (B, T, hs)
# --8<-- [end:one_head]
