"""The check of lesson 16's exercise passes a right top-p filter, agrees with what sample() draws from, and
names the usual wrong filters, the reader's own errors included."""

import numpy as np
import pytest

from minigpt_course.checks.sampling import CASES, check_top_p, reference
from minigpt.sampling import sample


def right(probs, top_p):
    order = np.argsort(-probs, axis=-1, kind="stable")
    ranked = np.take_along_axis(probs, order, axis=-1)
    before = np.cumsum(ranked, axis=-1) - ranked
    keep = np.zeros_like(probs, dtype=bool)
    np.put_along_axis(keep, order, before < top_p, axis=-1)
    kept = np.where(keep, probs, 0.0)
    return kept / kept.sum(axis=-1, keepdims=True)


def test_a_right_filter_passes():
    assert str(check_top_p(right)).startswith("right: passed")


@pytest.mark.parametrize("what,rows,top_p", CASES, ids=[c[0].render("en") for c in CASES])
def test_the_reference_is_what_sample_draws_from(what, rows, top_p):
    probs = np.array(rows, dtype=np.float64)
    want = reference(probs, top_p)
    for b, row in enumerate(probs):
        with np.errstate(divide="ignore"):
            logits = np.log(np.tile(row, (40_000, 1)))  # (N, V)
        drawn = sample(logits, temperature=1.0, top_p=top_p, rng=np.random.default_rng(b))
        freq = np.bincount(drawn, minlength=len(row)) / len(drawn)
        assert np.abs(freq - want[b]).max() < 0.01, (what, freq, want[b])


def test_dropping_the_crossing_token_is_named():
    def crossing(probs, top_p):
        order = np.argsort(-probs, axis=-1)
        ranked = np.take_along_axis(probs, order, axis=-1)
        keep = np.zeros_like(probs, dtype=bool)
        np.put_along_axis(keep, order, np.cumsum(ranked, axis=-1) <= top_p, axis=-1)
        kept = np.where(keep, probs, 0.0)
        return kept / kept.sum(axis=-1, keepdims=True)
    report = str(check_top_p(crossing))
    assert "not yet" in report and "crosses top_p" in report and "expected [[0.625, 0.375, 0, 0]]" in report


def test_no_renormalisation_is_named():
    def unnormalised(probs, top_p):
        return right(probs, top_p) * np.where(right(probs, top_p) > 0, probs, 0).sum(axis=-1, keepdims=True)
    assert "divide the kept probabilities by their sum" in str(check_top_p(unnormalised))


def test_no_sorting_is_named():
    def by_index(probs, top_p):
        before = np.cumsum(probs, axis=-1) - probs
        kept = np.where(before < top_p, probs, 0.0)
        return kept / kept.sum(axis=-1, keepdims=True)
    report = str(check_top_p(by_index))
    assert "the same probabilities out of order" in report and "rank the tokens by probability" in report


def test_strict_comparison_is_named():
    def strict(probs, top_p):
        order = np.argsort(-probs, axis=-1, kind="stable")
        ranked = np.take_along_axis(probs, order, axis=-1)
        keep = np.zeros_like(probs, dtype=bool)
        np.put_along_axis(keep, order, np.cumsum(ranked, axis=-1) - ranked <= top_p, axis=-1)
        kept = np.where(keep, probs, 0.0)
        return kept / kept.sum(axis=-1, keepdims=True)
    assert "with >=, not >" in str(check_top_p(strict))


def test_changing_the_input_is_named():
    def in_place(probs, top_p):
        probs[...] = right(probs, top_p)
        return probs
    assert "probs was changed" in str(check_top_p(in_place))


def test_the_readers_error_is_reported_with_its_line():
    def broken(probs, top_p):
        return probs[:, :: -1].cumsum(axis=2)
    report = str(check_top_p(broken))
    assert report.startswith("broken: not yet") and "AxisError" in report and "line " in report
    assert "expected [[0.625, 0.375, 0, 0]]" in report


def test_a_wrong_shape_and_none_are_named():
    assert "shape (4,)" in str(check_top_p(lambda probs, top_p: right(probs, top_p)[0]))
    assert "got      None" in str(check_top_p(lambda probs, top_p: None))


def test_the_starter_is_told_nothing_was_dropped():
    report = str(check_top_p(lambda probs, top_p: probs))
    assert "nothing was dropped" in report and "got      [[0.5, 0.3, 0.15, 0.05]]" in report
