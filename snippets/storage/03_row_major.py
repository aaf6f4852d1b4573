import itertools

import numpy as np

from strided import contiguous_strides, flat_offset

shape = (2, 3, 4)  # (B, T, C)
strides = contiguous_strides(shape)
print("shape", shape, "strides", strides, "= (3*4, 4, 1)")
order = sorted(itertools.product(*map(range, shape)), key=lambda idx: flat_offset(idx, strides))
print("buffer positions 0..5 hold", order[:6])
print("position 12 holds", order[12], "(one step along dim 0 skips 12)")

for name in ("C", "F"):  # row-major (C) or column-major (Fortran)
    a = np.zeros(shape, dtype=np.float32, order=name)
    print(f"numpy order={name!r}: strides in elements {tuple(s // a.itemsize for s in a.strides)}")
for s in [(5,), (3, 1, 2), (2, 3, 2, 4), (64, 64)]:
    print(f"contiguous_strides({s}) = {contiguous_strides(s)}")
