import numpy as np

from gradcheck import gradcheck, numerical_grad
from tensor import Tensor

x = np.array([-1.0, 0.5, 2.0])
w = np.array([2.0, -1.0, 3.0])


def f(t):  # f(x) = sum(w * tanh(x)): g = w reaches tanh's backward
    return (t.tanh() * Tensor(w)).sum()


def tanh_without_g(self):  # exercise 1's slip: the local derivative, not multiplied by g
    out = np.tanh(self.data)
    return Tensor._make(out, (self,), lambda g: self._accumulate(1.0 - out**2), "tanh")


def autograd(f, x):
    t = Tensor(x.copy(), requires_grad=True)
    f(t).backward()
    return t.grad


def show(a):
    return "[" + ", ".join(f"{v:7.4f}" for v in a) + "]"


num = numerical_grad(lambda a: f(Tensor(a)).data.item(), x.copy())
right = Tensor.tanh
print("f(x) = sum(w * tanh(x)), x = [-1, 0.5, 2], w = [2, -1, 3]")
print("  numerical      ", show(num))
print("  autograd       ", show(autograd(f, x)), " agree:", np.allclose(autograd(f, x), num))
Tensor.tanh = tanh_without_g
print("  tanh without g ", show(autograd(f, x)), " agree:", np.allclose(autograd(f, x), num),
      "  same f(x):", f(Tensor(x)).data.item() == (np.tanh(x) * w).sum())
for title, h in [("sum(tanh(x)):    ", lambda t: t.tanh().sum()), ("sum(w * tanh(x)):", f)]:
    try:
        gradcheck(h, x)
        print(f"gradcheck, tanh without g, {title}  passed (every g is 1)")
    except AssertionError as e:
        print(f"gradcheck, tanh without g, {title}  {e}")
Tensor.tanh = right


def every_op(x, W, b, s):  # every op of tensor.py; h and s used three times each
    h = (x @ W + b).tanh()
    y = h * s.log() - (-h).exp() / s**0.5 + (h - s).relu()
    return (y * y).sum()


rng = np.random.default_rng(0)
arrays = rng.standard_normal((4, 3)), rng.standard_normal((3, 5)), rng.standard_normal((4, 5)), rng.uniform(0.5, 2, (4, 5))
print("gradcheck, every op of tensor.py in one loss:  passed, worst error < 1e-8:", gradcheck(every_op, *arrays) < 1e-8)
