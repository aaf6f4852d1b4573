import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import Block
from minigpt.tensor import Tensor

block = Block(GPTConfig(), np.random.default_rng(0))  # C=64, dropout=0.0
x = np.random.default_rng(1).standard_normal((2, 8, 64)).astype(np.float32)
x = Tensor(x)  # (B, T, C)


def show(step, code, t, note=""):
    print(f"{step:<3}{code:<32}{str(t.shape):<13}{note}".rstrip())


show("", "x", x, f"row std {x.data.std(-1).mean():.3f}")
a = block.ln_1(x)  # (B, T, C)
mean0 = np.abs(a.data.mean(-1)).max() < 1e-6
std1 = a.data.std(-1).mean()
show("1", "block.ln_1(x)", a, f"row mean ~0: {mean0}, row std {std1:.3f}")
a = block.attn(a)  # (B, T, C)
show("2", "block.attn(.)", a, "lesson 10's forward")
x1 = x + a  # (B, T, C)
show("3", "x = x + .", x1, "the residual stream")
m = block.ln_2(x1)  # (B, T, C)
show("4", "block.ln_2(x)", m)
h = block.mlp.c_fc(m)  # (B, T, 4C)
show("5", "mlp.c_fc(.)", h, f"4C = {h.shape[-1]}")
h = h.gelu()  # (B, T, 4C)
show("6", ".gelu()", h, f"{(h.data < 0).mean():.0%} negative")
p = block.mlp.c_proj(h)  # (B, T, C)
show("7", "mlp.c_proj(h)", p)
d = block.mlp.dropout(p)  # (B, T, C)
show("", f"mlp.dropout (p={block.mlp.dropout.p})", d, f"returns its input: {d is p}")
out = x1 + d  # (B, T, C)
show("8", "x + mlp(ln_2(x))", out)
print("same as block(x):", np.allclose(out.data, block(x).data, atol=1e-6))
B, T, C = x.shape
attn_madds = 4 * B * T * C * C + 2 * B * T * T * C
print(f"mult-adds: attention 4*B*T*C*C + 2*B*T*T*C = {attn_madds:,};"
      f" MLP 8*B*T*C*C = {8 * B * T * C * C:,}")
