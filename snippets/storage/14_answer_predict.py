import torch

from strided import Strided

y = Strided.arange(2, 3, 4).permute(2, 0, 1).select(1, 1)  # (B, T, C) -> (C, B, T) -> (C, T), b = 1
t = torch.arange(24).reshape(2, 3, 4).permute(2, 0, 1).select(1, 1)
print(f"ours : shape {y.shape} strides {y.strides} offset {y.offset}  y[2, 1] = {y[2, 1]}")
print(f"torch: shape {tuple(t.shape)} strides {t.stride()} offset {t.storage_offset()}  t[2, 1] = {t[2, 1].item()}")
print("y[2, 1] = buffer[12 + 2*1 + 1*4] =", Strided.arange(2, 3, 4).buffer[12 + 2 * 1 + 1 * 4])
