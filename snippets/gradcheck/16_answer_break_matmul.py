import numpy as np

from gradcheck import gradcheck
from tensor import Tensor


def matmul_bug(self, other):  # dA = dC @ B  (right: dC @ B^T)
    def _backward(g):
        self._accumulate(g @ other.data)
        other._accumulate(np.swapaxes(self.data, -1, -2) @ g)

    return Tensor._make(self.data @ other.data, (self, other), _backward, "@")


Tensor.__matmul__ = matmul_bug
rng = np.random.default_rng(0)
for a_shape, b_shape in [((3, 4), (4, 5)), ((3, 4), (4, 4))]:
    a, b = rng.standard_normal(a_shape), rng.standard_normal(b_shape)
    try:
        gradcheck(lambda a, b: (a @ b).tanh().sum(), a, b)
        print(f"{a_shape} @ {b_shape}: gradcheck passed")
    except ValueError as e:  # g (3, 5) @ B (4, 5)
        print(f"{a_shape} @ {b_shape}: ValueError: {e}")
    except AssertionError as e:
        print(f"{a_shape} @ {b_shape}: gradcheck: {e}")
