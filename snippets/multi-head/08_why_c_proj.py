import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import MultiHeadAttention
from minigpt.tensor import Tensor

config = GPTConfig()
attn = MultiHeadAttention(config, rng=np.random.default_rng(0))
hs = config.head_size
rng = np.random.default_rng(1)

y = Tensor(rng.standard_normal((1, 5, config.n_embd)))  # merged heads (B, T, C)
y_off = Tensor(y.data.copy())
y_off.data[..., 2 * hs:3 * hs] = 0.0  # head 2 silenced: its hs channels set to 0


def changed(a, b):  # how many of the C output channels differ anywhere
    return int((np.abs(a.data - b.data) > 1e-9).any(axis=(0, 1)).sum())


print(f"channels changed before c_proj: {changed(y, y_off)} of {config.n_embd}")
print(f"channels changed after  c_proj: {changed(attn.c_proj(y), attn.c_proj(y_off))} of {config.n_embd}")
