import numpy as np

from optim import SGD
from toy import V, pairs

from functional import cross_entropy
from tensor import Tensor

from minigpt.config import GPTConfig
from minigpt.gpt import GPT

x, y = pairs()  # (N,) ids, (N,) next ids
for listed in (["W", "b"], ["E", "W", "b"]):
    rng = np.random.default_rng(0)  # the same start for both
    t = {"E": Tensor(rng.standard_normal((V, 16)), requires_grad=True),  # (V, C)
         "W": Tensor(rng.standard_normal((V, 16)) * 0.02, requires_grad=True),  # (V, C)
         "b": Tensor(np.zeros(V), requires_grad=True)}  # (V,)
    E0 = t["E"].data.copy()
    opt = SGD([t[name] for name in listed], lr=1.0)
    for _ in range(100):
        loss = cross_entropy(t["E"][x] @ t["W"].T + t["b"], y)  # (N, C) @ (C, V) + (V,) -> (N, V)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"listed by hand: {', '.join(listed):<8} loss after 100 steps {float(loss.data):.3f}   "
          f"E unchanged: {np.array_equal(t['E'].data, E0)}")

gpt = GPT(GPTConfig())
params = list(gpt.named_parameters())
print(f"GPT(GPTConfig()): named_parameters() finds {len(params)} tensors, "
      f"{sum(p.data.size for _, p in params):,} numbers")
