import math

import numpy as np
import torch

from nn import Linear

from functional import cross_entropy
from tensor import Tensor

rng = np.random.default_rng(0)
lin = Linear(3, 2, rng=rng, std=1.0)
lin.bias.data[:] = [0.5, -1.0]
print("weight", lin.weight.shape, "bias", lin.bias.shape)  # (out, in), (out,)
ref = torch.nn.Linear(3, 2).double()
with torch.no_grad():
    ref.weight.copy_(torch.from_numpy(lin.weight.data))
    ref.bias.copy_(torch.from_numpy(lin.bias.data))
x = rng.standard_normal((4, 3))  # (N, in)
want = ref(torch.from_numpy(x)).detach().numpy()  # (N, out)
print("x @ W.T + b == torch.nn.Linear:", np.allclose(lin(Tensor(x)).data, want, rtol=0, atol=1e-12))

sq = Linear(3, 3, rng=rng, std=1.0)  # a square layer: x @ W has the right shape too
right, wrong = (Tensor(x) @ sq.weight.T).data, (Tensor(x) @ sq.weight).data
print("square layer, x @ W instead of x @ W.T: shape", wrong.shape, "same values:", np.allclose(right, wrong))

C, V, N = 64, 74, 1000
h = Tensor(rng.standard_normal((N, C)))  # (N, C), unit scale
y = rng.integers(0, V, N)
print(f"\nLinear({C}, {V}) on unit-scale inputs; a model that knows nothing should say ln V = {math.log(V):.3f}")
print("  std      logits std  first loss")
for std in (1.0, 1 / math.sqrt(C), 0.02):
    logits = Linear(C, V, rng=rng, std=std)(h)  # (N, V)
    print(f"  {std:<7.4f}  {logits.data.std():10.3f}  {float(cross_entropy(logits, y).data):10.3f}")
