import numpy as np

from minigpt_course.checks.first_network import check_grad_by_nudging


def grad_by_nudging(f, theta, h=1e-6):
    """dL/dtheta[i] for every i: nudge theta[i] alone by h, see how f changes."""
    grad = np.zeros_like(theta)  # (n,) one partial derivative per entry
    # grad[i] = (f(theta with theta[i] + h) - f(theta)) / h
    return grad


print(check_grad_by_nudging(grad_by_nudging))
