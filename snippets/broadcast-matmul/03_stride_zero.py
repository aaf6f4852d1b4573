import numpy as np
import torch

B, T, C = 2, 3, 4
bias = np.arange(C, dtype=np.float32)  # (C,)
view = np.broadcast_to(bias, (B, T, C))  # (C,) -> (B, T, C), no copy
copy = np.tile(bias, (B, T, 1))  # (B, T, C), B*T copies
print(f"broadcast_to: strides {view.strides} bytes = {tuple(s // view.itemsize for s in view.strides)} elements, "
      f"shares memory {np.shares_memory(bias, view)}, writeable {view.flags.writeable}")
print(f"tile        : strides {copy.strides} bytes, {copy.nbytes} bytes of new memory")
t = torch.from_numpy(bias).expand(B, T, C)  # torch's name for broadcast_to
print(f"torch expand: stride {t.stride()}, same data_ptr {t.data_ptr() == torch.from_numpy(bias).data_ptr()}")
print("same numbers:", np.array_equal(view, copy), t.tolist() == copy.tolist())
x = np.ones((B, T, C), dtype=np.float32)
print("x + bias == x + tile:", np.array_equal(x + bias, x + copy), " (x + bias).shape", (x + bias).shape)
