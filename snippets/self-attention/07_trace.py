import math

import numpy as np

from one_head import OneHead
from minigpt.tensor import Tensor

line, C, hs = "相见时难别亦难", 16, 8
vectors = [np.random.default_rng(ord(c)).standard_normal(C) for c in line]  # T x (C,)
x = Tensor(np.stack(vectors)[None])  # (B, T, C)
head = OneHead(C, hs, rng=np.random.default_rng(0))


def show(step, code, t, note=""):
    print(f"{step:<2} {code:<30} {str(t.shape):<11} {note}".rstrip())


B, T, _ = x.shape
show("", "x", x)
q, k, v = head.c_q(x), head.c_k(x), head.c_v(x)  # (B, T, C) -> (B, T, hs)
show(1, "c_q(x), c_k(x), c_v(x)", q, "x3")
d = q.shape[-1]
scores = q @ k.transpose(-2, -1)  # (B, T, hs) @ (B, hs, T) -> (B, T, T)
show(2, "q @ k.transpose(-2, -1)", scores, "compare")
scores = scores * (1.0 / math.sqrt(d))  # (B, T, T)
show(3, "scores * (1.0 / math.sqrt(d))", scores, f"scale, d = {d}")
weights = scores.softmax(dim=-1)  # (B, T, T)
sums_to_1 = np.allclose(weights.data.sum(-1), 1)
show(4, "scores.softmax(dim=-1)", weights, f"normalise, rows sum to 1: {sums_to_1}")
y = weights @ v  # (B, T, T) @ (B, T, hs) -> (B, T, hs)
show(5, "weights @ v", y, "aggregate")
print("same as head(x):", np.allclose(y.data, head(x).data))
print(f"mult-adds: projections 3*B*T*C*hs = {3 * B * T * C * hs:,};"
      f" q @ k^T and weights @ v 2*B*T*T*hs = {2 * B * T * T * hs}")
print(f"memory: attention weights B*T*T = {weights.numel()} numbers;"
      f" at T = 1024: {1024 * 1024:,}")
