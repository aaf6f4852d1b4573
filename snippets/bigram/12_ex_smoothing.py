import numpy as np

from minigpt.checks.bigram import check_smoothed


def smoothed(counts: np.ndarray, alpha: float) -> np.ndarray:
    """(V, V) counts -> (V, V) P(b | a) with alpha added to every cell; every row sums to 1."""
    return (counts + alpha) / (counts.sum(axis=1, keepdims=True) + alpha)  # (V, V) / (V, 1)


print(check_smoothed(smoothed))
