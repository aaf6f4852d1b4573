import math

import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import MultiHeadAttention, causal_mask, merge_heads, split_heads
from minigpt.tensor import Tensor

line = "相见时难别亦难"
vectors = [np.random.default_rng(ord(c)).standard_normal(16) for c in line]  # T x (C,)
x = Tensor(np.stack(vectors)[None])  # (B, T, C)
attn = MultiHeadAttention(GPTConfig(n_embd=16, n_head=1), rng=np.random.default_rng(0))


def show(step, code, t, note=""):
    print(f"{step:<2} {code:<34} {str(t.shape):<13} {note}".rstrip())


B, T, C = x.shape
q, k, v = (split_heads(f(x), 1) for f in (attn.c_q, attn.c_k, attn.c_v))  # (B, 1, T, hs)
att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(C))  # (B, nh, T, T)
show(3, "q @ k^T * 1/sqrt(hs)", att, f"row 0: {np.round(att.data[0, 0, 0, :3], 4).tolist()} ...")
mask = causal_mask(T)  # (T, T)
att = att.masked_fill(mask, -np.inf)  # (B, nh, T, T)
row0 = np.round(att.data[0, 0, 0, :3], 4).tolist()
show(4, "masked_fill(causal_mask(T), -inf)", att, f"row 0: {row0} ...")
att = att.softmax(dim=-1)  # (B, nh, T, T)
show(5, "softmax(dim=-1)", att, f"row 0: {np.round(att.data[0, 0, 0, :3], 4).tolist()} ...")
y = attn.c_proj(merge_heads(att @ v))  # steps 6-8
print("same as attn(x):", np.allclose(y.data, attn(x).data))
print(f"hidden: {int(mask.sum())} of {T * T} scores = T(T-1)/2;"
      f" at T = 32: {32 * 31 // 2} of {32 * 32}")
