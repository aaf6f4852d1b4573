import numpy as np

from minigpt.tensor import Tensor

np.set_printoptions(precision=4, suppress=True)

# values of 3 tokens, 4 channels each: (T, C) = (3, 4)
v = Tensor(np.array([[2.0, 2.0, 0.0, 0.0],
                     [0.0, 0.0, 3.0, 3.0],
                     [1.0, 1.0, 1.0, 1.0]]))

# one head: one row of attention weights, shared by all 4 channels
w = Tensor(np.array([[0.5, 0.5, 0.0]]))  # (1, T)
print("one head :", (w @ v).data[0])  # (1, T) @ (T, C) -> (1, C)

# two heads of 2 channels: each head has its own row of attention weights
w0 = Tensor(np.array([[1.0, 0.0, 0.0]]))  # head 0 looks at token 0
w1 = Tensor(np.array([[0.0, 1.0, 0.0]]))  # head 1 looks at token 1
y0 = w0 @ v[:, 0:2]  # (1, T) @ (T, 2) -> (1, 2)
y1 = w1 @ v[:, 2:4]  # (1, T) @ (T, 2) -> (1, 2)
print("two heads:", np.concatenate([y0.data, y1.data], axis=-1)[0])  # (1, 4)
