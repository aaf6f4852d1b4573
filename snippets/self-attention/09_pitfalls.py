import numpy as np
import torch

from minigpt.tensor import Tensor

rng = np.random.default_rng(0)
q, k = Tensor(rng.standard_normal((1, 7, 8))), Tensor(rng.standard_normal((1, 7, 8)))  # (B, T, d)
for code, make in (("q @ k", lambda: q @ k), ("q @ k.T", lambda: q @ k.T)):  # k.T: (d, T, B)
    try:
        make()
    except ValueError as e:
        print(f"{code:<8} ValueError: {e}")
try:
    torch.zeros(1, 7, 8) @ torch.zeros(1, 7, 8)
except RuntimeError as e:
    print("torch    RuntimeError:", e)

square = Tensor(rng.standard_normal((1, 8, 8)))  # T = d = 8: q @ k runs, no error
print("T = d = 8: q @ k", (square @ square).shape, "equals q @ k^T:",
      np.allclose((square @ square).data, (square @ square.transpose(-2, -1)).data))

s = q @ k.transpose(-2, -1)  # (1, T, T)
wrong = s.softmax(dim=-2).data[0]  # normalised down each column
print("softmax(dim=-2): row sums", np.round(wrong.sum(-1), 2),
      "| column sums", np.round(wrong.sum(0), 2))
