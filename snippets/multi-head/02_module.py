import math

import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import MultiHeadAttention

config = GPTConfig()  # n_embd=64, n_head=4, n_layer=2
attn = MultiHeadAttention(config, rng=np.random.default_rng(0))

print(f"n_embd={config.n_embd} n_head={config.n_head} head_size={config.head_size} n_layer={config.n_layer}")
print(f"{'name':<14} {'shape':<9} std")
for name, p in attn.named_parameters():
    print(f"{name:<14} {str(p.shape):<9} {p.data.std():.4f}")  # weight (out, in), bias (out,)
print(f"c_proj init std: 0.02 / sqrt(2 * n_layer) = {0.02 / math.sqrt(2 * config.n_layer):.4f}")
