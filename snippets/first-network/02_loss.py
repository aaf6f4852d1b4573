import numpy as np

np.set_printoptions(precision=2, suppress=True)
rng = np.random.default_rng(0)
x = rng.uniform(-2, 2, size=20)  # (20,) the same data as 01
y = 2 * x + 1 + rng.normal(0, 0.3, size=20)  # (20,)
print("x[:4]           ", x[:4])
print("y[:4]           ", y[:4])
for w, b in [(0, 0), (1, 0), (2, 1)]:
    pred = w * x + b  # (20,) one prediction per point
    loss = np.mean((pred - y) ** 2)  # mean squared error
    print(f"w={w} b={b}: pred[:4]", pred[:4], f"loss {loss:.4f}")
w, b = np.polyfit(x, y, 1)  # least squares: the lowest loss a line can reach
loss = np.mean((w * x + b - y) ** 2)
print(f"best line: w = {w:.3f}, b = {b:.3f}, loss {loss:.4f}")
