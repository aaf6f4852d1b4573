"""The check of lesson 21's exercise passes a right perplexity and names the usual mistakes."""

import numpy as np

from minigpt_course.checks.inspection import check_perplexity


def right(logits, targets):
    z = logits - logits.max(-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(-1, keepdims=True))
    return float(np.exp(-np.take_along_axis(logp, targets[..., None], -1).mean()))


def test_a_right_perplexity_passes():
    assert str(check_perplexity(right)).startswith("right: passed")


def test_base_two_is_named():
    def base_two(logits, targets):
        return 2 ** np.log(right(logits, targets))
    report = str(check_perplexity(base_two))
    assert "not yet" in report and "nats" in report


def test_the_mean_loss_is_named_and_an_error_is_reported():
    def mean_loss(logits, targets):
        return np.log(right(logits, targets))
    assert "perplexity is exp of it" in str(check_perplexity(mean_loss))

    def broken(logits, targets):
        raise IndexError("oops")
    report = str(check_perplexity(broken))
    assert "not yet" in report and "IndexError: oops" in report
