import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import MultiHeadAttention

config = GPTConfig()
attn = MultiHeadAttention(config, rng=np.random.default_rng(0))
C = config.n_embd

params = attn.parameters()
for layer in ("c_q", "c_k", "c_v", "c_proj"):
    lin = getattr(attn, layer)
    print(f"{layer:<7} {lin.weight.numel():>5} + {lin.bias.numel():>2} = {lin.weight.numel() + lin.bias.numel()}")
print(f"{len(params)} tensors, {sum(p.numel() for p in params):,} numbers")
print(f"4 * (C*C + C) = 4 * ({C}*{C} + {C}) = {4 * (C * C + C):,}")
