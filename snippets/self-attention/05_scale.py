import numpy as np

from minigpt.tensor import Tensor

rng = np.random.default_rng(0)
N, T = 10_000, 7  # pairs of vectors; positions in a row of scores
print("    d  var(q.k)  var(q.k/sqrt(d))  largest weight per row: unscaled  scaled")
for d in (4, 16, 64, 256):
    q, k = rng.standard_normal((N, d)), rng.standard_normal((N, d))  # entries: mean 0, var 1
    dots = (q * k).sum(-1)  # (N,): q.k = sum of d products, each of var 1
    qs, ks = rng.standard_normal((N, T, d)), rng.standard_normal((N, d, T))
    s = Tensor(qs) @ Tensor(ks)  # (N, T, d) @ (N, d, T) -> (N, T, T) scores
    top_raw = s.softmax(dim=-1).data.max(-1).mean()  # mean over rows of the largest weight
    top_scaled = (s * (1 / np.sqrt(d))).softmax(dim=-1).data.max(-1).mean()
    print(f"{d:>5}  {dots.var():>8.1f}  {(dots / np.sqrt(d)).var():>16.2f}"
          f"  {top_raw:>32.3f}  {top_scaled:>6.3f}")

raw = rng.standard_normal((T, 256)) @ rng.standard_normal((256, T))  # (T, T) scores, d = 256
g = rng.standard_normal((T, T))  # a gradient arriving at the weights
for name, factor in (("unscaled", 1.0), ("scaled", 1 / 16)):  # sqrt(256) = 16
    s = Tensor(raw * factor, requires_grad=True)
    (s.softmax(dim=-1) * Tensor(g)).sum().backward()  # d(sum g * softmax(s)) / ds
    print(f"d=256 {name:<8}: mean |gradient reaching the scores| = {np.abs(s.grad).mean():.2e}")
