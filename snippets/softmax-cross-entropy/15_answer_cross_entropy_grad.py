import numpy as np

from minigpt_course.checks.softmax_cross_entropy import check_cross_entropy_grad


def my_cross_entropy_grad(logits, targets):
    N, V = logits.shape
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p = p / p.sum(axis=1, keepdims=True)  # (N, V) softmax
    p[np.arange(N), targets] -= 1.0  # softmax - one_hot
    return p / N  # the loss is a mean over N rows


print(check_cross_entropy_grad(my_cross_entropy_grad))
