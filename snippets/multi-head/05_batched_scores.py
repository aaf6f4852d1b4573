import math

import numpy as np

from minigpt.gpt import causal_mask
from minigpt.tensor import Tensor

np.set_printoptions(precision=2, suppress=True)
rng = np.random.default_rng(0)
B, nh, T, hs = 2, 4, 5, 16
q = Tensor(rng.standard_normal((B, nh, T, hs)))
k = Tensor(rng.standard_normal((B, nh, T, hs)))

att = q @ k.transpose(-2, -1)  # (B, nh, T, hs) @ (B, nh, hs, T) -> (B, nh, T, T)
print("one batched matmul:", q.shape, "@", k.transpose(-2, -1).shape, "->", att.shape)
loop = np.stack([q.data[b, h] @ k.data[b, h].T for b in range(B) for h in range(nh)])  # (B*nh, T, T)
print(f"a loop of {len(loop)} matmuls (T, hs) @ (hs, T), same scores:",
      np.allclose(att.data, loop.reshape(B, nh, T, T)))

mask = causal_mask(T)  # (T, T), True above the diagonal
att = (att * (1.0 / math.sqrt(hs))).masked_fill(mask, -np.inf)  # (T, T) broadcasts over (B, nh)
att = att.softmax(dim=-1)  # (B, nh, T, T)
print("mask", mask.shape, "for scores", att.shape)
print("sequence 0, head 0, attention weights:")
print(att.data[0, 0])
print("zero above the diagonal in all", B * nh, "tables:", bool((att.data[..., mask] == 0).all()))
print("every row sums to 1:", np.allclose(att.data.sum(-1), 1.0))
