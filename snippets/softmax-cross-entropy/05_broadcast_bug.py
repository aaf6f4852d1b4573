import runpy
from pathlib import Path

import numpy as np

from minigpt_course.lessons import lesson_module
from tensor import Tensor

gradcheck = lesson_module("autograd", "gradcheck").gradcheck  # lesson 2's check, on this folder's Tensor

rng = np.random.default_rng(0)
x = rng.standard_normal((2, 4))  # logits (N, V)
w = rng.standard_normal((2, 4))  # fixed weights: softmax's own sum is always N, its gradient 0


def f(x):  # softmax from small ops: (N, V) divided by its row sums (N, 1), a broadcast
    e = x.exp()
    return (e / e.sum(-1, keepdim=True) * w).sum()


Tensor2 = runpy.run_path(str(Path(__file__).parents[1] / "autograd" / "tensor.py"))["Tensor"]  # lesson 2's engine
try:
    f(Tensor2(x, requires_grad=True)).backward()
except ValueError as e:
    print("lesson 2's engine  :", str(e).split(":")[0])


def accumulate_as_is(self, g):  # grad += g, whatever g's shape
    if self.requires_grad:
        self.grad = g.copy() if self.grad is None else self.grad + g


accumulate = Tensor._accumulate
Tensor._accumulate = accumulate_as_is
t = Tensor(x, requires_grad=True)
f(t).backward()
print("without unbroadcast: x.grad has shape", t.grad.shape)
try:
    gradcheck(f, x)
except AssertionError as e:
    print("  gradcheck:", e)
Tensor._accumulate = accumulate
print("with unbroadcast   : gradcheck passed, worst error < 1e-8:", gradcheck(f, x) < 1e-8)
