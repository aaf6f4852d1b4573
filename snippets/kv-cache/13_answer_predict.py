import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import KVCache

c = GPTConfig(vocab_size=50257, block_size=1024, n_layer=24, n_head=16, n_embd=1024)  # GPT-2 medium
predicted = {"bytes per token": 2 * c.n_layer * c.n_embd * 2,  # k and v, L layers, C numbers, 2 bytes
             "batch 1, 1024 tokens": 2 * c.n_layer * 1 * c.block_size * c.n_embd * 2,
             "batch 4, 1024 tokens": 2 * c.n_layer * 4 * c.block_size * c.n_embd * 2}
measured = {}
for B in (1, 4):
    cache = KVCache(c, batch_size=B, dtype=np.float16)  # the real buffers, zeros
    measured[f"batch {B}, 1024 tokens"] = sum(b.nbytes for b in cache.k + cache.v)
measured["bytes per token"] = measured["batch 1, 1024 tokens"] // c.block_size
print("GPT-2 medium, float16     predicted     from the buffers")
for key, value in predicted.items():
    print(f"  {key:22} {value:>13,}  {measured[key]:>13,}  {value == measured[key]}")
