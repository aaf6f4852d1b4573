import numpy as np

rng = np.random.default_rng(0)
x = rng.uniform(-2, 2, size=20)  # (20,) inputs
y = 2 * x + 1 + rng.normal(0, 0.3, size=20)  # (20,) targets: y = 2x + 1 + noise


def loss(w, b):  # L = mean((w * x + b - y)^2)
    return np.mean((w * x + b - y) ** 2)


w, b = 0.0, 0.0  # the two parameters, started anywhere
lr, h = 0.1, 1e-6
for step in range(51):
    if step in (0, 1, 2, 5, 10, 20, 50):
        print(f"step {step:3d}: w = {w:6.3f}  b = {b:6.3f}  "
              f"loss = {loss(w, b):.4f}")
    dw = (loss(w + h, b) - loss(w, b)) / h  # dL/dw ~ change of L per unit of w
    db = (loss(w, b + h) - loss(w, b)) / h  # dL/db
    w, b = w - lr * dw, b - lr * db  # one step downhill
w, b = np.polyfit(x, y, 1)  # least squares solves for the best line directly
print(f"least squares: w = {w:6.3f}  b = {b:6.3f}  loss = {loss(w, b):.4f}")
