import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import MultiHeadAttention, causal_mask
from minigpt.tensor import Tensor

config = GPTConfig()
attn = MultiHeadAttention(config, rng=np.random.default_rng(0))
nh, hs = config.n_head, config.head_size
x = Tensor(np.random.default_rng(1).standard_normal((2, 5, config.n_embd)))  # (B, T, C)
T = x.shape[1]


def own_projection(x, linear, rows):  # rows h*hs:(h+1)*hs of a (C, C) Linear
    return x @ Tensor(linear.weight.data[rows].T) + Tensor(linear.bias.data[rows])  # (B, T, C) @ (C, hs)


heads = []
for h in range(nh):
    rows = slice(h * hs, (h + 1) * hs)
    q, k, v = (own_projection(x, lin, rows) for lin in (attn.c_q, attn.c_k, attn.c_v))  # (B, T, hs) each
    att = (q @ k.transpose(-2, -1)) * (1.0 / np.sqrt(hs))  # (B, T, hs) @ (B, hs, T) -> (B, T, T)
    att = att.masked_fill(causal_mask(T), -np.inf).softmax(dim=-1)  # (B, T, T)
    heads.append(att @ v)  # (B, T, T) @ (B, T, hs) -> (B, T, hs)
    print(f"head {h}: rows {rows.start:>2}:{rows.stop:<2} of c_q, c_k, c_v {attn.c_q.weight.data[rows].shape}"
          f" -> output {heads[-1].shape}")
y = Tensor(np.concatenate([head.data for head in heads], axis=-1))  # nh x (B, T, hs) -> (B, T, C)
out = attn.c_proj(y)  # (B, T, C)
print(f"side by side {y.shape}, then c_proj -> {out.shape}")
print(f"same as the module, attn(x): {np.allclose(out.data, attn(x).data, rtol=0, atol=1e-12)}")
