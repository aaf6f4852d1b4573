import numpy as np

from minigpt_course.checks.autograd import check_tanh
from tensor import Tensor


def my_tanh(x):
    out = np.tanh(x.data)

    def _backward(g):  # d tanh(x)/dx = ?
        pass

    return Tensor._make(out, (x,), _backward, "tanh")


print(check_tanh(my_tanh, Tensor))
