import numpy as np

from gradcheck import numerical_grad


def f(a):  # f(x) = x^3
    return (a * a * a).sum()


x0 = 1.0
exact = 3 * x0**2  # f'(x0)
print("eps      float64 error   float32 error")
for eps in [1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9]:
    e64 = abs(numerical_grad(f, np.array([x0], dtype=np.float64), eps)[0] - exact)
    e32 = abs(numerical_grad(f, np.array([x0], dtype=np.float32), eps)[0] - exact)
    print(f"{eps:.0e}    {e64:.1e}         {e32:.1e}")
for dtype in (np.float64, np.float32):
    u = np.finfo(dtype).eps
    print(f"{np.dtype(dtype).name}: spacing of numbers near 1 = {u:.1e}, best eps about u^(1/3) = {u ** (1 / 3):.0e}")
