import numpy as np

from minigpt_course.checks.sampling import check_top_p


def my_top_p(probs, top_p):
    order = np.argsort(-probs, axis=-1, kind="stable")  # (B, V) most likely first
    ranked = np.take_along_axis(probs, order, axis=-1)
    before = np.cumsum(ranked, axis=-1) - ranked  # the probability of the tokens ranked above
    keep = np.zeros_like(probs, dtype=bool)
    np.put_along_axis(keep, order, before < top_p, axis=-1)  # the top token: before = 0, always kept
    kept = np.where(keep, probs, 0.0)  # a new array: probs stays as it was
    return kept / kept.sum(axis=-1, keepdims=True)


def drops_the_crossing_token(probs, top_p):
    order = np.argsort(-probs, axis=-1, kind="stable")
    ranked = np.take_along_axis(probs, order, axis=-1)
    keep = np.zeros_like(probs, dtype=bool)
    np.put_along_axis(keep, order, np.cumsum(ranked, axis=-1) <= top_p, axis=-1)
    kept = np.where(keep, probs, 0.0)
    return kept / kept.sum(axis=-1, keepdims=True)


print(check_top_p(my_top_p))
print(check_top_p(drops_the_crossing_token))
