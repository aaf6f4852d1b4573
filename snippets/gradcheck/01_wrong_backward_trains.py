import numpy as np

from gradcheck import gradcheck
from tensor import Tensor

rng = np.random.default_rng(0)
X = Tensor(rng.standard_normal((64, 2)))  # (N, 2)
Y = Tensor(np.sin(2 * X.data[:, :1]) * np.cos(X.data[:, 1:]))  # (N, 1)


def tanh_bug(self):  # d tanh(x)/dx = 1 - tanh(x)  (right: 1 - tanh(x)^2)
    out = np.tanh(self.data)
    return Tensor._make(out, (self,), lambda g: self._accumulate(g * (1.0 - out)), "tanh")


def train(steps=1001, lr=0.1):  # y = tanh(x W1 + b1) W2, loss = mean((y - Y)^2), w -= lr * dloss/dw
    r = np.random.default_rng(1)
    W1 = Tensor(r.standard_normal((2, 16)), requires_grad=True)
    b1 = Tensor(np.zeros(16), requires_grad=True)
    W2 = Tensor(r.standard_normal((16, 1)) * 0.25, requires_grad=True)
    losses = []
    for step in range(steps):
        loss = (((X @ W1 + b1).tanh() @ W2 - Y) ** 2).mean()
        for p in (W1, b1, W2):
            p.grad = None
        loss.backward()
        for p in (W1, b1, W2):
            p.data -= lr * p.grad
        losses.append(loss.data.item())
    return losses


right = train()
tanh = Tensor.tanh
Tensor.tanh = tanh_bug
wrong = train()
print("step   right tanh   1 - tanh bug")
for step in range(0, 1001, 200):
    print(f"{step:4d}   {right[step]:10.4f}   {wrong[step]:12.4f}")

x = np.random.default_rng(2).standard_normal((2, 3))
try:
    gradcheck(lambda a: a.tanh().sum(), x)
except AssertionError as e:
    print("gradcheck with the bug :", e)
Tensor.tanh = tanh
print("gradcheck, right tanh : passed, worst error < 1e-8:", gradcheck(lambda a: a.tanh().sum(), x) < 1e-8)
