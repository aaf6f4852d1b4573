from minigpt_course.checks.broadcast_matmul import check_broadcast_shapes


def my_broadcast_shapes(a, b):
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)  # align at the right
    out = []
    for x, y in zip(a, b):
        if x != y and 1 not in (x, y):
            raise ValueError(f"sizes {x} and {y} differ and neither is 1")
        out.append(max(x, y))
    return tuple(out)


def aligned_left(a, b):  # pads on the right instead
    n = max(len(a), len(b))
    a, b = tuple(a) + (1,) * (n - len(a)), tuple(b) + (1,) * (n - len(b))
    out = []
    for x, y in zip(a, b):
        if x != y and 1 not in (x, y):
            raise ValueError(f"sizes {x} and {y} differ and neither is 1")
        out.append(max(x, y))
    return tuple(out)


for fn in (my_broadcast_shapes, aligned_left):
    print(check_broadcast_shapes(fn))
