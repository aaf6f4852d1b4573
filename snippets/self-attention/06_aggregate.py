import numpy as np

from one_head import attention
from minigpt.tensor import Tensor

np.set_printoptions(precision=2, suppress=True)
line, d = "相见时难别亦难", 16
vectors = [np.random.default_rng(ord(c)).standard_normal(d) for c in line]  # T x (d,)
x = Tensor(np.stack(vectors)[None])  # (1, T, d)
y = attention(x, x, x).data[0]  # (T, d), v = x
w = (x @ x.transpose(-2, -1) * (1 / np.sqrt(d))).softmax(dim=-1).data[0]  # (T, T)
v = x.data[0]  # (T, d)

i = 6  # the second 难
print(f"row {i} ({line[i]}):", " ".join(f"{c}{p:.2f}" for c, p in zip(line, w[i])))
print("y[6, :4]                  ", y[i, :4])
print("sum_j w[6, j] * v[j, :4]  ", sum(w[i, j] * v[j, :4] for j in range(len(line))))
print("v of 难, [:4]             ", v[3, :4])
inside = (y >= v.min(0) - 1e-12) & (y <= v.max(0) + 1e-12)  # (T, d)
print("every output number lies between the smallest and largest value in its channel:",
      inside.all())
