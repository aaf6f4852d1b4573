from tensor import Tensor


def cube(x=2.0):  # L = x * x * x
    x = Tensor(x, requires_grad=True)
    (x * x * x).backward()
    return x.grad.item()


def assign(self, g):  # grad = g
    if self.requires_grad:
        self.grad = g.copy()


print(f"grad += g: dL/dx = {cube():g}   (3 * x**2 = {3 * 2.0**2:g})")
right, Tensor._accumulate = Tensor._accumulate, assign
print(f"grad = g:  dL/dx = {cube():g}")
Tensor._accumulate = right
