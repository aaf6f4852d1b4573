import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import MultiHeadAttention
from minigpt.tensor import Tensor

config = GPTConfig()
C, hs = config.n_embd, config.head_size
rng = np.random.default_rng(1)
attn = MultiHeadAttention(config, rng=np.random.default_rng(0))  # this layer
later = MultiHeadAttention(config, rng=np.random.default_rng(2))  # the next layer's attention

y = np.zeros((1, 5, C))  # merged heads (B, T, C): only head 2 says something
y[..., 2 * hs:3 * hs] = rng.standard_normal((1, 5, hs))
W_O, b_O = attn.c_proj.weight.data, attn.c_proj.bias.data  # (C, C), (C,)


def written(delta):  # residual channels that x + delta changes
    return np.flatnonzero(np.abs(delta).max(axis=(0, 1)) > 1e-12)


no_proj, with_proj = written(y), written(y @ W_O.T)  # x + y  vs  x + (c_proj(y) - b_O)
print(f"head 2 writes to residual channels {no_proj[0]}..{no_proj[-1]} ({len(no_proj)} of {C}) without c_proj;"
      f" {len(with_proj)} of {C} with it")

x = rng.standard_normal((1, 5, C))  # a residual stream (B, T, C)
x2 = x.copy()
x2[..., 40] += 1.0  # one channel of head 2's slice changed
q1, q2 = later.c_q(Tensor(x)).data, later.c_q(Tensor(x2)).data  # (B, T, C)
print(f"next layer's c_q: residual channel 40 changed -> {len(written(q2 - q1))} of {C} query channels change")

per_head = sum(y[..., h * hs:(h + 1) * hs] @ W_O[:, h * hs:(h + 1) * hs].T for h in range(config.n_head))
print("c_proj(y) = b_O + sum_h y_h @ W_O[:, h*hs:(h+1)*hs].T:", np.allclose(attn.c_proj(Tensor(y)).data, b_O + per_head))
