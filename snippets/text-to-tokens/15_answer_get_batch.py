import numpy as np

from minigpt_course.checks.text_to_tokens import check_get_batch


def my_get_batch(data, batch_size, block_size, rng):
    ix = rng.integers(0, len(data) - block_size, size=batch_size)  # (B,), in [0, N - T)
    pos = ix[:, None] + np.arange(block_size)  # (B, 1) + (T,) -> (B, T)
    return data[pos], data[pos + 1]  # (B, T), (B, T)


def not_shifted(data, batch_size, block_size, rng):
    ix = rng.integers(0, len(data) - block_size, size=batch_size)
    pos = ix[:, None] + np.arange(block_size)
    return data[pos], data[pos]  # y = x


def never_the_last(data, batch_size, block_size, rng):
    ix = rng.integers(0, len(data) - block_size - 1, size=batch_size)  # in [0, N - T - 1)
    pos = ix[:, None] + np.arange(block_size)
    return data[pos], data[pos + 1]


for fn in (my_get_batch, not_shifted, never_the_last):
    print(check_get_batch(fn))
