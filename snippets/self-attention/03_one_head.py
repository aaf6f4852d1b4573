import numpy as np

from one_head import OneHead
from minigpt.tensor import Tensor

line = "相见时难别亦难"
C, hs = 16, 8  # n_embd, head_size
vectors = [np.random.default_rng(ord(c)).standard_normal(C) for c in line]  # T x (C,)
x = Tensor(np.stack(vectors)[None])  # (1, T, C)
head = OneHead(C, hs, rng=np.random.default_rng(0))
for name, p in head.named_parameters():
    print(f"{name:<11} {str(p.shape):<8} std {p.data.std():.3f}")  # weight (out, in) = (hs, C)
n = sum(p.numel() for p in head.parameters())
print(f"{n} numbers = 3 * (C*hs + hs) = {3 * (C * hs + hs)}")

y = head(x)  # (1, T, C) -> (1, T, hs)
q, k = head.c_q(x), head.c_k(x)  # (1, T, hs)
w = (q @ k.transpose(-2, -1) * (1 / np.sqrt(hs))).softmax(dim=-1).data[0]  # (T, T)
print("x", x.shape, "-> head(x)", y.shape)
print(f"attention weights before training: {w.min():.4f} .. {w.max():.4f},"
      f" 1/T = {1 / len(line):.4f}")
