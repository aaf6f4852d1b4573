import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import MultiHeadAttention, split_heads
from minigpt.tensor import Tensor

config = GPTConfig()
attn = MultiHeadAttention(config, rng=np.random.default_rng(0))
B, T = 3, 10
x = Tensor(np.random.default_rng(1).standard_normal((B, T, config.n_embd)))  # (B, T, C)

q = split_heads(attn.c_q(x), config.n_head)  # (B, nh, T, hs)
k = split_heads(attn.c_k(x), config.n_head)  # (B, nh, T, hs)
scores = q @ k.transpose(-2, -1)  # (B, nh, T, hs) @ (B, nh, hs, T) -> (B, nh, T, T)
print("q:", q.shape, " k^T:", k.transpose(-2, -1).shape)
print("scores:", scores.shape, "=", scores.numel(), "numbers")
print("output:", attn(x).shape)
