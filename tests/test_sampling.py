"""minigpt.sampling.sample: greedy, temperature, top-k and top-p, and its argument checks."""

import numpy as np
import pytest

from minigpt.sampling import check_stop, sample

PROBS = np.array([0.05, 0.5, 0.15, 0.3])


def draws(n=4000, **kwargs) -> set[int]:
    logits = np.log(np.tile(PROBS, (n, 1)))  # (n, 4): n rows of the same distribution
    return set(sample(logits, rng=np.random.default_rng(0), **kwargs).tolist())


def test_top_k_and_top_p_keep_exactly_the_tokens_they_promise():
    assert draws() == {0, 1, 2, 3}
    assert draws(top_k=3) == {1, 2, 3}
    assert draws(top_p=0.7) == {1, 3}  # 0.5 + 0.3 reaches 0.7; the rest is cut
    assert draws(top_p=0.5) == {1}  # the top token alone reaches 0.5
    assert draws(top_k=2, top_p=0.99) == {1, 3}
    assert draws(temperature=0) == {1}


def test_frequencies_follow_the_probabilities_and_temperature_sharpens_them():
    logits = np.log(np.tile(PROBS, (20000, 1)))
    counts = np.bincount(sample(logits, rng=np.random.default_rng(1)), minlength=4) / 20000
    np.testing.assert_allclose(counts, PROBS, atol=0.01)
    cold = np.bincount(sample(logits, temperature=0.5, rng=np.random.default_rng(1)), minlength=4) / 20000
    np.testing.assert_allclose(cold, PROBS**2 / (PROBS**2).sum(), atol=0.01)  # p^(1/T), T = 1/2


def test_same_rng_same_tokens_and_huge_logits_are_fine():
    logits = np.random.default_rng(2).standard_normal((5, 50)) * 1000
    a = sample(logits, rng=np.random.default_rng(3))
    b = sample(logits, rng=np.random.default_rng(3))
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(sample(logits, temperature=1e-3, rng=np.random.default_rng(3)), logits.argmax(-1))


@pytest.mark.parametrize("kwargs, message", [
    ({"temperature": -1.0}, "temperature must be a number >= 0"),
    ({"top_k": 0}, "top_k must be a positive integer"),
    ({"top_p": 0.0}, r"top_p must be in \(0, 1\]"),
    ({"top_p": 1.5}, r"top_p must be in \(0, 1\]"),
])
def test_bad_settings_name_the_argument(kwargs, message):
    with pytest.raises(ValueError, match=message):
        sample(np.zeros((1, 3)), **kwargs)


def test_stop_ids_are_checked():
    assert check_stop(None, 10) == set() and check_stop(3, 10) == {3} and check_stop([1, 2], 10) == {1, 2}
    with pytest.raises(ValueError, match=r"stop ids must be integers in \[0, 10\)"):
        check_stop(10, 10)
    with pytest.raises(TypeError, match="stop must be"):
        check_stop("x", 10)
