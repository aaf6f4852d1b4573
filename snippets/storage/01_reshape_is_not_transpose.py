import numpy as np

x = np.arange(6).reshape(2, 3)  # (2, 3)
r = x.reshape(3, 2)  # (2, 3) -> (3, 2), read in storage order
t = x.T  # (2, 3) -> (3, 2), rows become columns
print("x              ", x.tolist())
print("x.reshape(3, 2)", r.tolist())
print("x.T            ", t.tolist())
print("same shape:", r.shape == t.shape, " same numbers:", np.array_equal(r, t))
print("share x's memory:", np.shares_memory(x, r), np.shares_memory(x, t))
