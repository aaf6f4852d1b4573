"""minigpt_course.checks.multi_head: a starter fails its check, the answer passes it, and every report says expected vs got."""

import contextlib
import io
import runpy
from pathlib import Path

import pytest

from minigpt_course.checks.multi_head import check_split_heads
from minigpt.gpt import split_heads
from minigpt.tensor import Tensor

LESSON = Path(__file__).resolve().parents[1] / "snippets" / "multi-head"


def _functions(script: str) -> dict:
    """The names a lesson script defines (its prints are swallowed here, not its errors)."""
    with contextlib.redirect_stdout(io.StringIO()):
        return runpy.run_path(str(LESSON / script))


def test_the_starter_fails_its_check_with_expected_vs_got():
    report = str(check_split_heads(_functions("13_ex_split_heads.py")["my_split_heads"]))
    assert report.startswith("my_split_heads: not yet")
    assert "expected (B, nh, T, hs) = (2, 3, 3, 4), got (2, 3, 12)" in report


def test_the_answer_passes_and_the_reshape_only_mistake_does_not():
    names = _functions("14_answer_split_heads.py")
    assert str(check_split_heads(names["my_split_heads"])).startswith("my_split_heads: passed")
    report = str(check_split_heads(names["reshape_only"]))
    assert report.startswith("reshape_only: not yet")
    assert "expected [100, 101, 102, 103] = token 1 of sequence 0, channels 0..3" in report
    assert "got      [4, 5, 6, 7] = token 0 of sequence 0, channels 4..7" in report


def test_the_library_function_passes():
    assert str(check_split_heads(split_heads)).startswith("split_heads: passed")


@pytest.mark.parametrize("error", [ValueError("reshape: cannot reshape"), NotImplementedError("todo"),
                                   AttributeError("no attribute 'view'")])
def test_errors_raised_by_the_readers_code_are_expected_vs_got(error):
    def broken(x, n_head):
        raise error

    report = str(check_split_heads(broken))
    assert report.startswith("broken: not yet\n  expected broken(x, n_head): x (B, T, C) -> (B, nh, T, hs)"), report
    assert f"got      {type(error).__name__}: {error}" in report and "raise error" in report, report


def test_a_numpy_array_instead_of_a_tensor_is_named():
    report = str(check_split_heads(lambda x, n_head: split_heads(x, n_head).data))
    assert report == "<lambda>: not yet\n  expected a Tensor, got ndarray"


def test_numbers_that_did_not_come_from_x_are_called_so():
    def scaled(x, n_head):
        return split_heads(x, n_head) * 0.5

    report = str(check_split_heads(scaled))
    assert "expected [0, 1, 2, 3] = token 0 of sequence 0, channels 0..3" in report
    assert "got      [0, 0.5, 1, 1.5] = numbers that are not in x" in report


def test_values_from_the_wrong_places_are_listed():
    def swapped(x, n_head):
        y = split_heads(x, n_head).data.copy()
        y[0, 0, 0, :2] = y[0, 0, 0, 1::-1]  # channels 1, 0 instead of 0, 1
        return Tensor(y)

    report = str(check_split_heads(swapped))
    assert "got      [1, 0, 2, 3] = (seq 0, token 0, ch 1), (seq 0, token 0, ch 0)" in report
