import numpy as np

from minigpt.gpt import causal_mask
from minigpt.tensor import Tensor

scores = Tensor(np.random.default_rng(0).standard_normal((1, 7, 7)))  # (B, T, T)
ints = np.triu(np.ones((7, 7), dtype=int), k=1)  # 0s and 1s
for name, mask in (("int mask", ints), ("mask for T=8", causal_mask(8))):
    try:
        scores.masked_fill(mask, -np.inf)
    except (TypeError, ValueError) as e:
        print(f"{name:<13} {type(e).__name__}: {e}")
try:
    causal_mask(7)[0, 1] = False  # the cached mask is shared by every call
except ValueError as e:
    print(f"{'write to it':<13} ValueError: {e}")

diagonal_too = np.triu(np.ones((7, 7), dtype=bool), k=0)  # hides j >= i instead of j > i
with np.errstate(invalid="ignore"):
    w = scores.masked_fill(diagonal_too, -np.inf).softmax(dim=-1).data[0]
print("k=0 (diagonal hidden too), row 0:", w[0].round(2), "| row 1:", w[1].round(2))
finite = scores.masked_fill(causal_mask(7), -1e9).softmax(dim=-1).data  # (1, T, T)
exact = scores.masked_fill(causal_mask(7), -np.inf).softmax(dim=-1).data  # (1, T, T)
print("-1e9 instead of -inf: same weights:", np.allclose(finite, exact))
