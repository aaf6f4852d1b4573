import numpy as np

import minigpt.gpt
from minigpt.config import GPTConfig
from minigpt.gpt import GPT

config = GPTConfig(vocab_size=69)  # 2 layers, 4 heads, head size 16, context 32
model = GPT(config, seed=0)
store = minigpt.gpt.cached_keys_values
calls = []


def watching(kv_cache, k, v, start):  # k, v: (B, nh, T, hs), this call's new tokens
    k_all, v_all = store(kv_cache, k, v, start)  # (B, nh, start+T, hs)
    if len(calls) % config.n_layer == 0:  # print layer 0 only
        B, nh, T, hs = k.shape
        print(f"positions {start}..{start + T - 1}: new k {k.shape} -> all stored k, v {k_all.shape}, "
              f"scores {(B, nh, T, k_all.shape[2])}")
    calls.append(start)
    return k_all, v_all


minigpt.gpt.cached_keys_values = watching
cache = model.new_kv_cache(1)
k0 = cache.k[0]
print(f"cache: {len(cache.k)} layers x (k, v), each buffer {k0.shape} {k0.dtype}, {k0.nbytes:,} bytes")
out = model.generate(np.array([[20, 46, 53]]), 4, temperature=0.0)  # a prompt of 3, then 4 new tokens
print(f"tokens {out.shape}: {len(calls)} calls = {len(calls) // config.n_layer} forward calls x {config.n_layer} layers")
