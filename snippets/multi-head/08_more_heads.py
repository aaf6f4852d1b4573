import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import MultiHeadAttention, split_heads
from minigpt.tensor import Tensor

B, T, C = 1, 32, 64  # one sequence as long as GPTConfig().block_size, n_embd 64
x = Tensor(np.random.default_rng(1).standard_normal((B, T, C)).astype(np.float32))
print("n_head  hs  params  scores (B, nh, T, T)  q@k^T mult-adds  entries  float32")
for n_head in (1, 2, 4, 8, 16):
    attn = MultiHeadAttention(GPTConfig(n_head=n_head), rng=np.random.default_rng(0))
    q, k = split_heads(attn.c_q(x), n_head), split_heads(attn.c_k(x), n_head)  # (B, nh, T, hs)
    scores = q @ k.transpose(-2, -1)  # (B, nh, T, hs) @ (B, nh, hs, T) -> (B, nh, T, T)
    macs = scores.numel() * q.shape[-1]  # each score sums hs products
    n_params = sum(p.numel() for p in attn.parameters())
    print(f"{n_head:>6}  {q.shape[-1]:>2}  {n_params:,}  {str(scores.shape):<20}  {macs:>15,}"
          f"  {scores.numel():>7,}  {scores.data.nbytes // 1024:>3} KiB")
print(f"B*T*T*C = {B * T * T * C:,}; 4 * (C*C + C) = {4 * (C * C + C):,}")
