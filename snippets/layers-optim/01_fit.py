import numpy as np

from figure import save_loss_figure
from optim import SGD, AdamW
from toy import V, TinyLM, floor, pairs, train

x, y = pairs()  # (N,), (N,)
best = floor(x, y)
print(f"N={len(x)} pairs, V={V}; ln V = {np.log(V):.3f}; floor (counted) = {best:.3f}")
runs = {}
for name, make in (("SGD lr=10.0", lambda ps: SGD(ps, lr=10.0)),
                   ("AdamW lr=0.03", lambda ps: AdamW(ps, lr=0.03, weight_decay=0.0))):
    model = TinyLM(C=16, rng=np.random.default_rng(0))  # the same start for both
    runs[name] = train(model, make(model.parameters()), x, y, steps=200)
    losses = runs[name]
    print(f"{name:<14} loss at step " + "  ".join(f"{s}: {losses[s]:.3f}" for s in (0, 10, 50, 199))
          + f"   step 199 - floor = {losses[199] - best:.4f}")
save_loss_figure(runs, best)  # docs/assets/figures/ (Chinese labels), docs/en/assets/figures/ (English)
