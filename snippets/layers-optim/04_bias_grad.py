import runpy
from pathlib import Path

import numpy as np

from minigpt_course.lessons import lesson_module

Tensor = lesson_module("softmax-cross-entropy", "tensor").Tensor  # lesson 3's engine, which nn.py builds on

rng = np.random.default_rng(0)
xw = rng.standard_normal((2, 3))  # x @ W.T of a Linear(4, 3) on 2 rows: (N, C)
b = rng.standard_normal(3)  # its bias: (C,), broadcast over the rows


def f(xw, b):  # the layer's output, then a tanh so that each row's gradient differs
    out = xw + b
    return out, out.tanh().sum()


Tensor2 = runpy.run_path(str(Path(__file__).parents[1] / "autograd" / "tensor.py"))["Tensor"]  # lesson 2's engine
try:
    f(Tensor2(xw), Tensor2(b, requires_grad=True))[1].backward()
except ValueError as e:
    print("lesson 2's engine:", str(e).split(":")[0])

bias = Tensor(b, requires_grad=True)
out, loss = f(Tensor(xw), bias)
loss.backward()
print("gradient arriving at x @ W.T + b, one row per example:")
print(out.grad.round(4))
print("b.grad:", bias.grad.round(4), " the column sums of those rows:", np.allclose(bias.grad, out.grad.sum(axis=0)))
