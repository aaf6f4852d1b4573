import math

import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import MultiHeadAttention, causal_mask, merge_heads, split_heads
from minigpt.tensor import Tensor

config = GPTConfig()  # C=64, nh=4, hs=16
attn = MultiHeadAttention(config, rng=np.random.default_rng(0))
B, T, C = 2, 8, config.n_embd
nh, hs = config.n_head, config.head_size
x = Tensor(np.random.default_rng(1).standard_normal((B, T, C)).astype(np.float32))


def show(step, name, t, times=""):
    print(f"{step} {name:<18} {str(t.shape):<14}{times}".rstrip())


show(" ", "x", x)
q, k, v = attn.c_q(x), attn.c_k(x), attn.c_v(x)  # (B, T, C) each
show(1, "c_q, c_k, c_v", q, " x3")
q, k, v = split_heads(q, nh), split_heads(k, nh), split_heads(v, nh)  # (B, nh, T, hs)
show(2, "split_heads", q, " x3")
att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hs))  # (B, nh, T, T)
show(3, "q @ k^T / sqrt(hs)", att)
att = att.masked_fill(causal_mask(T), -np.inf)  # (B, nh, T, T)
show(4, "causal mask", att)
att = att.softmax(dim=-1)  # (B, nh, T, T)
show(5, "softmax", att)
y = att @ v  # (B, nh, T, T) @ (B, nh, T, hs) -> (B, nh, T, hs)
show(6, "weights @ v", y)
y = merge_heads(y)  # (B, nh, T, hs) -> (B, T, C)
show(7, "merge_heads", y)
y = attn.c_proj(y)  # (B, T, C)
show(8, "c_proj", y)

print("same as attn(x):", np.allclose(y.data, attn(x).data, atol=1e-7))
