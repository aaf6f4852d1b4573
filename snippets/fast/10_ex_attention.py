import math

import torch

from minigpt_course.checks.fast import check_attention


def my_attention(q, k, v):
    # q, k, v: (B, nh, T, hs)
    # return: (B, nh, T, hs), position t a mix of the values of positions 0 .. t
    B, nh, T, hs = q.shape
    scores = q @ k.transpose(-2, -1) / math.sqrt(hs)  # (B, nh, T, T)
    return scores.softmax(dim=-1) @ v


print(check_attention(my_attention))
