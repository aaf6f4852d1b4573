import numpy as np

from minigpt.gpt import split_heads
from minigpt.tensor import Tensor

B, T, C, nh = 1, 3, 8, 2
hs = C // nh
t = np.arange(T)[:, None]  # (T, 1)
c = np.arange(C)[None, :]  # (1, C)
x = Tensor((100 * t + c)[None].astype(np.float32))  # (B, T, C): value = 100*token + channel

print("x[0], one row per token:")
print(x.data[0].astype(int))

step1 = x.reshape(B, T, nh, hs)  # (B, T, C) -> (B, T, nh, hs)
step2 = step1.permute(0, 2, 1, 3)  # (B, T, nh, hs) -> (B, nh, T, hs)
print()
for name, s in [("reshape", step1), ("permute", step2)]:
    print(f"{name} {s.shape} strides {s.stride()} elements, {s.data.strides} bytes,"
          f" contiguous {s.is_contiguous()}")

right = split_heads(x, nh)  # the same two steps
wrong = x.reshape(B, nh, T, hs)  # (B, T, C) -> (B, nh, T, hs) without the permute

for name, y in [("reshape -> permute", right), ("reshape only", wrong)]:
    print(f"\n{name}: shape {y.shape}")
    for h in range(nh):
        print(f"head {h}:", y.data[0, h].astype(int).tolist())
