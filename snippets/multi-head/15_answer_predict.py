import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import MultiHeadAttention, split_heads
from minigpt.tensor import Tensor

B, T = 3, 10
for n_head in (4, 16):
    config = GPTConfig(n_head=n_head)
    C, nh, hs = config.n_embd, config.n_head, config.head_size
    predicted = {"q": (B, nh, T, hs), "k^T": (B, nh, hs, T), "scores": (B, nh, T, T), "output": (B, T, C),
                 "scores' numbers": B * nh * T * T, "q @ k^T mult-adds": B * T * T * C}  # from the shapes

    attn = MultiHeadAttention(config, rng=np.random.default_rng(0))
    x = Tensor(np.random.default_rng(1).standard_normal((B, T, C)))  # (B, T, C)
    q, k = split_heads(attn.c_q(x), nh), split_heads(attn.c_k(x), nh)  # (B, nh, T, hs)
    scores = q @ k.transpose(-2, -1)  # (B, nh, T, T)
    measured = {"q": q.shape, "k^T": k.transpose(-2, -1).shape, "scores": scores.shape, "output": attn(x).shape,
                "scores' numbers": scores.numel(), "q @ k^T mult-adds": scores.numel() * q.shape[-1]}
    print(f"n_head={n_head}:")
    for name, want in predicted.items():
        print(f"  {name:<18} predicted {str(want):<15} measured {str(measured[name]):<15} {want == measured[name]}")
