import numpy as np
import torch

from gradcheck import gradcheck
from tensor import Tensor, unbroadcast

rng = np.random.default_rng(0)
bias = Tensor(np.zeros(4), requires_grad=True)
(Tensor(rng.standard_normal((2, 3, 4))) + bias).sum().backward()  # (B, T, C) + (C,)
print("(x + b).sum(): b.grad", bias.grad, "shape", bias.grad.shape)
g = rng.standard_normal((2, 3, 4))  # dL/d(out), out: (2, 3, 4)
for shape in [(4,), (3, 1), (2, 1, 4), (1,), (2, 3, 4)]:
    t = torch.zeros(shape, dtype=torch.float64, requires_grad=True)
    t.expand(2, 3, 4).backward(torch.tensor(g))  # dL/dt, t broadcast to (2, 3, 4)
    ours = unbroadcast(g, shape)
    extra = g.ndim - len(shape)
    summed = tuple(range(extra)) + tuple(extra + i for i, n in enumerate(shape) if n == 1 and g.shape[extra + i] != 1)
    print(f"(2, 3, 4) -> {str(shape):10} sum over dims {str(summed):10} same as torch: {np.allclose(ours, t.grad.numpy())}")

a, b = rng.standard_normal((2, 1, 4)), rng.standard_normal((3, 1))
x, c, w = rng.standard_normal((2, 3, 4)), rng.standard_normal(4), rng.standard_normal((5, 4))
for name, f, args in [("x (2, 3, 4) + b (4,)", lambda x, c: (x + c).tanh().sum(), (x, c)),
                      ("(2, 1, 4) * (3, 1)", lambda a, b: (a * b).tanh().sum(), (a, b)),
                      ("x (2, 3, 4) @ w.T (4, 5)", lambda x, w: (x @ w.T).tanh().sum(), (x, w))]:
    print(f"gradcheck {name:24} passed, worst error < 1e-8: {gradcheck(f, *args) < 1e-8}")
