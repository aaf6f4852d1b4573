import numpy as np

from gradcheck import gradcheck
from tensor import Tensor


def permute_bug(self, *dims):  # backward: transpose(g, dims)  (right: transpose(g, argsort(dims)))
    def _backward(g):
        self._accumulate(np.transpose(g, dims))

    return Tensor._make(np.transpose(self.data, dims), (self,), _backward, "permute")


Tensor.permute = permute_bug
rng = np.random.default_rng(0)
x, w = rng.standard_normal((2, 2, 2)), np.arange(8.0).reshape(2, 2, 2)


def f(a):  # sum(permute(a, (1, 2, 0)) * w)
    return (a.permute(1, 2, 0) * w).sum()


t = Tensor(x, requires_grad=True)
f(t).backward()
eps = 1e-6
for name, d in [("all ones", np.ones_like(x)), ("random", rng.standard_normal(x.shape))]:
    along = (f(Tensor(x + eps * d)).data - f(Tensor(x - eps * d)).data) / (2 * eps)  # = grad . d
    print(f"one direction, {name:8}: autograd {np.sum(t.grad * d):8.4f}, numerical {along:8.4f}")
try:
    gradcheck(f, x)
except AssertionError as e:
    print("one element at a time  :", e)
