import runpy
from pathlib import Path

import numpy as np

from gradcheck import gradcheck
from tensor import Tensor

rng = np.random.default_rng(0)
x, b = rng.standard_normal((2, 3, 4)), rng.standard_normal(4)  # x (B, T, C), bias b (C,)


def f(x, b):  # (B, T, C) + (C,) -> (B, T, C) -> ()
    return (x + b).tanh().sum()


Tensor3 = runpy.run_path(str(Path(__file__).parents[1] / "autograd" / "tensor.py"))["Tensor"]  # snippets/autograd/tensor.py
try:
    f(Tensor3(x), Tensor3(b, requires_grad=True)).backward()
except ValueError as e:
    print("lesson 2           :", e)


def accumulate_as_is(self, g):  # grad += g, g: (B, T, C)
    if self.requires_grad:
        self.grad = g.copy() if self.grad is None else self.grad + g


accumulate = Tensor._accumulate
Tensor._accumulate = accumulate_as_is
try:
    gradcheck(f, x, b)
except AssertionError as e:
    print("without unbroadcast:", e)
Tensor._accumulate = accumulate
