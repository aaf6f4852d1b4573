"""minigpt_course.checks.broadcast_matmul passes a right broadcast_shapes and names what is wrong with wrong ones."""

import numpy as np
import pytest

from minigpt_course.checks.broadcast_matmul import PAIRS, check_broadcast_shapes


def padded(a, b, left=True):
    n = max(len(a), len(b))
    if left:
        return (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    return tuple(a) + (1,) * (n - len(a)), tuple(b) + (1,) * (n - len(b))


def right(a, b):
    out = []
    for x, y in zip(*padded(a, b)):
        if x != y and 1 not in (x, y):
            raise ValueError(f"{x} and {y}")
        out.append(max(x, y))
    return tuple(out)


def aligned_left(a, b):
    out = []
    for x, y in zip(*padded(a, b, left=False)):
        if x != y and 1 not in (x, y):
            raise ValueError(f"{x} and {y}")
        out.append(max(x, y))
    return tuple(out)


def test_the_pairs_cover_shapes_that_broadcast_and_shapes_that_do_not():
    outcomes = []
    for a, b in PAIRS:
        try:
            outcomes.append(right(a, b) == np.broadcast_shapes(a, b))
        except ValueError:
            with pytest.raises(ValueError):
                np.broadcast_shapes(a, b)
            outcomes.append("error")
    assert outcomes.count(True) >= 5 and outcomes.count("error") >= 2 and False not in outcomes


@pytest.mark.parametrize("answer", [right, np.broadcast_shapes, lambda a, b: list(right(a, b)),
                                    lambda a, b: np.array(right(a, b))])
def test_right_answers_pass(answer):
    report = str(check_broadcast_shapes(answer))
    assert report.split(":")[1].strip().startswith("passed"), report


@pytest.mark.parametrize("answer, says", [
    (aligned_left, "aligning the shapes at the left"),
    (lambda a, b: tuple(max(x, y) for x, y in zip(*padded(a, b))), "do not broadcast: raise ValueError"),
    (lambda a, b: tuple(min(x, y) for x, y in zip(*padded(a, b))), "keep the larger one"),
    (lambda a, b: None, "is a `return` missing?"),
    (lambda a, b: "(2, 3, 4)", "expected a tuple of ints"),
])
def test_a_wrong_answer_is_not_yet_with_the_pair_expected_got_and_the_mistake(answer, says):
    report = str(check_broadcast_shapes(answer))
    assert ": not yet\n" in report and says in report, report


def test_raising_on_shapes_that_broadcast_is_reported_with_the_readers_message():
    def always_raises(a, b):
        raise ValueError("my own message")

    report = str(check_broadcast_shapes(always_raises))
    assert "expected (2, 3, 4), got ValueError: my own message" in report, report


def test_errors_other_than_valueerror_are_reported_at_the_readers_line():
    def broken(a, b):
        return a[7]

    report = str(check_broadcast_shapes(broken))
    assert report.startswith("broken: not yet\n  expected broken(a, b) -> the broadcast shape"), report
    assert "got      IndexError" in report and "return a[7]" in report, report
