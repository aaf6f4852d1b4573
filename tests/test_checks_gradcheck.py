"""minigpt_course.checks.gradcheck passes a right central difference and names what is wrong with wrong ones."""

import numpy as np
import pytest

from minigpt_course.checks.gradcheck import check_numerical_grad


def central(f, x, eps=1e-6):
    grad = np.zeros(x.shape)
    for i in np.ndindex(x.shape):
        old = x[i]
        x[i] = old + eps
        up = f(x)
        x[i] = old - eps
        down = f(x)
        x[i] = old
        grad[i] = (up - down) / (2 * eps)
    return grad


def forward(f, x, eps=1e-6):
    grad, fx = np.zeros(x.shape), f(x)
    for i in np.ndindex(x.shape):
        old = x[i]
        x[i] = old + eps
        grad[i] = (f(x) - fx) / eps
        x[i] = old
    return grad


def backward(f, x, eps=1e-6):
    grad, fx = np.zeros(x.shape), f(x)
    for i in np.ndindex(x.shape):
        old = x[i]
        x[i] = old - eps
        grad[i] = (fx - f(x)) / eps
        x[i] = old
    return grad


def no_half(f, x, eps=1e-6):  # divides by eps, not 2 eps
    return central(f, x, eps) * 2


def not_restored(f, x, eps=1e-6):
    grad = np.zeros(x.shape)
    for i in np.ndindex(x.shape):
        old = x[i]
        x[i] = old + eps
        up = f(x)
        x[i] = old - eps
        grad[i] = (up - f(x)) / (2 * eps)
    return grad


def flat(f, x, eps=1e-6):
    return central(f, x, eps).ravel()


def fixed_eps(f, x, eps=1e-6):  # ignores the eps it is given
    return central(f, x, 1e-6)


def zeros(f, x, eps=1e-6):  # the starter as the page shows it
    return np.zeros(x.shape)


def test_the_right_function_passes():
    assert str(check_numerical_grad(central)).startswith("central: passed")


@pytest.mark.parametrize("fn, says", [
    (zeros, "got      [0, 0, 0]"),
    (forward, "a forward difference"),
    (backward, "a backward difference"),
    (no_half, "divide by 2 eps"),
    (not_restored, "put every element back"),
    (flat, "got shape (6,)"),
    (fixed_eps, "use the eps you are given"),
])
def test_a_wrong_function_is_named_with_what_was_expected_and_what_came_back(fn, says):
    report = str(check_numerical_grad(fn))
    assert report.startswith(f"{fn.__name__}: not yet"), report
    assert says in report, report


def test_the_readers_own_errors_are_not_swallowed():
    def unfinished(f, x, eps=1e-6):
        raise NotImplementedError("my bug")

    report = str(check_numerical_grad(unfinished))
    assert report.startswith("unfinished: not yet\n  expected unfinished(f, x, eps) -> "), report
    assert "got      NotImplementedError: my bug (line" in report and "of test_checks_gradcheck.py:" in report, report
