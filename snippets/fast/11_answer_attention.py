import math

import torch

from minigpt_course.checks.fast import check_attention


def my_attention(q, k, v):
    B, nh, T, hs = q.shape
    scores = q @ k.transpose(-2, -1) / math.sqrt(hs)  # (B, nh, T, T)
    causal = torch.ones(T, T, dtype=torch.bool, device=q.device).tril()  # (T, T)
    return scores.masked_fill(~causal, float("-inf")).softmax(dim=-1) @ v  # (B, nh, T, hs)


def rows_are_columns(q, k, v):  # the softmax over the wrong axis
    B, nh, T, hs = q.shape
    scores = q @ k.transpose(-2, -1) / math.sqrt(hs)
    causal = torch.ones(T, T, dtype=torch.bool).tril()
    return scores.masked_fill(~causal, float("-inf")).softmax(dim=-2).nan_to_num() @ v


print(check_attention(my_attention))
print(check_attention(rows_are_columns))
