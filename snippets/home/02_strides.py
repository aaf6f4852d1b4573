import numpy as np

x = np.arange(24).reshape(2, 3, 4)  # (B, T, C), 8-byte integers
print("shape", x.shape)
print("strides in bytes (numpy's .strides):", x.strides)
print("strides in elements:", tuple(s // x.itemsize for s in x.strides))
