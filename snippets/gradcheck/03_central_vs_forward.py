import numpy as np

from gradcheck import numerical_grad


def f(a):  # f(x) = x^3 at x = 1: f'(1) = 3, f''(1) = 6, f'''(1) = 6
    return (a * a * a).sum()


def forward_grad(f, x, eps):  # (f(x + eps) - f(x)) / eps
    up = x.copy()
    up[0] += eps
    return (f(up) - f(x)) / eps


x, exact = np.array([1.0]), 3.0
print("eps      forward error   central error")
for eps in [1e-1, 1e-2, 1e-3, 1e-4]:
    fwd = abs(forward_grad(f, x, eps) - exact)
    cen = abs(numerical_grad(f, x, eps)[0] - exact)
    print(f"{eps:.0e}    {fwd:.2e}        {cen:.2e}")
