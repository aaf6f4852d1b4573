import numpy as np

import tensor
from gradcheck import gradcheck
from tensor import Tensor

rng = np.random.default_rng(0)
X = Tensor(rng.standard_normal((64, 2)))  # (N, 2)
Y = Tensor(np.sin(2 * X.data[:, :1]) * np.cos(X.data[:, 1:]))  # (N, 1)


def unbroadcast_mean(g, shape):  # the bug: the copies' gradients averaged, not summed
    if g.shape == shape:
        return g
    g = g.mean(axis=tuple(range(g.ndim - len(shape))))  # (N, 16) -> (16,): divided by N
    stretched = tuple(i for i, n in enumerate(shape) if n == 1 and g.shape[i] != 1)
    return g.mean(axis=stretched, keepdims=True)


def train(steps=1001, lr=0.1):  # y = tanh(x W1 + b1) W2, b1 (16,) broadcast over N rows
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
unbroadcast = tensor.unbroadcast
tensor.unbroadcast = unbroadcast_mean  # _accumulate now averages
wrong = train()
print("step   sum (right)   mean (bug)")
for step in range(0, 1001, 200):
    print(f"{step:4d}   {right[step]:11.4f}   {wrong[step]:10.4f}")

r = np.random.default_rng(2)
x, b = r.standard_normal((2, 3, 4)), r.standard_normal(4)  # x (B, T, C), bias b (C,)
try:
    gradcheck(lambda x, b: (x + b).tanh().sum(), x, b)
except AssertionError as e:
    print("gradcheck, mean:", e)
tensor.unbroadcast = unbroadcast
print("gradcheck, sum : passed, worst error < 1e-8:", gradcheck(lambda x, b: (x + b).tanh().sum(), x, b) < 1e-8)
