import torch

from tensor import Tensor


def square(T, x=3.0):  # y = x * x
    x = T(x, requires_grad=True)
    return x * x, [x]


def branches(T, x=2.0, w=3.0, k=4.0):  # h = x * w,  L = h + h * k
    x, w, k = (T(v, requires_grad=True) for v in (x, w, k))
    h = x * w
    return h + h * k, [x, w, k]


def assign(self, g):  # grad = g
    if self.requires_grad:
        self.grad = g.copy()


def grads(f, T):
    out, leaves = f(T)
    out.backward()
    return "".join(f"{x.grad.item():7g}" for x in leaves)


torch.set_default_dtype(torch.float64)
right = Tensor._accumulate
cases = [(square, "y = x * x, x = 3", ["dy/dx"]),
         (branches, "L = h + h * k, h = x * w", ["dL/dx", "dL/dw", "dL/dk"])]
for f, what, columns in cases:
    print(f"{what:<24}" + "".join(f"{c:>7}" for c in columns))
    print("  grad += g (tensor.py) " + grads(f, Tensor))
    Tensor._accumulate = assign
    print("  grad = g              " + grads(f, Tensor))
    Tensor._accumulate = right
    print("  torch                 " + grads(f, torch.tensor))
