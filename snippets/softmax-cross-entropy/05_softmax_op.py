import numpy as np

from functional import cross_entropy
from tensor import Tensor

np.set_printoptions(precision=4, suppress=True)
logits = Tensor([[2.0, 1.0, 0.1, -1.0],
                 [0.5, 0.5, 3.0, 0.0]], requires_grad=True)  # (N, V) = (2, 4)
targets = np.array([0, 3])  # the right class of each row

p = logits.softmax(dim=-1)  # (N, V)
print("softmax (each row sums to 1):")
print(p.data)
print("row sums:", p.data.sum(axis=-1))
print("log_softmax:")
print(logits.log_softmax(dim=-1).data)
print("p of the right class:", p.data[np.arange(2), targets])
print("-log p:", -np.log(p.data[np.arange(2), targets]))

loss = cross_entropy(logits, targets)  # mean of -log p
print(f"cross_entropy: {loss.data:.4f}, made by one op: {loss._op!r}, from {len(loss._prev)} tensor")
