import numpy as np

from optim import AdamW
from toy import TinyLM, floor, pairs, train

x, y = pairs()  # (N,), (N,)
counts = np.bincount(y).astype(float)
unigram = float(-np.log(counts[y] / counts.sum()).mean())  # the best loss that ignores the input
print(f"floor (counted) {floor(x, y):.3f}, unigram (input ignored) {unigram:.3f}")
for name in ("ln_f.weight = 1 (as built)", "ln_f.weight = 0", "every channel equal"):
    model = TinyLM(C=16, rng=np.random.default_rng(0))
    if name == "ln_f.weight = 0":
        model.ln_f.weight.data[:] = 0.0
    if name == "every channel equal":  # (V, C): each row one number repeated C times
        model.wte.weight.data[:] = model.wte.weight.data[:, :1]
        model.lm_head.weight.data[:] = model.lm_head.weight.data[:, :1]
    losses = train(model, AdamW(model.parameters(), lr=0.03, weight_decay=0.0), x, y, steps=61)
    w = model.wte.weight.data
    print(f"{name:<27} loss at step 0: {losses[0]:.3f}  10: {losses[10]:.3f}  60: {losses[60]:.3f}"
          f"   wte channels all equal: {bool(np.all(w == w[:, :1]))}")
