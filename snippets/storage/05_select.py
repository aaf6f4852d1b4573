import numpy as np
import torch

from strided import Strided


def address(arr):  # where arr's first element is, in bytes
    return arr.__array_interface__["data"][0]


x = Strided.arange(2, 3, 4)  # (B, T, C)
a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
t = torch.from_numpy(a)  # shares a's buffer
for dim, i in [(0, 1), (1, 2), (2, 3)]:
    y, a_i, t_i = x.select(dim, i), a[(slice(None),) * dim + (i,)], t.select(dim, i)  # a[1], a[:, 2], a[:, :, 3]
    print(f"select({dim}, {i}): shape {y.shape} strides {y.strides} offset {y.offset:2} | "
          f"numpy +{address(a_i) - address(a):2} bytes | torch +{t_i.data_ptr() - t.data_ptr():2} bytes, "
          f"storage_offset {t_i.storage_offset():2}")
print("x.select(1, 2) =", x.select(1, 2).tolist())
print("same buffer:", x.select(1, 2).buffer is x.buffer, np.shares_memory(a, a[:, 2]))
