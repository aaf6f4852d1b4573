import runpy
from pathlib import Path

import numpy as np

import broadcast


def sums_leading_dims_only(g, shape):  # bug: forgets the size-1 dims that were stretched
    return g.sum(axis=tuple(range(g.ndim - len(shape))))


def drops_the_size_1_dims(g, shape):  # bug: sums them without keepdims
    g = g.sum(axis=tuple(range(g.ndim - len(shape))))
    return g.sum(axis=tuple(i for i, n in enumerate(shape) if n == 1 and g.shape[i] != 1))


right = broadcast.unbroadcast
for bug in (sums_leading_dims_only, drops_the_size_1_dims):
    broadcast.unbroadcast = bug
    print(f"--- {bug.__name__}")
    runpy.run_path(str(Path(__file__).with_name("09_unbroadcast.py")))  # the lesson's own comparison
broadcast.unbroadcast = right

g = np.ones((2, 3, 4))
wrong, want = drops_the_size_1_dims(g, (1, 3, 4)), right(g, (1, 3, 4))  # (3, 4) and (1, 3, 4)
print(f"np.allclose alone, {wrong.shape} against {want.shape}:", np.allclose(wrong, want))
