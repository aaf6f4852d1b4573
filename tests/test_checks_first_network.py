"""The check of lesson 0's exercise passes a right gradient by nudging and names the usual wrong ones."""

import contextlib
import io
import runpy
from pathlib import Path

import numpy as np
import pytest

from minigpt_course.checks.first_network import check_grad_by_nudging

LESSON = Path(__file__).resolve().parents[1] / "snippets" / "first-network"


def _functions(script: str) -> dict:
    with contextlib.redirect_stdout(io.StringIO()):
        return runpy.run_path(str(LESSON / script))


def right(f, theta, h=1e-6):
    base, grad = f(theta), np.zeros_like(theta)
    for i in range(theta.size):
        old = theta[i]
        theta[i] = old + h
        grad[i] = (f(theta) - base) / h
        theta[i] = old
    return grad


def central(f, theta, h=1e-5):
    grad = np.zeros_like(theta)
    for i in range(theta.size):
        e = np.zeros_like(theta)
        e[i] = h
        grad[i] = (f(theta + e) - f(theta - e)) / (2 * h)
    return grad


def test_the_starter_fails_with_expected_vs_got():
    report = str(check_grad_by_nudging(_functions("07_ex_nudge.py")["grad_by_nudging"]))
    assert report.startswith("grad_by_nudging: not yet")
    assert "expected [-6.5791, -2.2350]" in report and "got      [0.0000, 0.0000]" in report


def test_the_answer_and_other_right_ways_pass():
    names = _functions("08_answer_nudge.py")
    for fn in (names["grad_by_nudging"], right, central):
        assert "every check passed" in str(check_grad_by_nudging(fn)), fn


def test_nudges_that_pile_up_are_named():
    report = str(check_grad_by_nudging(_functions("08_answer_nudge.py")["piled_up"]))
    assert "got      [-6.5791, -8.8141]" in report and "the nudges pile up" in report


def test_theta_left_nudged_is_named():
    def no_reset(f, theta, h=1e-6):
        base, grad = f(theta), np.zeros_like(theta)
        for i in range(theta.size):
            theta[i] += h
            grad[i] = (f(theta) - base) / h
        return grad

    report = str(check_grad_by_nudging(no_reset))
    assert "put each entry back after nudging it" in report, report
    assert "theta ended [0.000001, 0.000001] away from where it started" in report, report  # not "left as [0, 0]"


@pytest.mark.parametrize("scale, words", [(1e-6, "not yet divided by h"), (-1.0, "the sign is flipped")])
def test_a_missing_division_and_a_flipped_sign_are_named(scale, words):
    def wrong(f, theta):
        return scale * right(f, theta)

    assert words in str(check_grad_by_nudging(wrong))


def test_too_large_a_nudge_is_called_close():
    report = str(check_grad_by_nudging(lambda f, theta: right(f, theta, h=1e-2)))
    assert "not yet" in report and "make h smaller" in report


def test_the_readers_exception_is_reported_with_its_line_and_what_was_expected():
    def broken(f, theta):
        return [f(theta[i]) for i in range(theta.size)]  # f wants the whole vector

    report = str(check_grad_by_nudging(broken))
    assert report.startswith("broken: not yet")
    assert "expected [-6.5791, -2.2350]" in report
    assert "got      IndexError" in report and "test_checks_first_network.py" in report


@pytest.mark.parametrize("result, words", [(None, "got      None"), (np.zeros(3), "shape (3,)"),
                                           ("abc", "not an array of numbers")])
def test_returns_of_the_wrong_kind_are_named(result, words):
    assert words in str(check_grad_by_nudging(lambda f, theta: result))
