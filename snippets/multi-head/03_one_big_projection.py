import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import MultiHeadAttention, split_heads
from minigpt.tensor import Tensor

config = GPTConfig()
attn = MultiHeadAttention(config, rng=np.random.default_rng(0))
nh, hs = config.n_head, config.head_size
x = Tensor(np.random.default_rng(1).standard_normal((2, 5, config.n_embd)))  # (B, T, C)

q = split_heads(attn.c_q(x), nh)  # (B, T, C) -> (B, nh, T, hs)
W, b = attn.c_q.weight.data, attn.c_q.bias.data  # (C, C), (C,)
for h in range(nh):
    rows = slice(h * hs, (h + 1) * hs)
    q_h = x.data @ W[rows].T + b[rows]  # (B, T, C) @ (C, hs) -> (B, T, hs)
    same = np.allclose(q.data[:, h], q_h, atol=1e-6)
    print(f"head {h}: rows {rows.start:>2}:{rows.stop:<2} of c_q.weight {W[rows].shape} -> same: {same}")
