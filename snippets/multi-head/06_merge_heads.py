import numpy as np

from minigpt.gpt import merge_heads, split_heads
from minigpt.tensor import Tensor

B, T, C, nh = 1, 3, 8, 2
hs = C // nh
x = Tensor((100 * np.arange(T)[:, None] + np.arange(C))[None].astype(np.float32))  # (B, T, C)

heads = split_heads(x, nh)  # (B, nh, T, hs), a view of x
back = merge_heads(heads)  # (B, nh, T, hs) -> (B, T, nh, hs) -> (B, T, C)
print("merge_heads(split_heads(x)):", back.shape)
print(back.data[0].astype(int))
print("equal to x:", np.array_equal(back.data, x.data), "| shares memory with x:", np.shares_memory(back.data, x.data))

y = Tensor(np.ascontiguousarray(heads.data))  # (B, nh, T, hs), laid out as att @ v returns it
print("\nfresh (B, nh, T, hs), strides", y.stride(), "elements")
print("after permute: strides", y.permute(0, 2, 1, 3).stride(), "contiguous", y.permute(0, 2, 1, 3).is_contiguous())
print("merge_heads shares memory with it:", np.shares_memory(merge_heads(y).data, y.data))

wrong = heads.reshape(B, T, C)  # (B, nh, T, hs) -> (B, T, C) without the permute
print("\nreshape only:", wrong.shape)
print(wrong.data[0].astype(int))
