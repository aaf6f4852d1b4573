import numpy as np

from tensor import Tensor

rng = np.random.default_rng(0)
x = Tensor(rng.standard_normal((6, 4)))  # (N, 4)
y = Tensor(rng.standard_normal((6, 1)))  # (N, 1)
w1 = rng.standard_normal((4, 8)) * 0.5  # (4, 8)
w2 = rng.standard_normal((8, 1)) * 0.5  # (8, 1)
forwards = 0


def loss(w1, w2):  # L = sum((tanh(x @ w1) @ w2 - y)^2)
    global forwards
    forwards += 1
    r = (x @ w1).tanh() @ w2 - y  # (N, 4) @ (4, 8) @ (8, 1) -> (N, 1)
    return (r * r).sum()


h = 1e-6
base = loss(Tensor(w1), Tensor(w2)).data
nudged = []
for w in (w1, w2):
    for i in np.ndindex(w.shape):  # dL/dw[i] ~ (L(w[i] + h) - L) / h
        w[i] += h
        nudged.append((loss(Tensor(w1), Tensor(w2)).data - base) / h)
        w[i] -= h
print(f"weights: {w1.size + w2.size}")
print(f"nudging each weight: {forwards} forward passes, "
      f"dL/dw1[0, 0] = {nudged[0]:.4f}")

forwards = 0
t1, t2 = Tensor(w1, requires_grad=True), Tensor(w2, requires_grad=True)
loss(t1, t2).backward()
exact = np.concatenate([t1.grad.ravel(), t2.grad.ravel()])
print(f"backward():          {forwards} forward pass + 1 backward, "
      f"dL/dw1[0, 0] = {exact[0]:.4f}")
largest = np.abs(exact - np.array(nudged)).max()
print(f"all {exact.size} agree to 1e-4:", bool(largest < 1e-4))
