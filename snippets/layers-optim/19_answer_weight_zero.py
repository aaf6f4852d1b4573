import numpy as np

from optim import AdamW
from toy import TinyLM, floor, pairs, train

x, y = pairs()  # (N,), (N,)
counts = np.bincount(y).astype(float)
unigram = float(-np.log(counts[y] / counts.sum()).mean())  # the best loss that ignores the input
print(f"floor (counted) {floor(x, y):.3f}, unigram (input ignored) {unigram:.3f}")
for name in ("small random (as built)", "all zeros", "every channel equal"):
    model = TinyLM(C=16, rng=np.random.default_rng(0))
    if name == "all zeros":
        model.wte.weight.data[:] = 0.0
        model.lm_head.weight.data[:] = 0.0
    if name == "every channel equal":  # (V, C): each row one number repeated C times
        model.wte.weight.data[:] = model.wte.weight.data[:, :1]
        model.lm_head.weight.data[:] = model.lm_head.weight.data[:, :1]
    losses = train(model, AdamW(model.parameters(), lr=0.03, weight_decay=0.0), x, y, steps=201)
    w = model.wte.weight.data
    print(f"{name:<24} loss at step 0: {losses[0]:.3f}  50: {losses[50]:.3f}  200: {losses[200]:.3f}"
          f"   wte all zero: {bool(np.all(w == 0))}  channels all equal: {bool(np.all(w == w[:, :1]))}")
