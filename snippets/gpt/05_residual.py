import math

import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import GPT
from minigpt.tensor import no_grad

x_ids = np.random.default_rng(0).integers(4, 6831, size=(4, 32))  # (B, T)
print("std of the residual stream after the last block (input: std of wte + wpe)")
print("n_layer  input   with 1/sqrt(2L)  without   corr(top, input): with  without")
for L in (2, 8, 32):
    row = []
    for scaled in (True, False):
        model = GPT(GPTConfig(vocab_size=6831, n_embd=64, n_layer=L), seed=0)
        for name, w in model.named_parameters():
            if name.endswith("c_proj.weight") and not scaled:
                w.data = w.data * math.sqrt(2 * L)  # back to N(0, 0.02)
        with no_grad():
            x = model.wte(x_ids) + model.wpe(np.arange(32))  # (B, T, C)
            x0 = x.data  # (B, T, C)
            for block in model.blocks:
                x = block(x)  # (B, T, C)
        row.append((x.data.std(), np.corrcoef(x.data.ravel(), x0.ravel())[0, 1]))
    (s1, c1), (s0, c0) = row
    print(f"{L:7d}  {x0.std():.4f}  {s1:15.4f}  {s0:.4f}  {c1:22.3f}  {c0:7.3f}")
