import numpy as np
import torch

from nn import Embedding
from tensor import Tensor  # lesson 3's engine, which nn.py builds on

ids = np.array([0, 2, 0])  # id 0 twice in the batch, id 1 not at all
up = np.array([[1.0, 1.0], [10.0, 10.0], [100.0, 100.0]])  # the gradient arriving at each position


def getitem_bug(self, idx):  # full[idx] += g: row 0 is written twice, and the second write wins
    def _backward(g):
        full = np.zeros_like(self.data)
        full[idx] += g
        self._accumulate(full)

    return Tensor._make(self.data[idx], (self,), _backward, "getitem")


theirs = torch.nn.Embedding(3, 2).double()  # the referee
(theirs(torch.from_numpy(ids)) * torch.from_numpy(up)).sum().backward()
print(f"ids {ids.tolist()}, gradient arriving at each position {up[:, 0].tolist()}")
print(f"{'torch':15} weight.grad {theirs.weight.grad.tolist()}")

right = Tensor.__getitem__
for name, op in [("np.add.at", right), ("full[idx] += g", getitem_bug)]:
    Tensor.__getitem__ = op
    emb = Embedding(3, 2, rng=np.random.default_rng(0))
    (emb(ids) * up).sum().backward()  # (3,) ids -> (3, 2) rows
    same = np.allclose(emb.weight.grad, theirs.weight.grad.numpy())
    print(f"{name:15} weight.grad {emb.weight.grad.tolist()}  same as torch: {same}")
Tensor.__getitem__ = right
