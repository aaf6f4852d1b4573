import numpy as np
import torch

from gradcheck import gradcheck, numerical_grad

for x in [np.array([0.0]), np.array([1e-7]), np.array([0.3])]:  # relu'(0-) = 0, relu'(0+) = 1; eps = 1e-6
    try:
        gradcheck(lambda a: a.relu().sum(), x)
        print(f"relu at x = {x[0]:<6g} gradcheck passed")
    except AssertionError as e:
        print(f"relu at x = {x[0]:<6g} {e}")

x = torch.tensor([1.0, 3.0, 3.0], dtype=torch.float64, requires_grad=True)  # max(x) = x[1] = x[2]
x.max().backward()
print("max of [1, 3, 3]: torch x.max()      ", x.grad.tolist())
x.grad = None
x.max(dim=0).values.backward()
print("                  torch x.max(dim=0) ", x.grad.tolist())
num = numerical_grad(lambda a: a.max(), x.detach().numpy().copy())
print("                  central differences", num.round(6).tolist())
