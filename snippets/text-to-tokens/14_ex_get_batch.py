from minigpt_course.checks.text_to_tokens import check_get_batch


def my_get_batch(data, batch_size, block_size, rng):
    ix = rng.integers(0, len(data) - block_size, size=batch_size)  # (B,), in [0, N - T)
    x = ...  # (B, T): data[ix[b] + t]
    y = ...  # (B, T): data[ix[b] + t + 1]
    return x, y


print(check_get_batch(my_get_batch))
