"""The check of lesson 6's exercise passes right smoothing and names the usual wrong ones."""

import numpy as np
import torch

from minigpt_course.checks import bigram as checks
from minigpt_course.checks.bigram import check_smoothed


def right(counts, alpha):
    return (counts + alpha) / (counts.sum(axis=1, keepdims=True) + alpha * counts.shape[1])


def test_the_expected_rows_are_torchs_softmax_of_log_smoothed_counts():
    for alpha in checks.ALPHAS:
        ref = torch.softmax(torch.log(torch.tensor(checks.COUNTS, dtype=torch.float64) + alpha), dim=1)
        np.testing.assert_allclose(checks._right(checks.COUNTS, alpha), ref.numpy(), rtol=1e-12)


def test_right_smoothing_passes():
    assert str(check_smoothed(right)).startswith("right: passed")


def test_alpha_added_once_is_named():
    def once(counts, alpha):
        return (counts + alpha) / (counts.sum(axis=1, keepdims=True) + alpha)

    report = str(check_smoothed(once))
    assert report.startswith("once: not yet\n  alpha=1.0, row 'a'")
    assert "expected" in report and "got" in report and "alpha * V" in report


def test_columns_and_a_forgotten_alpha_are_named():
    def columns(counts, alpha):
        return (counts + alpha) / (counts.sum(axis=0, keepdims=True) + alpha * counts.shape[0])

    def no_alpha(counts, alpha):
        return counts / np.maximum(counts.sum(axis=1, keepdims=True), 1)

    assert "normalises columns" in str(check_smoothed(columns))
    assert "alpha was not added" in str(check_smoothed(no_alpha))


def test_a_wrong_shape_is_told_so():
    assert "expected shape (4, 4), got (4,)" in str(check_smoothed(lambda counts, alpha: counts.sum(axis=1)))
