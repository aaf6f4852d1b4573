import numpy as np  # noqa: F401  (np.argsort, np.cumsum, np.take_along_axis, np.put_along_axis)

from minigpt_course.checks.sampling import check_top_p


def my_top_p(probs, top_p):
    # probs (B, V), each row sums to 1. In each row keep the smallest set of most likely tokens whose
    # probability reaches top_p, set the others to 0, divide the kept ones by their sum; leave probs as it is
    return probs


print(check_top_p(my_top_p))
