import numpy as np

from tensor import Tensor

x = np.ones((2, 3))  # (2, 3)
w = np.array([1.0, 2.0, 3.0])  # (3,) -> (2, 3)
L = (Tensor(x) * Tensor(w, requires_grad=True)).sum()
print("forward works:", L)
try:
    L.backward()
except ValueError as e:
    print("backward: ValueError:", e)
