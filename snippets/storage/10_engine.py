import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import merge_heads, split_heads
from minigpt.tensor import Tensor

x = Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))  # (B, T, C)
y = x.permute(0, 2, 1)  # (B, C, T)
print(f"x: numpy strides {x.data.strides} bytes, x.stride() {x.stride()} elements")
print(f"y: stride {y.stride()}, contiguous {y.is_contiguous()}, shares x's buffer {np.shares_memory(x.data, y.data)}")
z = y.contiguous()
print(f"y.contiguous(): stride {z.stride()}, shares x's buffer {np.shares_memory(x.data, z.data)}")

cfg = GPTConfig()  # tiny
B, T, C, nh, hs = 2, 8, cfg.n_embd, cfg.n_head, cfg.head_size
q = Tensor(np.zeros((B, T, C), dtype=np.float32))  # (B, T, C)
out = Tensor(np.zeros((B, nh, T, hs), dtype=np.float32))  # (B, nh, T, hs), a fresh result like att @ v
for name, src, t in [("split_heads(q)", q, split_heads(q, nh)), ("merge_heads(out)", out, merge_heads(out))]:
    copied = 0 if np.shares_memory(src.data, t.data) else t.numel()  # numbers written to a new buffer
    print(f"{name:16} {src.shape} -> {t.shape}  stride {t.stride()}  contiguous {t.is_contiguous()!s:5}  "
          f"copied {copied}")
