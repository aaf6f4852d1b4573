import numpy as np

from tensor import Tensor


def naive_softmax(x):
    e = np.exp(x)  # e^x_i
    return e / e.sum()  # e^x_i / sum_j e^x_j


np.set_printoptions(precision=4)
with np.errstate(over="ignore", under="ignore", invalid="ignore"):
    for x in ([1.0, 2.0, 3.0], [1000.0, 1001.0, 1002.0], [-1000.0, -1001.0, -1002.0]):
        x = np.array(x)
        print(f"x = {x}")
        print(f"  exp(x)           {np.exp(x)}")
        print(f"  naive softmax    {naive_softmax(x)}")
        print(f"  Tensor.softmax   {Tensor(x).softmax(-1).data}")
