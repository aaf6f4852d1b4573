import numpy as np

from gradcheck import gradcheck
from tensor import Tensor

x = np.arange(1.0, 7.0).reshape(3, 2)  # (3, 2)
idx = np.array([0, 2, 0])  # idx[0] == idx[2]


def getitem_bug(self, idx):  # full[idx] += g: full[0] = g[2], not g[0] + g[2]
    def _backward(g):
        full = np.zeros_like(self.data)
        full[idx] += g
        self._accumulate(full)

    return Tensor._make(self.data[idx], (self,), _backward, "getitem")


right = Tensor.__getitem__
for name, op in [("np.add.at", right), ("full[idx] += g", getitem_bug)]:
    Tensor.__getitem__ = op
    t = Tensor(x, requires_grad=True)
    t[idx].sum().backward()  # (3, 2)[[0, 2, 0]] -> (3, 2)
    print(f"{name:15} grad {t.grad.tolist()}")
    try:
        gradcheck(lambda t: t[idx].sum(), x)
        print(f"{'':15} gradcheck passed")
    except AssertionError as e:
        print(f"{'':15} gradcheck: {e}")
Tensor.__getitem__ = right
