import numpy as np

from minigpt_course.checks.softmax_cross_entropy import check_logsumexp


def my_logsumexp(x, dim):
    return np.log(np.exp(x).sum(axis=dim))  # log sum_i e^(x_i)


print(check_logsumexp(my_logsumexp))
