import numpy as np
import torch

from minigpt.tensor import Tensor
from strided import Strided

a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)  # (B, T, C)
t = torch.from_numpy(a)
attempts = [
    ("torch   .permute(0, 2, 1).view(2, 12)", lambda: t.permute(0, 2, 1).view(2, 12)),
    ("minigpt .permute(0, 2, 1).view(2, 12)", lambda: Tensor(a).permute(0, 2, 1).view(2, 12)),
    ("ours    .permute(0, 2, 1).reshape(2, 12)", lambda: Strided.arange(2, 3, 4).permute(0, 2, 1).reshape(2, 12)),
    ("numpy   .reshape(5, 4)", lambda: a.reshape(5, 4)),
    ("torch   .reshape(5, 4)", lambda: t.reshape(5, 4)),
]
for what, attempt in attempts:
    try:
        attempt()
    except (RuntimeError, ValueError) as e:
        print(f"{what}\n  {type(e).__name__}: {e}")
r, v = t.permute(0, 2, 1).reshape(2, 12), t.permute(0, 2, 1).contiguous().view(2, 12)
print(f"torch   .permute(0, 2, 1).reshape(2, 12): {tuple(r.shape)}, copied {r.data_ptr() != t.data_ptr()}")
print(f"torch   .permute(0, 2, 1).contiguous().view(2, 12): {tuple(v.shape)}, same values {torch.equal(r, v)}")
