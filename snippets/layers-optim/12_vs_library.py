import numpy as np

from optim import AdamW
from toy import V, TinyLM, pairs

from functional import cross_entropy
from tensor import Tensor

from minigpt import functional as lib_F
from minigpt import nn as lib_nn
from minigpt import optim as lib_optim
from minigpt.tensor import Tensor as LibTensor


class LibTinyLM(lib_nn.Module):
    """TinyLM from src/minigpt/nn.py: the same two layers and names."""

    def __init__(self, C=16):
        super().__init__()
        self.wte, self.lm_head = lib_nn.Embedding(V, C), lib_nn.Linear(C, V)

    def forward(self, idx):
        return self.lm_head(self.wte(idx))  # (N,) -> (N, V)


x, y = pairs()
ours, lib = TinyLM(C=16, rng=np.random.default_rng(0)), LibTinyLM().to(np.float64)
lib.load_state_dict({name: p.data for name, p in ours.named_parameters()})  # same names, same shapes
opt, lib_opt = AdamW(ours.parameters(), lr=0.03), lib_optim.AdamW(lib.parameters(), lr=0.03)
for step in range(5):
    loss, lib_loss = cross_entropy(ours(x), y), lib_F.cross_entropy(lib(x), y)
    opt.zero_grad(), lib_opt.zero_grad()
    loss.backward(), lib_loss.backward()
    if step == 0:
        print(f"loss {float(loss.data):.6f}  library {float(lib_loss.data):.6f}")
        print("every gradient, max |diff| < 1e-12:",
              max(np.abs(p.grad - q.grad).max() for p, q in zip(ours.parameters(), lib.parameters())) < 1e-12)
    opt.step(), lib_opt.step()
print("every weight after 5 AdamW steps, max |diff| < 1e-12:",
      max(np.abs(p.data - q.data).max() for p, q in zip(ours.parameters(), lib.parameters())) < 1e-12)

rng = np.random.default_rng(1)
a, b, c = (rng.standard_normal(s) for s in ((2, 3, 4), (4, 6), (6,)))


def expression(T):  # broadcasting, matmul, permute, reshape, softmax, log_softmax, exp, tanh, indexing
    A, B, Cb = T(a, requires_grad=True), T(b, requires_grad=True), T(c, requires_grad=True)
    h = (A @ B + Cb).tanh().permute(1, 0, 2).reshape(3, 12)  # (2, 3, 6) -> (3, 2, 6) -> (3, 12)
    out = (h.softmax(-1) * h.log_softmax(0)).sum() + h[np.array([0, 0, 2])].exp().mean()
    out.backward()
    return out.data, [A.grad, B.grad, Cb.grad]


(v1, g1), (v2, g2) = expression(Tensor), expression(LibTensor)
print("Part 1 ops on (2, 3, 4) @ (4, 6) + (6,): same value and gradients, max |diff| < 1e-12:",
      abs(v1 - v2) < 1e-12 and all(np.abs(p - q).max() < 1e-12 for p, q in zip(g1, g2)))
