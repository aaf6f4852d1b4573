import math

import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import MultiHeadAttention

config = GPTConfig()  # n_embd=64, n_head=4, n_layer=2, dropout=0.0
attn = MultiHeadAttention(config, rng=np.random.default_rng(0))
C = config.n_embd

print(f"n_embd={C} n_head={config.n_head} head_size={config.head_size} n_layer={config.n_layer}")
print(f"{'name':<14} {'shape':<9} std")
for name, p in attn.named_parameters():
    print(f"{name:<14} {str(p.shape):<9} {p.data.std():.4f}")  # weight (out, in), bias (out,)
print(f"c_proj init std: 0.02 / sqrt(2 * n_layer) = {0.02 / math.sqrt(2 * config.n_layer):.4f}")
params = attn.parameters()
print(f"{len(params)} tensors, {sum(p.numel() for p in params):,} numbers = 4 * (C*C + C) = {4 * (C * C + C):,}")
print("attn_dropout.p =", attn.attn_dropout.p, " resid_dropout.p =", attn.resid_dropout.p)
