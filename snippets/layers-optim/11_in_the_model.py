import argparse

import numpy as np

from optim import SGD, AdamW
from toy import V, TinyLM, floor, pairs, train

from functional import cross_entropy

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=100)
parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
args = parser.parse_args()

x, y = pairs()
best = floor(x, y)
print(f"loss - floor after {args.steps} steps (floor {best:.4f}); seeds change only the initial weights")
print("optimiser  lr     " + "".join(f"  seed {s}" for s in args.seeds))
for name, make, lrs in (("SGD", lambda ps, lr: SGD(ps, lr), (1.0, 10.0, 100.0)),
                        ("AdamW", lambda ps, lr: AdamW(ps, lr, weight_decay=0.0), (0.003, 0.03, 0.3))):
    for lr in lrs:
        gaps = []
        for seed in args.seeds:
            model = TinyLM(C=16, rng=np.random.default_rng(seed))
            with np.errstate(all="ignore"):  # lr too large: the loss overflows
                train(model, make(model.parameters(), lr), x, y, args.steps)
                gaps.append(float(cross_entropy(model(x), y).data) - best)
        # a loss above ln V, worse than the start: the steps overshoot and the loss runs away
        print(f"{name:<9}  {lr:<5}  " + "".join(f"  {g:6.4f}" if g < np.log(V) else f"  {'blown':>6}" for g in gaps))
