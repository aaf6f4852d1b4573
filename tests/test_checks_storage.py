"""minigpt_course.checks.storage passes right row-major strides and names what is wrong with wrong ones."""

import math

import numpy as np
import pytest
import torch

from minigpt_course.checks.storage import SHAPES, check_contiguous_strides


def row_major(shape):
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= size
    return tuple(reversed(strides))


def column_major(shape):
    strides, step = [], 1
    for size in shape:
        strides.append(step)
        step *= size
    return tuple(strides)


def test_its_reference_is_numpys_and_torchs_strides():
    for shape in SHAPES:
        a = np.zeros(shape, dtype=np.float32)
        assert row_major(shape) == tuple(s // a.itemsize for s in a.strides) == torch.zeros(shape).stride()


@pytest.mark.parametrize("answer", [row_major, lambda s: list(row_major(s)), lambda s: np.array(row_major(s), int)])
def test_right_strides_pass_as_a_tuple_a_list_or_an_integer_array(answer):
    report = str(check_contiguous_strides(answer))
    assert report.split(":")[1].strip().startswith("passed"), report


@pytest.mark.parametrize("answer, says", [
    (column_major, "column-major"),
    (lambda s: tuple(reversed(row_major(s))), "reverse order"),
    (lambda s: tuple(8 * x for x in row_major(s)), "bytes for 8-byte elements"),
    (lambda s: tuple(4 * x for x in row_major(s)), "bytes for 4-byte elements"),
    (lambda s: tuple(math.prod(s[d:]) for d in range(len(s))), "the product of the sizes after dim d"),
    (lambda s: row_major(s) + (1,), "one stride per dim"),
    (lambda s: None, "is a `return` missing?"),
    (lambda s: tuple(float(x) for x in row_major(s)), "expected a tuple of ints"),
    (lambda s: 12, "expected a tuple of ints"),
])
def test_a_wrong_answer_is_not_yet_with_the_shape_expected_got_and_the_mistake(answer, says):
    report = str(check_contiguous_strides(answer))
    assert ": not yet\n" in report and "expected (12, 4, 1)" in report and says in report, report


def test_the_first_wrong_shape_is_reported_even_late_in_the_list():
    def wrong_for_scalars(shape):
        return row_major(shape) if shape else (1,)

    report = str(check_contiguous_strides(wrong_for_scalars))
    assert "wrong_for_scalars(()): expected (), got (1,)" in report, report


def test_errors_of_the_readers_function_are_reported_at_their_line():
    def broken(shape):
        return shape[5]

    report = str(check_contiguous_strides(broken))
    assert report.startswith("broken: not yet\n  expected broken(shape) -> row-major strides"), report
    assert "got      IndexError: tuple index out of range" in report and "return shape[5]" in report, report
