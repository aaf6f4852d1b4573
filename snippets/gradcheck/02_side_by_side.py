import numpy as np

from gradcheck import gradcheck, numerical_grad
from tensor import Tensor

x = np.array([1.0, 2.0, 3.0])


def f(t):  # f(x) = sum(x^3), df/dx = 3 x^2
    return (t * t * t).sum()


a = Tensor(x.copy(), requires_grad=True)
f(a).backward()
num = numerical_grad(lambda arr: f(Tensor(arr)).data.item(), x.copy(), eps=1e-6)
print("x          ", x)
print("3 x^2      ", 3 * x**2)
print("autograd   ", a.grad)
print("numerical  ", np.array2string(num, precision=10))
print("difference  max", f"{np.abs(a.grad - num).max():.1e}")
print("gradcheck(f, x) returns the worst difference:", f"{gradcheck(f, x):.1e}")
