"""minigpt_course.checks.show: the one way every exercise check writes numbers in its reports."""

import numpy as np

from minigpt_course.checks import show


def test_show_writes_numbers_as_a_reader_does():
    assert show([-2.0, -0.5, 0.0, 0.5, 1.5]) == "[-2, -0.5, 0, 0.5, 1.5]"  # whole numbers as integers
    assert show(np.tanh([0.1, 2.0])) == "[0.09967, 0.964]"  # 4 significant digits, no padding
    assert show([3.003001, 12.006], digits=7) == "[3.003001, 12.006]"
    assert show([[1.0, 2.5], [3.0, -4.0]]) == "[[1, 2.5], [3, -4]]"
    assert show(1000.69314718, decimals=4) == "1000.6931" and show(0.99999999, decimals=4) == "1"
    assert show([-0.00001, 0.2355], decimals=4) == "[0, 0.2355]"  # -0 as 0
    assert show([np.inf, np.nan]) == "[inf, nan]" and show(1e-7) == "0.0000001"  # never an exponent
