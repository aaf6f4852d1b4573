import math

import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import MultiHeadAttention, causal_mask, merge_heads, split_heads
from minigpt.nn import Dropout
from minigpt.tensor import Tensor

attn = MultiHeadAttention(GPTConfig(), rng=np.random.default_rng(0))  # C=64, nh=4, dropout=0.0
x = Tensor(np.random.default_rng(1).standard_normal((2, 8, 64)).astype(np.float32))  # (B, T, C)


def show(step, code, t, note=""):
    print(f"{step:<2} {code:<26} {str(t.shape):<14} {note}".rstrip())


B, T, C = x.shape
hs = C // attn.n_head
print(f"   B, T, C = x.shape -> {B}, {T}, {C};  hs = C // n_head -> {hs}")
q, k, v = attn.c_q(x), attn.c_k(x), attn.c_v(x)  # (B, T, C) each
show(1, "c_q(x), c_k(x), c_v(x)", q, "x3")
projected = q
q, k, v = split_heads(q, attn.n_head), split_heads(k, attn.n_head), split_heads(v, attn.n_head)
show(2, "split_heads", q, f"x3, a view: {np.shares_memory(q.data, projected.data)}")
att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hs))  # (B, nh, T, T)
show(3, "q @ k^T * 1/sqrt(hs)", att)
att = att.masked_fill(causal_mask(T), -np.inf)  # (B, nh, T, T)
show(4, "masked_fill(mask, -inf)", att)
att = att.softmax(dim=-1)  # (B, nh, T, T)
show(5, "softmax(dim=-1)", att)
show("", f"attn_dropout (p={attn.attn_dropout.p})", att, f"returns its input: {attn.attn_dropout(att) is att}")
y = att @ v  # (B, nh, T, T) @ (B, nh, T, hs) -> (B, nh, T, hs)
show(6, "att @ v", y)
merged = merge_heads(y)  # (B, T, C)
show(7, "merge_heads", merged, f"a copy: {not np.shares_memory(merged.data, y.data)}")
out = attn.c_proj(merged)  # (B, T, C)
show(8, "c_proj", out)
show("", f"resid_dropout (p={attn.resid_dropout.p})", out, f"returns its input: {attn.resid_dropout(out) is out}")
print("same as attn(x):", np.allclose(out.data, attn(x).data, atol=1e-6))
print(f"mult-adds: projections 4*B*T*C*C = {4 * B * T * C * C:,}; q @ k^T and att @ v 2*B*T*T*C = {2 * B * T * T * C:,}")
print(f"memory: attention weights B*nh*T*T = {att.numel():,} floats")

drop = Dropout(0.1, np.random.default_rng(0))  # p > 0: what attn_dropout does when dropout is set
kept = drop(att)  # training mode
nonzero = att.data != 0  # (B, nh, T, T), False above the diagonal
print(f"p=0.1, training: {int((nonzero & (kept.data == 0)).sum())} of the {int(nonzero.sum())} nonzero attention weights"
      f" zeroed; eval: returns its input: {drop.eval()(att) is att}")
