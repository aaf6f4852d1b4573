import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import GPT, causal_mask
from minigpt.tensor import no_grad

config = GPTConfig(vocab_size=69)  # L=2, nh=4, hs=16, C=64, V=69
model = GPT(config, seed=0)
idx = np.array([[20, 46, 53, 58, 1, 39]])  # (1, 6)
with no_grad():
    full, _ = model(idx)  # (1, 6, 69): no cache, every position
    cache = model.new_kv_cache(1)
    model(idx[:, :5], kv_cache=cache)  # positions 0..4 into the cache
    print(f"before: cache.length {cache.length}")
    logits, _ = model(idx[:, 5:], kv_cache=cache)  # (1, 1): the token at position 5
    print(f"after:  cache.length {cache.length}, logits {logits.shape}")
    print(f"causal_mask(1): {causal_mask(1).tolist()}: the one query sees all {cache.length} keys")
    diff = float(np.abs(logits.data[:, 0] - full.data[:, 5]).max())
    print(f"same as the full forward's last row (< 1e-6): {diff < 1e-6}")
    cache.reset()
    model(idx[:, :4], kv_cache=cache)
    two, _ = model(idx[:, 4:], kv_cache=cache)  # (1, 2): after cached tokens, fed one at a time inside
    diff = float(np.abs(two.data - full.data[:, 4:]).max())
    print(f"2 new tokens after 4 cached: {two.shape}, same as the full forward's rows 4, 5 (< 1e-6): {diff < 1e-6}")
L, C, V, n = config.n_layer, config.n_embd, config.vocab_size, 6
print(f"multiply-adds of the cached call: 12*L*C^2 + C*V + 2*L*n*C = {12 * L * C * C + C * V + 2 * L * n * C:,}"
      f"; without the cache: {n} times that")
