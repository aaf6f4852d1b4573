import numpy as np

from nn import Parameter
from optim import AdamW


class AdamL2(AdamW):
    """Adam with weight decay folded into the gradient (L2): g + wd * p, then the Adam update."""

    def step(self):
        wd, self.weight_decay = self.weight_decay, 0.0
        for p in self.params:
            p.grad = p.grad + wd * p.data  # g + wd * p
        super().step()
        self.weight_decay = wd


def run(opt_class, weight_decay, steps=100):
    p = Parameter([1.0, 1.0])  # [quiet, busy]
    opt = opt_class([p], lr=0.01, weight_decay=weight_decay)
    for t in range(steps):
        p.grad = np.array([0.0, 10.0 * (-1) ** t])  # quiet: no gradient; busy: +-10
        opt.step()
    return p.data


print("what weight_decay=0.1 does in 100 steps (p with decay - p without), lr=0.01, both p start at 1.0")
print("                     quiet (grad 0)   busy (grad +-10)")
for name, cls in (("AdamW (decoupled)", AdamW), ("Adam + L2 in grad", AdamL2)):
    d = run(cls, 0.1) - run(cls, 0.0)
    print(f"{name:<20} {d[0]:14.4f}   {d[1]:16.4f}")
print(f"(1 - lr * wd)^100 - 1 = {(1 - 0.01 * 0.1) ** 100 - 1:.4f}")
