import math

import numpy as np
import torch

from broadcast import batched_matmul, broadcast_shapes

rng = np.random.default_rng(0)
a, b = rng.standard_normal((2, 1, 3, 4)), rng.standard_normal((5, 4, 6))  # (..., M, K), (..., K, N)
batch = broadcast_shapes(a.shape[:-2], b.shape[:-2])
print(f"batch dims {a.shape[:-2]} and {b.shape[:-2]} -> {batch}: {math.prod(batch)} products of "
      f"{a.shape[-2:]} @ {b.shape[-2:]} -> {(a.shape[-2], b.shape[-1])}")
out = batched_matmul(a, b)
print("out.shape", out.shape)
print("out[1, 4] == a[1, 0] @ b[4]:", np.allclose(out[1, 4], a[1, 0] @ b[4]))
i, j = 2, 5  # one entry: a dot product over K
print(f"out[1, 4, {i}, {j}] == sum_k a[1, 0, {i}, k] * b[4, k, {j}]:",
      np.isclose(out[1, 4, i, j], sum(a[1, 0, i, k] * b[4, k, j] for k in range(4))))
print("same as numpy @ and torch.matmul:", np.allclose(out, a @ b, rtol=1e-12, atol=0),
      np.allclose(out, torch.matmul(torch.from_numpy(a), torch.from_numpy(b)).numpy(), rtol=1e-12, atol=0))
