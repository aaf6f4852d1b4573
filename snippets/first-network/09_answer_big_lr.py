import numpy as np

rng = np.random.default_rng(0)
x = rng.uniform(-2, 2, size=20)  # (20,) the same data as 01
y = 2 * x + 1 + rng.normal(0, 0.3, size=20)  # (20,)


def loss(w, b):  # L = mean((w * x + b - y)^2)
    return np.mean((w * x + b - y) ** 2)


def gradient(w, b, h=1e-6):  # [dL/dw, dL/db] by nudging
    return np.array([(loss(w + h, b) - loss(w, b)) / h,
                     (loss(w, b + h) - loss(w, b)) / h])


for lr in (0.5, 0.7, 1.0):
    wb, ws, losses = np.zeros(2), [], []
    for step in range(6):
        ws.append(wb[0])
        losses.append(loss(*wb))
        wb = wb - lr * gradient(*wb)
    print(f"lr = {lr}:  w    " + " ".join(f"{w:8.2f}" for w in ws))
    print("          loss " + " ".join(f"{v:8.2f}" for v in losses))
curvature = 2 * np.array([[np.mean(x * x), np.mean(x)],  # [[d2L/dw2, d2L/dwdb],
                          [np.mean(x), 1.0]])  # [d2L/dbdw, d2L/db2]]
top = np.linalg.eigvalsh(curvature).max()  # the steepest curvature of L
print(f"steepest curvature {top:.3f}: a step overshoots and grows "
      f"when lr > 2 / {top:.3f} = {2 / top:.3f}")
