import numpy as np
import torch

from strided import Strided

x = Strided.arange(2, 3, 4)  # (B, T, C)
r = x.reshape(6, 4)  # (B, T, C) -> (B*T, C)
print(f"x.reshape(6, 4): strides {r.strides}, same buffer {r.buffer is x.buffer}")

y = x.permute(0, 2, 1)  # (B, T, C) -> (B, C, T)
print(f"y = x.permute(0, 2, 1): shape {y.shape} strides {y.strides} contiguous {y.is_contiguous()}")
print("y in row-major order reads buffer positions", y.flatten_values()[:8], "...")
try:
    y.reshape(2, 12)  # (B, C, T) -> (B, C*T)
except ValueError as e:
    print("y.reshape(2, 12): ValueError:", e)

a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
t = torch.from_numpy(a)
pa, pt = a.transpose(0, 2, 1).reshape(2, 12), t.permute(0, 2, 1).reshape(2, 12)
print("numpy reshape shares memory:", np.shares_memory(a, pa), " torch same data_ptr:", pt.data_ptr() == t.data_ptr())
print("same values:", pa.tolist() == pt.tolist() == y.contiguous().reshape(2, 12).tolist())
