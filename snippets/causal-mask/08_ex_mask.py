import numpy as np

from minigpt_course.checks.causal_mask import check_causal_mask


def my_causal_mask(T):
    # (T, T) bool: True at [i, j] when j > i
    return np.zeros((T, T), dtype=bool)


print(check_causal_mask(my_causal_mask))
