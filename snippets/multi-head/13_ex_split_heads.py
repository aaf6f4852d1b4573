from minigpt_course.checks.multi_head import check_split_heads


def my_split_heads(x, n_head):
    B, T, C = x.shape
    # (B, T, C) -> (B, T, nh, hs) -> (B, nh, T, hs), hs = C // n_head
    return x


print(check_split_heads(my_split_heads))
