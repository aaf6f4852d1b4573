import numpy as np

from minigpt_course.checks.autograd import check_numerical_grad


def my_numerical_grad(f, x, eps=1e-6):
    grad = np.zeros(x.shape)
    for i in np.ndindex(x.shape):
        old = x[i]
        x[i] = old + eps
        up = f(x)
        x[i] = old - eps
        down = f(x)
        x[i] = old
        grad[i] = (up - down) / (2 * eps)  # error ~ eps^2 f'''/6
    return grad


def forward_difference(f, x, eps=1e-6):
    grad = np.zeros(x.shape)
    fx = f(x)
    for i in np.ndindex(x.shape):
        old = x[i]
        x[i] = old + eps
        grad[i] = (f(x) - fx) / eps  # error ~ eps f''/2
        x[i] = old
    return grad


print(check_numerical_grad(my_numerical_grad))
print(check_numerical_grad(forward_difference))
