import numpy as np

from minigpt_course.checks.first_network import check_grad_by_nudging


def grad_by_nudging(f, theta, h=1e-6):
    base = f(theta)
    grad = np.zeros_like(theta)  # (n,)
    for i in range(theta.size):
        theta[i] += h
        grad[i] = (f(theta) - base) / h  # dL/dtheta[i]
        theta[i] -= h  # put it back before nudging the next one
    return grad


def piled_up(f, theta, h=1e-6):  # the classic slip: nudges are never undone
    t, base, grad = theta.copy(), f(theta), np.zeros_like(theta)
    for i in range(t.size):
        t[i] += h
        grad[i] = (f(t) - base) / h
    return grad


print(check_grad_by_nudging(grad_by_nudging))
print(check_grad_by_nudging(piled_up))
