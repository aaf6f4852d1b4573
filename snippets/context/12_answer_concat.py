from minigpt_course.checks.context import check_concat_window


def concat_window(e):
    B, k, d = e.shape
    return e.reshape(B, k * d)  # (B, k, d) -> (B, k*d), positions in order


def interleaved(e):
    B, k, d = e.shape
    return e.permute(0, 2, 1).reshape(B, k * d)  # (B, d, k) -> (B, d*k): channels interleaved


print(check_concat_window(concat_window))
print(check_concat_window(interleaved))
