import numpy as np

from nn import Embedding

emb = Embedding(5, 3)
emb.weight.data = 10.0 * np.arange(5)[:, None] + np.arange(3)  # row i is [10i, 10i + 1, 10i + 2]
idx = np.array([[2, 0], [2, 2]])  # (B, T) ids; id 2 appears three times
out = emb(idx)  # (B, T) -> (B, T, C)
print("idx", idx.tolist(), "-> out", out.shape)
print(out.data.astype(int).tolist())
one_hot = np.eye(5)[idx]  # (B, T, V)
print("same as one_hot(idx) @ weight:", np.array_equal(out.data, one_hot @ emb.weight.data))

out.sum().backward()  # d sum / d out = 1 everywhere
print("\nweight.grad, one row per id (np.add.at):")
print(emb.weight.grad.astype(int))

g = np.ones(out.shape)
wrong = np.zeros((5, 3))
wrong[idx] += g
print("with weight.grad[idx] += g instead:")
print(wrong.astype(int))
