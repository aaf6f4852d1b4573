import numpy as np

from tensor import Tensor

rng = np.random.default_rng(0)
x = Tensor(rng.standard_normal((6, 4)))  # (N, 4)
y = Tensor(rng.standard_normal((6, 1)))  # (N, 1)
w1_start = rng.standard_normal((4, 8)) * 0.5  # (4, 8)
w2_start = rng.standard_normal((8, 1)) * 0.5  # (8, 1)
steps = 60
print("loss at step " + "".join(f"{s:>11}" for s in range(0, steps + 1, 20)))
for lr in (0.01, 0.05, 0.1, 0.2):
    w1 = Tensor(w1_start.copy(), requires_grad=True)
    w2 = Tensor(w2_start.copy(), requires_grad=True)
    losses = []
    for step in range(steps + 1):
        r = (x @ w1).tanh() @ w2 - y  # (N, 1)
        L = (r * r).sum()
        losses.append(L.data.item())
        w1.zero_grad()
        w2.zero_grad()
        L.backward()
        w1.data -= lr * w1.grad  # w <- w - lr * dL/dw
        w2.data -= lr * w2.grad
    print(f"lr {lr:<9} " + "".join(f"{v:>11.4g}" for v in losses[::20]))
