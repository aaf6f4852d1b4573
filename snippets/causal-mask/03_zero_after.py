import numpy as np

from minigpt.gpt import causal_mask
from minigpt.tensor import Tensor

d = 16


def weights(line, how):  # (T, T) attention weights, q = k = x
    vectors = [np.random.default_rng(ord(c)).standard_normal(d) for c in line]  # T x (d,)
    x = Tensor(np.stack(vectors))  # (T, d)
    scores = x @ x.T * (1 / np.sqrt(d))  # (T, T)
    mask = causal_mask(len(line))
    if how == "-inf before softmax":
        return scores.masked_fill(mask, -np.inf).softmax(dim=-1).data
    return scores.softmax(dim=-1).masked_fill(mask, 0.0).data  # zero after softmax


a, b = "相见时难别亦难", "相见时难别亦愁"  # differ only at position 6
for how in ("-inf before softmax", "zero after softmax"):
    wa, wb = weights(a, how), weights(b, how)
    print(f"{how}:")
    print("  row sums:", " ".join(f"{s:.2f}" for s in wa.sum(-1)))
    print(f"  row 3 ({a[3]}), {a}:", " ".join(f"{p:.2f}" for p in wa[3, :4]))
    print(f"  row 3 ({b[3]}), {b}:", " ".join(f"{p:.2f}" for p in wb[3, :4]))
    print("  rows 0-5 change when only character 6 changes:", not np.allclose(wa[:6], wb[:6]))
