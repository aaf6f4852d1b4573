import numpy as np

from minigpt_course.checks.causal_mask import check_causal_mask


def my_causal_mask(T):
    return np.triu(np.ones((T, T), dtype=bool), k=1)  # (T, T): j > i


def may_look(T):
    return np.tril(np.ones((T, T), dtype=bool))  # (T, T): j <= i


print(check_causal_mask(my_causal_mask))
print(check_causal_mask(may_look))
