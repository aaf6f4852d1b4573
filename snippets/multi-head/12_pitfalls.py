import numpy as np
import torch
import torch.nn.functional as F

from minigpt.config import GPTConfig
from minigpt.gpt import causal_mask, split_heads
from minigpt.tensor import Tensor

for make in (lambda: GPTConfig(n_head=3), lambda: split_heads(Tensor(np.zeros((1, 2, 64))), 3)):
    try:
        make()
    except ValueError as e:
        print("ValueError:", e)

y = torch.zeros(1, 4, 2, 16).transpose(1, 2)  # (B, nh, T, hs) -> (B, T, nh, hs), not contiguous
try:
    y.view(1, 2, 64)
except RuntimeError as e:
    print("RuntimeError:", e)
print("y.contiguous().view(1, 2, 64):", tuple(y.contiguous().view(1, 2, 64).shape))

q, k, v = torch.randn(3, 1, 4, 5, 16, dtype=torch.float64)  # (B, nh, T, hs) each
mask = torch.from_numpy(causal_mask(5).copy())  # ours: True = hidden
right = F.scaled_dot_product_attention(q, k, v, is_causal=True)
for name, m in [("attn_mask=mask ", mask), ("attn_mask=~mask", ~mask)]:
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=m)  # torch: True = may attend
    print(f"{name}: same as is_causal=True: {torch.allclose(out, right)}, "
          f"last token's output all 0: {bool((out[..., -1, :] == 0).all())}")
