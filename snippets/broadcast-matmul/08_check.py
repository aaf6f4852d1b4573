import numpy as np
import torch

from broadcast import batched_matmul, broadcast_shapes

pairs = [((3, 4), (4, 5)), ((2, 3, 4), (2, 4, 5)), ((2, 3, 4), (4, 5)), ((2, 1, 3, 4), (5, 4, 6)),
         ((2, 4, 8, 16), (2, 4, 16, 8)), ((1, 3, 4), (6, 4, 2))]
rng = np.random.default_rng(0)
ok, dot_agrees = True, 0
for sa, sb in pairs:
    a, b = rng.standard_normal(sa), rng.standard_normal(sb)  # float64
    ref = torch.matmul(torch.from_numpy(a), torch.from_numpy(b)).numpy()  # (..., M, N)
    ours = batched_matmul(a, b)
    ok &= ours.shape == ref.shape == broadcast_shapes(sa[:-2], sb[:-2]) + (sa[-2], sb[-1])
    ok &= np.allclose(ours, ref, rtol=0, atol=1e-12)
    dot = np.dot(a, b)  # control: not a batched matmul beyond 2-D
    dot_agrees += dot.shape == ref.shape and np.allclose(dot, ref, rtol=0, atol=1e-12)
print(f"{len(pairs)} shape pairs in float64, ours == torch.matmul (shape, and values within 1e-12): {ok}")
print(f"control, np.dot instead: agrees on {dot_agrees} of {len(pairs)} pairs: {dot_agrees == len(pairs)}")
