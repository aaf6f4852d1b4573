import numpy as np
import torch

from strided import Strided

x = Strided.arange(2, 3, 4)  # (B, T, C)
y = x.permute(2, 0, 1)  # (B, T, C) -> (C, B, T)
a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
t = torch.from_numpy(a)
p, q = a.transpose(2, 0, 1), t.permute(2, 0, 1)  # numpy calls permute transpose
print(f"ours : {x.shape} strides {x.strides} -> {y.shape} strides {y.strides}, same buffer {y.buffer is x.buffer}")
print(f"numpy: strides {tuple(s // p.itemsize for s in p.strides)} elements, shares memory {np.shares_memory(a, p)}")
print(f"torch: strides {q.stride()}, same data_ptr {q.data_ptr() == t.data_ptr()}")
print("y[3] =", y.select(0, 3).tolist(), "  same values as numpy:", y.tolist() == p.tolist())
print("y[3, 1, 2] is x[1, 2, 3]:", y[3, 1, 2], x[1, 2, 3])

p[3, 1, 2] = -1.0  # write through the view
print("after p[3, 1, 2] = -1:  a[1, 2, 3] =", a[1, 2, 3], " t[1, 2, 3] =", t[1, 2, 3].item())
