import numpy as np

from minigpt.tensor import Tensor

line, d = "相见时难别亦难", 16
vectors = [np.random.default_rng(ord(c)).standard_normal(d) for c in line]  # T x (d,)
x = Tensor(np.stack(vectors))  # (T, d)
s = (x @ x.T).data  # (T, d) @ (d, T) -> (T, T): s[i, j] = x_i . x_j
print(("   " + " ".join(f"{c:>4}" for c in line)).rstrip())
for c, row in zip(line, s):
    print(c, " ".join(f"{v:5.1f}" for v in row))
same = np.array([[a == b for b in line] for a in line])  # (T, T): same character?
print(f"same character (x_i . x_i = |x_i|^2): {s[same].min():.1f} .. {s[same].max():.1f}; "
      f"different characters: {s[~same].min():.1f} .. {s[~same].max():.1f}")
