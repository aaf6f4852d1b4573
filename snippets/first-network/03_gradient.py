import numpy as np

rng = np.random.default_rng(0)
x = rng.uniform(-2, 2, size=20)  # (20,) the same data as 01
y = 2 * x + 1 + rng.normal(0, 0.3, size=20)  # (20,)


def loss(w, b):  # L = mean((w * x + b - y)^2)
    return np.mean((w * x + b - y) ** 2)


def gradient(w, b, h=1e-6):  # [dL/dw, dL/db], each by nudging one parameter
    return np.array([(loss(w + h, b) - loss(w, b)) / h,
                     (loss(w, b + h) - loss(w, b)) / h])


h = 1e-6
print(f"L(0, 0)     = {loss(0, 0):.9f}")
print(f"L(0 + h, 0) = {loss(h, 0):.9f}   change {loss(h, 0) - loss(0, 0):.4e}")
print(f"L(0, 0 + h) = {loss(0, h):.9f}   change {loss(0, h) - loss(0, 0):.4e}")
print(f"gradient at (0, 0): [dL/dw, dL/db] = {np.round(gradient(0, 0), 4)}")
for lr in (0.01, 0.1, 0.5):
    w, b = 0.0, 0.0
    for step in range(1, 21):
        w, b = np.array([w, b]) - lr * gradient(w, b)  # a step against it
        if step in (1, 20):
            print(f"lr = {lr:<4}  after step {step:2d}: w = {w:.3f}, b = {b:.3f}, "
                  f"loss {loss(w, b):.4f}")
