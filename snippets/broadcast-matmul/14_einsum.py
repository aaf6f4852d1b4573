import numpy as np

from broadcast import batched_matmul

rng = np.random.default_rng(0)
B, nh, T, hs = 2, 4, 8, 16
q, k = rng.standard_normal((B, nh, T, hs)), rng.standard_normal((B, nh, T, hs))  # (B, nh, T, hs)
ours = batched_matmul(q, k.swapaxes(-2, -1))  # (B, nh, T, T)
for spec in ["bhtd,bhsd->bhts", "bhtd,bhsd->bhst", "bhtd,bhsd->bht"]:
    out = np.einsum(spec, q, k)  # d is summed; every letter kept on the right is a dim of out
    same = out.shape == ours.shape and np.allclose(out, ours)
    print(f"{spec:17} -> {out.shape}  same as q @ k^T: {same}")
