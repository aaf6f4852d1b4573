import numpy as np
import torch

from strided import Strided

print("ours    ", Strided.arange(2, 3, 4).strides, "elements")
print("dtype    itemsize  numpy .strides  / itemsize  torch .stride()")
for dtype in (np.int64, np.float32, np.float64, np.float16):
    a = np.zeros((2, 3, 4), dtype=dtype)  # (B, T, C)
    elements = tuple(s // a.itemsize for s in a.strides)
    t = torch.from_numpy(a)  # shares a's buffer
    print(f"{a.dtype.name:8} {a.itemsize:>8}  {str(a.strides):14}  {str(elements):10}  {t.stride()}")
