import numpy as np

import minigpt.gpt as gpt
from minigpt.config import GPTConfig
from minigpt.tensor import Tensor

rng = np.random.default_rng(1)
B, T, C, t = 2, 7, 16, 3
attn = gpt.MultiHeadAttention(GPTConfig(n_embd=C, n_head=2), rng=rng).to(np.float64)
attn.load_state_dict({n: rng.normal(0.0, 0.3, a.shape) for n, a in attn.state_dict().items()})
x0 = rng.standard_normal((B, T, C))  # float64



def see_all(size):  # (size, size), all False
    return np.zeros((size, size), dtype=bool)


for name, mask in (("with the mask", gpt.causal_mask), ("without (control)", see_all)):
    original, gpt.causal_mask = gpt.causal_mask, mask
    x = Tensor(x0, requires_grad=True)
    attn(x)[:, t].sum().backward()  # d(output row t) / d(every input row)
    gpt.causal_mask = original
    later, earlier = np.abs(x.grad[:, t + 1:]).max(), np.abs(x.grad[:, :t + 1]).max(axis=(0, 2))
    print(f"{name:<17}: gradient of output row {t} w.r.t. input rows {t + 1}..{T - 1}"
          f" exactly 0: {later == 0.0};"
          f" rows 0..{t} all nonzero: {bool((earlier > 0).all())}")
