import numpy as np

from minigpt_course.checks.bigram import check_smoothed


def smoothed(counts: np.ndarray, alpha: float) -> np.ndarray:
    """(V, V) counts -> (V, V) P(b | a), alpha added to every cell; rows sum to 1."""
    total = counts.sum(axis=1, keepdims=True) + alpha  # (V, 1)
    return (counts + alpha) / total  # (V, V) / (V, 1)


print(check_smoothed(smoothed))
