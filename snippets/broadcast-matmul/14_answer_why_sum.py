import numpy as np

from broadcast import unbroadcast

B, T, C = 2, 3, 4
rng = np.random.default_rng(0)
x, bias, g = rng.standard_normal((B, T, C)), rng.standard_normal(C), rng.standard_normal((B, T, C))


def loss(bias):  # L = sum(g * (x + bias)), so dL/dy = g for y = x + bias
    return float((g * (x + bias)).sum())


eps, c = 1e-6, 1
nudged = bias.copy()
nudged[c] += eps
slope = (loss(nudged) - loss(bias)) / eps  # how L moves when bias[c] moves
print(f"finite difference dL/dbias[{c}]: {slope:.6f}")
print(f"sum over (B, T) of g[..., {c}]:  {unbroadcast(g, (C,))[c]:.6f}")
print(f"one copy's gradient g[0, 0, {c}]: {g[0, 0, c]:.6f}")
