import numpy as np
import torch

from minigpt_course.checks.autograd import check_topological_order
from tensor import Tensor


def no_visited(loss):
    order = []

    def visit(t):
        for parent in t._prev:
            visit(parent)
        order.append(t)

    visit(loss)
    return order


def tree(T):  # L = (a * b + c) * d
    a, b, c, d = (T(v, requires_grad=True) for v in (3.0, -2.0, 8.0, 5.0))
    return (a * b + c) * d, [a, b, c, d]


def branches(T):  # h = x * w,  L = h + h * k
    x, w, k = (T(v, requires_grad=True) for v in (2.0, 3.0, 4.0))
    h = x * w
    return h + h * k, [x, w, k]


torch.set_default_dtype(torch.float64)
Tensor._topological_order = no_visited
for f, what in [(tree, "L = (a * b + c) * d     "),
                (branches, "L = h + h * k, h = x * w")]:
    (L, ours), (T, theirs) = f(Tensor), f(torch.tensor)
    L.backward()
    T.backward()
    same = all(np.isclose(x.grad.item(), t.grad.item())
               for x, t in zip(ours, theirs))
    grads = " ".join(f"{x.grad.item():g}" for x in ours)
    print(f"{what}  without visited: grads {grads:<14} same as torch: {same}")
print(check_topological_order(no_visited, Tensor))
