import numpy as np

from minigpt_course.checks.storage import check_contiguous_strides


def my_contiguous_strides(shape):
    strides, step = [], 1
    for size in reversed(shape):  # the last dim first: it moves by 1
        strides.append(step)
        step *= size
    return tuple(reversed(strides))


def first_dim_fastest(shape):  # walks the dims in the wrong order
    strides, step = [], 1
    for size in shape:
        strides.append(step)
        step *= size
    return tuple(strides)


def numpy_bytes(shape):  # numpy's .strides, not divided by the itemsize
    return np.zeros(shape).strides


for fn in (my_contiguous_strides, first_dim_fastest, numpy_bytes):
    print(check_contiguous_strides(fn))
