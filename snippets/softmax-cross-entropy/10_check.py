import numpy as np
import torch
import torch.nn.functional as F

from functional import cross_entropy
from tensor import Tensor

rng = np.random.default_rng(0)
targets = rng.integers(0, 11, 8)
g = rng.standard_normal((8, 11))  # an upstream gradient for softmax and log_softmax, (N, V)
OURS = {"softmax": lambda a: (a.softmax(-1) * Tensor(g)).sum(),
        "log_softmax": lambda a: (a.log_softmax(-1) * Tensor(g)).sum(),
        "cross_entropy": lambda a: cross_entropy(a, targets)}
TORCH = {"softmax": lambda t: (t.softmax(-1) * torch.tensor(g)).sum(),
         "log_softmax": lambda t: (t.log_softmax(-1) * torch.tensor(g)).sum(),
         "cross_entropy": lambda t: F.cross_entropy(t, torch.tensor(targets))}


def agree(ours, theirs):  # float64, |ours - theirs| <= 1e-12 + 1e-10 |theirs|
    return np.allclose(ours, theirs.detach().numpy(), rtol=1e-10, atol=1e-12)


for scale in (1, 30, 1000):
    x = rng.standard_normal((8, 11)) * scale  # logits (N, V) = (8, 11)
    line = f"logits x {scale:<5}"
    for name in OURS:
        a, t = Tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
        out, ref = OURS[name](a), TORCH[name](t)
        out.backward()
        ref.backward()
        line += f" {name} {agree(out.data, ref) and agree(a.grad, t.grad)}"
    print(line)

with np.errstate(divide="ignore"):
    print("control, log(softmax) from two ops, logits x 1000:",
          agree(Tensor(x).softmax(-1).log().data, torch.tensor(x).log_softmax(-1)))
