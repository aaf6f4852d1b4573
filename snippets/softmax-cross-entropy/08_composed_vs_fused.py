import tracemalloc

import numpy as np
import torch

from functional import cross_entropy
from tensor import Tensor


def composed(logits, targets):
    N, V = logits.shape
    e = logits.exp()  # (N, V)
    p = e / e.sum(dim=1, keepdim=True)  # (N, V) softmax
    return -p.log()[np.arange(N), targets].mean()  # mean of -log p[target]


def ops(t, seen=None):  # the ops of the graph that made t, each once
    seen = set() if seen is None else seen
    if id(t) in seen:
        return []
    seen.add(id(t))
    return [op for parent in t._prev for op in ops(parent, seen)] + ([t._op] if t._op else [])


print(f"{'logits':<24}{'target':<8}{'composed':<10}{'fused':<10}torch")
for row, target in (([1.0, 2.0, 3.0], 0), ([0.0, -800.0], 1), ([1000.0, 0.0, -1000.0], 0)):
    with np.errstate(all="ignore"):
        a = composed(Tensor([row]), [target]).data
    b = cross_entropy(Tensor([row]), [target]).data + 0.0
    c = torch.nn.functional.cross_entropy(torch.tensor([row]), torch.tensor([target])).item()
    print(f"{str(row):<24}{target:<8}{a:<10.4f}{b:<10.4f}{c:.4f}")

rng = np.random.default_rng(0)
N, V = 128, 6831
x, targets = rng.standard_normal((N, V)), rng.integers(0, V, N)
for f in (composed, cross_entropy):
    tracemalloc.start()
    loss = f(Tensor(x, requires_grad=True), targets)
    held = tracemalloc.get_traced_memory()[0]
    loss.backward()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"{f.__name__}: {len(ops(loss))} ops {ops(loss)}")
    print(f"  (N, V) arrays held for backward: {held / x.nbytes:.0f}, at the peak of backward: {peak / x.nbytes:.0f}")

