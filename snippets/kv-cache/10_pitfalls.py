import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import GPT
from minigpt.tensor import no_grad

model = GPT(GPTConfig(vocab_size=69), seed=0)  # context 32
rng = np.random.default_rng(0)
with no_grad():
    cache = model.new_kv_cache(1)
    model(rng.integers(0, 69, size=(1, 32)), kv_cache=cache)  # the cache is full: 32 positions
    try:
        model(np.array([[5]]), kv_cache=cache)
    except ValueError as e:
        print(f"ValueError: {e}")
    try:
        model(np.array([[5], [6]]), kv_cache=model.new_kv_cache(1))
    except ValueError as e:
        print(f"ValueError: {e}")

    a, b = np.array([[20, 46, 53]]), np.array([[39, 1, 58]])  # (1, 3) each: two prompts
    cache = model.new_kv_cache(1)
    model(a, kv_cache=cache)
    reused, _ = model(b, kv_cache=cache)  # b lands at positions 3..5, after a
    fresh, _ = model(b)
    print(f"prompt b on a cache still holding a: positions {cache.length - 3}..{cache.length - 1}, "
          f"same logits as on its own: {np.allclose(reused.data, fresh.data, atol=1e-6)}")
    cache.reset()
    again, _ = model(b, kv_cache=cache)
    print(f"after cache.reset(): positions 0..2, same logits: {np.allclose(again.data, fresh.data, atol=1e-6)}")
    cache = model.new_kv_cache(1)
    model(a, kv_cache=cache)
    nxt = np.array([[7]])
    whole, _ = model(np.concatenate([a, nxt], 1), kv_cache=cache)  # the whole context again: (1, 4)
    right, _ = model(np.concatenate([a, nxt], 1))
    print(f"the whole context fed again to a cache of {cache.length - 4}: cache.length {cache.length}, "
          f"last row right: {np.allclose(whole.data[:, -1], right.data[:, -1], atol=1e-6)}")
