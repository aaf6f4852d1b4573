import numpy as np

from minigpt_course.checks.autograd import check_numerical_grad


def my_numerical_grad(f, x, eps=1e-6):
    grad = np.zeros(x.shape)
    for i in np.ndindex(x.shape):
        pass  # grad[i] = (f(x + eps e_i) - f(x - eps e_i)) / (2 eps)
    return grad


print(check_numerical_grad(my_numerical_grad))
