import itertools

import numpy as np

from broadcast import batched_matmul, broadcast_shapes
from minigpt.config import GPTConfig


def strides(arr):  # in elements
    return tuple(s // arr.itemsize for s in arr.strides)


cfg = GPTConfig()  # tiny
B, T, C = 2, 8, cfg.n_embd
rng = np.random.default_rng(0)
x, W = rng.standard_normal((B, T, C)), rng.standard_normal((C, C))  # (B, T, C), (out, in)
a, b = x, W.T  # (B, T, C) @ (C, C); W.T is a view
print(f"0 inputs        a {a.shape}  b = W.T {b.shape} strides {strides(b)}, "
      f"inner sizes {a.shape[-1]} == {b.shape[-2]}")
batch = broadcast_shapes(a.shape[:-2], b.shape[:-2])
print(f"1 batch dims    {a.shape[:-2]} and {b.shape[:-2]} -> {batch}")
a2, b2 = np.broadcast_to(a, batch + a.shape[-2:]), np.broadcast_to(b, batch + b.shape[-2:])
print(f"2 broadcast_to  a {a2.shape}  b {b2.shape} strides {strides(b2)}, copied {not np.shares_memory(b, b2)}")
out = np.empty(batch + (a.shape[-2], b.shape[-1]))
print(f"3 out           {out.shape}")
steps = list(itertools.product(*(range(n) for n in batch)))
for idx in steps:
    out[idx] = a2[idx] @ b2[idx]  # (T, C) @ (C, C) -> (T, C)
print(f"4 loop          {len(steps)} steps {steps}: {a2[steps[0]].shape} @ {b2[steps[0]].shape} each")
print("same as batched_matmul(a, b):", np.array_equal(out, batched_matmul(a, b)),
      " as a @ b:", np.allclose(out, a @ b, rtol=1e-12, atol=1e-12))
