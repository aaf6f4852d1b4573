import numpy as np
from numpy.lib.stride_tricks import as_strided, sliding_window_view

from strided import Strided

T, size, step = 8, 3, 1  # 8 tokens, windows of 3, one token apart
n = (T - size) // step + 1  # number of windows
w = Strided(list(range(T)), shape=(n, size), strides=(step, 1))  # overlapping rows, one buffer
print(f"ours : {n} windows, strides {w.strides}:", w.tolist())

x = np.arange(T, dtype=np.float32)
v = as_strided(x, shape=(n, size), strides=(step * x.itemsize, x.itemsize))  # numpy counts bytes
print("numpy:", v.tolist() == w.tolist(), "| shares memory", np.shares_memory(x, v),
      "| same as sliding_window_view", np.array_equal(v, sliding_window_view(x, size)[::step]))

r = Strided(list(range(4)), shape=(3, 4), strides=(0, 1))  # stride 0: the same row, 3 times
print("stride 0:", r.tolist())
