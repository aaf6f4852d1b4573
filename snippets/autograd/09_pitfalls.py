import sys

import numpy as np
import torch

import minigpt.tensor
from gradcheck import gradcheck
from tensor import Tensor


def error(f):
    try:
        f()
    except (ValueError, RuntimeError, RecursionError) as e:
        return f"{type(e).__name__}: {str(e).splitlines()[0]}"


print("1. backward() on a (3,) result")
x, tx = Tensor(np.ones(3), requires_grad=True), torch.ones(3, requires_grad=True)
print("  ours: ", error(lambda: (x * 2.0).backward()))
print("  torch:", error(lambda: (tx * 2.0).backward()))

print("2. no requires_grad=True anywhere")
print("  ours: ", error(lambda: (Tensor(np.ones(3)) * 2.0).sum().backward()))
print("  torch:", error(lambda: (torch.ones(3) * 2.0).sum().backward()))

print("3. backward() twice, L = (a * b + c) * d")
a, b, c, d = (Tensor(v, requires_grad=True) for v in (3.0, -2.0, 8.0, 5.0))
L = (a * b + c) * d
L.backward()
print("  ours:  a.grad after one call", a.grad, end="")
L.backward()
print(", after two", a.grad, end="")
a.zero_grad()
L.backward()
print(", after zero_grad() and one more", a.grad)
ta = torch.tensor(3.0, requires_grad=True)
tL = (ta * -2.0 + 8.0) * 5.0
tL.backward()
print("  torch:", error(tL.backward).split(" (")[0])

print("4. s = x + x + ... + x, added up in a loop: 5000 ops deep "
      f"(recursion limit {sys.getrecursionlimit()})")
for T, what in [(Tensor, "ours:   "), (minigpt.tensor.Tensor, "minigpt:")]:
    x = T(np.array(2.0), requires_grad=True)
    s = x
    for _ in range(5000):
        s = s + x
    print(f"  {what}", error(s.backward) or f"x.grad = {x.grad}")

print("5. gradcheck of relu near its kink at 0 (eps = 1e-6)")
for v in [0.0, 1e-7, 0.3]:  # relu'(0-) = 0, relu'(0+) = 1
    try:
        gradcheck(lambda a: a.relu().sum(), np.array([v]))
        print(f"  x = {v:<6g} passed")
    except AssertionError as e:
        print(f"  x = {v:<6g} {e}")
