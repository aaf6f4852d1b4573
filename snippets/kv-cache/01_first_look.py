import time

import numpy as np
import torch

from minigpt.gpt_torch import GPT
from minigpt.presets import get_preset

torch.set_num_threads(1)
config = get_preset("poems-cpu").gpt_config(6831)  # the poem model's shape, V = 6831
model = GPT(config, seed=0).eval()  # random weights: the cost does not depend on them
positions = []  # how many positions each forward call computes
model.register_forward_pre_hook(lambda module, args, kwargs: positions.append(args[0].shape[1]), with_kwargs=True)

N = 128
out, seconds = {}, {}
for use_cache in (True, False):
    positions.clear()
    t0 = time.perf_counter()
    out[use_cache] = model.generate(torch.tensor([[1]]), N, rng=np.random.default_rng(0), use_cache=use_cache)
    seconds[use_cache] = time.perf_counter() - t0
    print(f"use_cache={use_cache!s:5}: {len(positions)} forward calls, {sum(positions):,} positions computed")
print(f"{N} new tokens from <bos>, sampled with seed 0: identical: {torch.equal(out[True], out[False])}")
print(f"with the cache more than 1.5x faster: {seconds[False] > 1.5 * seconds[True]}")
