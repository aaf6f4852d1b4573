import numpy as np

np.set_printoptions(precision=2, suppress=True)
rng = np.random.default_rng(0)
x = rng.uniform(-2, 2, size=20)  # (20,) the same data as 01
y = 2 * x + 1 + rng.normal(0, 0.3, size=20)  # (20,)
print("x[:4]           ", x[:4])
print("y[:4]           ", y[:4])
for w, b in [(0, 0), (1, 0), (2, 1)]:
    pred = w * x + b  # (20,) one prediction per point
    print(f"w={w} b={b}: pred[:4]", pred[:4], f"loss {np.mean((pred - y) ** 2):.4f}")
w_best, b_best = np.polyfit(x, y, 1)  # least squares: the lowest loss a line can reach
print(f"best line: w = {w_best:.3f}, b = {b_best:.3f}, loss {np.mean((w_best * x + b_best - y) ** 2):.4f}")
