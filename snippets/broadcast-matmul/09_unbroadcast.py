import numpy as np
import torch

from broadcast import unbroadcast

B, T, C = 2, 3, 4
g = np.ones((B, T, C))  # d loss / d y for y = x + bias, (B, T, C)
print("bias (C,): every bias[c] was used B*T =", B * T, "times ->", unbroadcast(g, (C,)).tolist())

rng = np.random.default_rng(0)
g = rng.standard_normal((B, T, C))  # any upstream gradient
for shape in [(C,), (T, 1), (1, T, C)]:
    w = torch.zeros(shape, dtype=torch.float64, requires_grad=True)
    (torch.zeros(B, T, C, dtype=torch.float64) + w).backward(torch.from_numpy(g))  # torch sums for us
    ours, theirs = unbroadcast(g, shape), w.grad.numpy()
    same = ours.shape == theirs.shape and np.allclose(ours, theirs, rtol=1e-12, atol=1e-12)  # shape first
    print(f"{str(shape):10} grad shape {ours.shape}, same as torch: {same}")
wrong = g[0, 0]  # control: the gradient of one copy only, (C,)
print("control, one copy's gradient g[0, 0]:", np.allclose(wrong, unbroadcast(g, (C,))))
