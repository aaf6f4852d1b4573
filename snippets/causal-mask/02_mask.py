import numpy as np

from minigpt.gpt import causal_mask
from minigpt.tensor import Tensor

line, d = "相见时难别亦难", 16
T = len(line)
mask = causal_mask(T)  # (T, T) bool, True above the diagonal
print("causal_mask(7), 1 = hidden:")
print(mask.astype(int))

vectors = [np.random.default_rng(ord(c)).standard_normal(d) for c in line]  # T x (d,)
x = Tensor(np.stack(vectors))  # (T, d)
scores = x @ x.T * (1 / np.sqrt(d))  # (T, T)
w = scores.masked_fill(mask, -np.inf).softmax(dim=-1).data  # -inf -> exp(-inf) = 0
print(("   " + " ".join(f" {c} " for c in line)).rstrip())
for c, row in zip(line, w):
    print(c, " ".join(f"{p:.2f}" for p in row))
print("row sums:", " ".join(f"{s:.2f}" for s in w.sum(-1)))
