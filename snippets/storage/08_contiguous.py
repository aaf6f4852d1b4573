import numpy as np
import torch

from strided import Strided

x = Strided.arange(2, 3, 4)  # (B, T, C)
y = x.permute(0, 2, 1)  # (B, C, T), strides (12, 1, 4)
z = y.contiguous()  # a copy, in row-major order of (B, C, T)
print(f"z: shape {z.shape} strides {z.strides} contiguous {z.is_contiguous()}, new buffer {z.buffer is not x.buffer}")
print("z.buffer:", z.buffer)
print("z.reshape(2, 12) row 0:", z.reshape(2, 12).tolist()[0])
print("x.contiguous() is x:", x.contiguous() is x, "(nothing to copy)")

a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
c = np.ascontiguousarray(a.transpose(0, 2, 1))
tc = torch.from_numpy(a).permute(0, 2, 1).contiguous()
print("numpy, torch: same buffer order:", c.ravel().tolist() == tc.flatten().tolist() == z.buffer)

one = Strided.arange(3, 1, 4).permute(1, 0, 2)  # a dim of size 1 moves: (3, 1, 4) -> (1, 3, 4)
print(f"permute of a size-1 dim: strides {one.strides} contiguous {one.is_contiguous()}, "
      f"torch {torch.zeros(3, 1, 4).permute(1, 0, 2).is_contiguous()}")
