"""The checks of lesson 3's exercises pass the right function and fail named wrong ones, in the reader's terms."""

import numpy as np
import pytest

from minigpt_course.checks.softmax_cross_entropy import check_cross_entropy_grad


def softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def grad(x, t):
    g = softmax(x)
    g[np.arange(len(t)), t] -= 1.0
    return g / len(t)


def softmax_only(x, t):  # the exercise's starter
    return softmax(x)


def no_mean(x, t):
    return grad(x, t) * len(t)


def flipped(x, t):
    return -grad(x, t)


def naive_exp(x, t):
    e = np.exp(x)
    g = e / e.sum(axis=1, keepdims=True)
    g[np.arange(len(t)), t] -= 1.0
    return g / len(t)


def transposed(x, t):
    return grad(x, t).T


@pytest.mark.parametrize("fn, says", [
    (softmax_only, ["row 0 (target 1)", "expected [0.0094, -0.2477, 0.0028, 0, 0.2355]", "row 0 of yours sums to 1"]),
    (no_mean, ["4 times too large", "divide by N"]),
    (flipped, ["the sign is flipped"]),
    (naive_exp, ["large logits", "got      [nan", "max trick"]),
    (transposed, ["expected a gradient of shape (N, V) = (4, 5), got (5, 4)"]),
])
def test_check_cross_entropy_grad_names_what_is_wrong(fn, says):
    report = str(check_cross_entropy_grad(fn))
    assert report.startswith(f"{fn.__name__}: not yet\n")
    for s in says:
        assert s in report, report


def test_check_cross_entropy_grad_passes_the_right_one_and_reports_the_readers_error():
    assert str(check_cross_entropy_grad(grad)) == "grad: passed (2 cases, logits of 1000 included)"
    report = str(check_cross_entropy_grad(lambda x, t: undefined_name))  # noqa: F821
    assert report.startswith("<lambda>: not yet\n  expected <lambda>(logits, targets) -> d loss / d logits"), report
    assert "got      NameError: name 'undefined_name' is not defined" in report, report
