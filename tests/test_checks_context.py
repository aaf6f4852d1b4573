"""The check of lesson 7's exercise passes the right concatenation and names the usual wrong ones."""

import numpy as np

from minigpt_course.checks.context import check_concat_window
from minigpt.tensor import Tensor


def right(e):
    B, k, d = e.shape
    return e.reshape(B, k * d)


def summed(e):
    return e.sum(1)


def interleaved(e):
    B, k, d = e.shape
    return e.permute(0, 2, 1).reshape(B, k * d)


def backwards(e):
    B, k, d = e.shape
    return Tensor(e.data[:, ::-1].reshape(B, k * d).copy())


def numpy_only(e):
    B, k, d = e.shape
    return Tensor(e.data.reshape(B, k * d))


def as_array(e):
    return e.data.reshape(e.shape[0], -1)


def test_the_right_concatenation_passes():
    assert str(check_concat_window(right)).startswith("right: passed")


def test_each_mistake_is_named_in_the_readers_terms():
    assert "order of the k tokens is lost" in str(check_concat_window(summed))
    assert "e.permute(0, 2, 1) flattened" in str(check_concat_window(interleaved))
    assert "the window is reversed" in str(check_concat_window(backwards))
    assert "gradient does not reach e" in str(check_concat_window(numpy_only))
    assert "expected a Tensor" in str(check_concat_window(as_array))


def test_a_misplaced_slice_says_where_it_came_from():
    report = str(check_concat_window(interleaved))
    assert "expected [0, 1, 2, 3] = e[0, 0], the vector of window position 0" in report
    assert "got      [0, 10, 20, 1]" in report


def test_errors_raised_by_the_readers_code_are_expected_vs_got():
    def broken(e):
        raise ZeroDivisionError("mine")

    report = str(check_concat_window(broken))
    assert report.startswith("broken: not yet\n  expected broken(e): e (B, k, d) -> x (B, k*d)"), report
    assert "got      ZeroDivisionError: mine (line" in report and "of test_checks_context.py: raise ZeroDivisionError" in report, report
