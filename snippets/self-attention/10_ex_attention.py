from minigpt_course.checks.self_attention import check_attention


def my_attention(q, k, v):
    # q, k: (B, T, d), v: (B, T, dv) -> (B, T, dv)
    # compare, scale, normalise, aggregate
    return v


print(check_attention(my_attention))
