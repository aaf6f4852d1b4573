from minigpt_course.checks.multi_head import check_split_heads


def my_split_heads(x, n_head):
    B, T, C = x.shape
    x = x.reshape(B, T, n_head, C // n_head)  # (B, T, C) -> (B, T, nh, hs)
    return x.permute(0, 2, 1, 3)  # (B, T, nh, hs) -> (B, nh, T, hs)


def reshape_only(x, n_head):
    B, T, C = x.shape
    return x.reshape(B, n_head, T, C // n_head)  # (B, T, C) -> (B, nh, T, hs), tokens scrambled


print(check_split_heads(my_split_heads))
print(check_split_heads(reshape_only))
