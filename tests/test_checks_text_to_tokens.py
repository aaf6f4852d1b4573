"""The check of lesson 5's exercise passes the library's get_batch and names the usual wrong ones."""

import numpy as np
import pytest

from minigpt_course.checks.text_to_tokens import check_get_batch
from minigpt.data import Corpus
from minigpt.tokenizer import CharTokenizer


def library(data, batch_size, block_size, rng):
    """Corpus.get_batch itself, under the exercise's signature."""
    corpus = Corpus(np.asarray(data), np.asarray(data), CharTokenizer("ab"), "labelled")
    return corpus.get_batch("train", batch_size, block_size, rng)


def windows(data, batch_size, block_size, rng, shift=1, high_less=0):
    ix = rng.integers(0, len(data) - block_size - high_less, size=batch_size)
    pos = ix[:, None] + np.arange(block_size)
    return data[pos], data[pos + shift]


def test_the_library_passes():
    assert str(check_get_batch(library)).startswith("library: passed (x, y of shape (4, 8)")


@pytest.mark.parametrize("fn, needles", [
    (lambda d, b, t, r: windows(d, b, t, r, shift=0), ["y[0]: expected positions", "= x itself"]),
    (lambda d, b, t, r: windows(d, b, t, r, shift=2), ["y[0]: expected positions", "got positions"]),
    (lambda d, b, t, r: windows(d, b, t, r, high_less=1), ["no window started at position 31"]),
    (lambda d, b, t, r: windows(d, b, t, r)[0], ["expected a pair (x, y)"]),
    (lambda d, b, t, r: (windows(d, b, t, r)[0].T, windows(d, b, t, r)[1]), ["x: expected an integer array of shape (B, T) = (4, 8)"]),
    (lambda d, b, t, r: (windows(d, b, t, r)[0].astype(float), windows(d, b, t, r)[1]), ["dtype float64"]),
    (lambda d, b, t, r: (d[r.integers(0, 30, size=(b, t))], d[:b * t].reshape(b, t)), ["x[0] should be T = 8 consecutive tokens"]),
], ids=["not shifted", "shifted by two", "last window never", "one array", "transposed", "floats", "scattered"])
def test_usual_mistakes_are_named(fn, needles):
    report = str(check_get_batch(fn))
    assert report.startswith("<lambda>: not yet\n"), report
    for needle in needles:
        assert needle in report, report


def test_errors_of_the_readers_code_are_expected_vs_got():
    def broken(data, batch_size, block_size, rng):
        return data[np.arange(block_size) + len(data)], None

    report = str(check_get_batch(broken))
    assert report.startswith("broken: not yet\n  expected broken(data, batch_size, block_size, rng) -> (x, y)"), report
    assert "got      IndexError" in report and "return data[np.arange" in report, report
