import numpy as np
import torch
import torch.nn.functional as F

from functional import cross_entropy
from tensor import Tensor

np.set_printoptions(precision=4, suppress=True)
logits = Tensor(np.random.default_rng(0).standard_normal((3, 3)), requires_grad=True)  # (N, V) = (3, 3)
print("row sums, softmax(dim=-1):", logits.softmax(dim=-1).data.sum(axis=1))
print("row sums, softmax(dim=0): ", logits.softmax(dim=0).data.sum(axis=1))

for targets in (np.array([0.0, 2.0, 1.0]), np.array([0, -1, 1])):
    for name, f in (("ours ", lambda: cross_entropy(logits, targets)),
                    ("torch", lambda: F.cross_entropy(torch.tensor(logits.data), torch.tensor(targets)))):
        try:
            f()
        except (ValueError, RuntimeError, IndexError) as e:
            print(f"{name} targets {targets}: {type(e).__name__}: {e}")
log_probs = logits.log_softmax(-1).data
print("by hand, log_probs[rows, [0, -1, 1]]:", log_probs[np.arange(3), [0, -1, 1]], "(-1 is the last class)")

rows = np.concatenate([logits.data, logits.data])  # the same 3 rows twice, (6, 3)
for N, x, t in ((3, logits.data, [0, 2, 1]), (6, rows, [0, 2, 1] * 2)):
    a = Tensor(x, requires_grad=True)
    loss = cross_entropy(a, np.array(t))
    loss.backward()
    g = np.abs(a.grad).sum()  # how hard the loss pulls on the logits, all rows together
    print(f"N = {N}: loss as a mean {loss.data:.4f}, |grad| {g:.4f};  as a sum {loss.data * N:.4f}, |grad| {g * N:.4f}")
