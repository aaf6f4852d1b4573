import numpy as np

from minigpt_course.checks.softmax_cross_entropy import check_logsumexp


def my_logsumexp(x, dim):
    m = x.max(axis=dim, keepdims=True)  # keepdims: m broadcasts against x
    return (m + np.log(np.exp(x - m).sum(axis=dim, keepdims=True))).squeeze(axis=dim)  # m + log sum e^(x - m)


print(check_logsumexp(my_logsumexp))
