import math

import numpy as np

from minigpt.gpt import causal_mask
from minigpt.tensor import Tensor

np.set_printoptions(precision=4, suppress=True)
rng = np.random.default_rng(0)
B, nh, T, hs = 1, 2, 4, 16
q = Tensor(rng.standard_normal((B, nh, T, hs)))
k = Tensor(rng.standard_normal((B, nh, T, hs)))

mask = causal_mask(T)  # (T, T), True above the diagonal
print("mask (1 = hidden):")
print(mask.astype(int))

att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hs))  # (B, nh, T, T)
att = att.masked_fill(mask, -np.inf)  # (T, T) broadcasts over (B, nh)
att = att.softmax(dim=-1)  # each row sums to 1
for h in range(nh):
    print(f"head {h} weights:")
    print(att.data[0, h])
print("row sums:", att.data.sum(axis=-1).round(4).tolist())
