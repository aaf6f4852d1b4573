import math

from minigpt_course.checks.self_attention import check_attention


def my_attention(q, k, v):
    scores = q @ k.transpose(-2, -1)  # (B, T, d) @ (B, d, T) -> (B, T, T)
    scores = scores * (1.0 / math.sqrt(q.shape[-1]))
    return scores.softmax(dim=-1) @ v  # (B, T, T) @ (B, T, dv) -> (B, T, dv)


def no_scale(q, k, v):
    return (q @ k.transpose(-2, -1)).softmax(dim=-1) @ v  # (B, T, dv)


def columns(q, k, v):
    scores = q @ k.transpose(-2, -1) * (1.0 / math.sqrt(q.shape[-1]))  # (B, T, T)
    return scores.softmax(dim=-2) @ v  # (B, T, dv)


for fn in (my_attention, no_scale, columns):
    print(check_attention(fn))
