import numpy as np

import minigpt.gpt
from minigpt.config import GPTConfig
from minigpt.gpt import GPT, KVCache


class ForgetsLength(KVCache):  # bug (a): kv_cache.length += T has no effect
    length = property(lambda self: 0, lambda self, value: None)


model = GPT(GPTConfig(vocab_size=69), seed=0)
positions = [0]
forward = GPT.forward


def counting(self, idx, targets=None, kv_cache=None):
    positions[0] += np.asarray(idx).shape[1]  # positions this call computes
    return forward(self, idx, targets, kv_cache)


GPT.forward = counting
store, new_kv_cache = minigpt.gpt.cached_keys_values, GPT.new_kv_cache
bugs = {
    "no bug": lambda: None,
    "(a) length never grows": lambda: setattr(GPT, "new_kv_cache", lambda self, B: ForgetsLength(self.config, B)),
    "(b) writes at position 0": lambda: setattr(minigpt.gpt, "cached_keys_values",
                                                lambda kv, k, v, start: store(kv, k, v, 0)),
}
prompt = np.array([[20, 46, 53]])  # (1, 3)
positions[0] = 0
plain = model.generate(prompt, 20, rng=np.random.default_rng(0), use_cache=False)
print(f"without a cache: {positions[0]} positions computed")
for name, introduce in bugs.items():
    minigpt.gpt.cached_keys_values, GPT.new_kv_cache = store, new_kv_cache  # undo the previous bug
    introduce()
    positions[0] = 0
    cached = model.generate(prompt, 20, rng=np.random.default_rng(0))
    print(f"{name:26}: identical tokens {np.array_equal(cached, plain)!s:5}, {positions[0]:3} positions computed")
