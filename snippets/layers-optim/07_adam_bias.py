import numpy as np

from nn import Parameter
from optim import AdamW

g, lr = 0.5, 0.01
p = Parameter([0.0])
opt = AdamW([p], lr=lr, betas=(0.9, 0.999), weight_decay=0.0)
print(f"the same gradient g = {g} at every step, lr = {lr}")
print("   t       m   m/(1-b1^t)         v   v/(1-b2^t)   step/lr  uncorrected/lr")
for t in range(1, 1001):
    before = p.data.copy()
    p.grad = np.array([g])
    opt.step()
    if t in (1, 2, 5, 10, 100, 1000):
        m, v = opt.m[0][0], opt.v[0][0]
        moved = (before - p.data)[0] / lr  # m_hat / (sqrt(v_hat) + eps)
        raw = m / (np.sqrt(v) + opt.eps)  # m / (sqrt(v) + eps)
        print(f"{t:>4}  {m:6.4f}  {m / (1 - 0.9**t):11.4f}  {v:8.6f}  {v / (1 - 0.999**t):11.4f}"
              f"  {moved:8.4f}  {raw:14.4f}")
