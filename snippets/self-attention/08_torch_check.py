import numpy as np
import torch
import torch.nn.functional as F

from one_head import attention
from minigpt.tensor import Tensor

rng = np.random.default_rng(1)
B, T, d = 2, 7, 16
arrays = [rng.normal(0.0, 2.0, (B, T, d)) for _ in range(3)]  # q, k, v: (B, T, d), float64
g = rng.standard_normal((B, T, d))  # a gradient arriving at the output

ours = [Tensor(a, requires_grad=True) for a in arrays]
y = attention(*ours)  # (B, T, d)
(y * Tensor(g)).sum().backward()

for name, scale in (("scale=1/sqrt(d)", None), ("scale=1 (control)", 1.0)):
    ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    yt = F.scaled_dot_product_attention(*ts, scale=scale)  # no mask
    (yt * torch.tensor(g)).sum().backward()
    out_diff = np.abs(y.data - yt.detach().numpy()).max()
    grad_diff = max(np.abs(a.grad - t.grad.numpy()).max() for a, t in zip(ours, ts))
    print(f"torch {name:<17}: output < 1e-12: {out_diff < 1e-12},"
          f" gradients of q, k, v < 1e-12: {grad_diff < 1e-12}")
q, k = Tensor(arrays[0]), Tensor(arrays[1])
w = (q @ k.transpose(-2, -1) * (1 / np.sqrt(d))).softmax(-1)  # (B, T, T)
print(f"largest weight in a row, on average: {w.data.max(-1).mean():.2f}")
