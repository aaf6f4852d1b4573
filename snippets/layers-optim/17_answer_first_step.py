import numpy as np

from nn import Parameter
from optim import SGD, AdamW

g = np.array([1e3, 1.0, 1e-3, 1e-9])
for name, make in (("SGD  ", lambda ps: SGD(ps, lr=0.01)), ("AdamW", lambda ps: AdamW(ps, lr=0.01, weight_decay=0.0))):
    p = Parameter(np.zeros(4))
    opt = make([p])
    p.grad = g.copy()
    opt.step()
    print(f"{name} first step for grads {g.tolist()}: -dp/lr =", np.array2string(-p.data / 0.01, precision=4))
print("AdamW at t = 1: g / (|g| + eps) with eps = 1e-8:", np.array2string(g / (np.abs(g) + 1e-8), precision=4))
