import numpy as np

x = np.arange(24).reshape(2, 3, 4)  # (B, T, C)
print(x.shape, x.strides)
