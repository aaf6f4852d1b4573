import numpy as np
import torch
import torch.nn.functional as F

import nn
import optim
from toy import V, TinyLM, pairs

from functional import cross_entropy
from tensor import Tensor

x, y = pairs()


class NoCorrection(optim.AdamW):  # m and v used as they are, without / (1 - beta^t)
    def step(self):
        b1, b2 = self.betas
        for p, m, v in zip(self.params, self.m, self.v):
            p.data -= self.lr * self.weight_decay * p.data
            m[:], v[:] = b1 * m + (1 - b1) * p.grad, b2 * v + (1 - b2) * p.grad**2
            p.data -= self.lr * m / (np.sqrt(v) + self.eps)


def unbiased_forward(self, h):  # variance divided by C - 1
    mu = h.mean(dim=-1, keepdim=True)
    var = ((h - mu) ** 2).sum(dim=-1, keepdim=True) * (1.0 / (h.shape[-1] - 1))
    return (h - mu) / (var + self.eps) ** 0.5 * self.weight + self.bias


def overwriting_getitem(self, idx):  # full[idx] += g instead of np.add.at(full, idx, g)
    out = Tensor(self.data[idx])
    out.requires_grad, out._prev = True, (self,)

    def _backward(g):
        full = np.zeros_like(self.data)
        full[idx] += g
        self._accumulate(full)

    out._backward = _backward
    return out


def checks(opt_class=optim.AdamW):
    """The checks of the page, in order: loss, gradients, weights after 5 AdamW steps, each vs torch."""
    ours = TinyLM(C=16, rng=np.random.default_rng(0))
    theirs = torch.nn.Sequential(torch.nn.Embedding(V, 16), torch.nn.LayerNorm(16), torch.nn.Linear(16, V)).double()
    for p, q in zip(ours.parameters(), theirs.parameters()):
        q.data = torch.from_numpy(p.data.copy())
    opt, topt = opt_class(ours.parameters(), lr=0.03), torch.optim.AdamW(theirs.parameters(), lr=0.03)
    for step in range(5):
        loss, tloss = cross_entropy(ours(x), y), F.cross_entropy(theirs(torch.from_numpy(x)), torch.from_numpy(y))
        opt.zero_grad(), topt.zero_grad()
        loss.backward(), tloss.backward()
        if step == 0 and abs(float(loss.data) - tloss.item()) > 1e-10:
            return f"caught by the loss vs torch (|diff| {abs(float(loss.data) - tloss.item()):.1e})"
        grads = max(np.abs(p.grad - q.grad.numpy()).max() for p, q in zip(ours.parameters(), theirs.parameters()))
        if step == 0 and grads > 1e-10:
            return f"caught by gradients vs torch (max |diff| {grads:.4f})"
        opt.step(), topt.step()
    weights = max(np.abs(p.data - q.detach().numpy()).max() for p, q in zip(ours.parameters(), theirs.parameters()))
    return "passes all three checks" if weights < 1e-10 else f"caught by weights after 5 steps (max |diff| {weights:.4f})"


print(f"{'no bug':<32} {checks()}")
print(f"{'AdamW without bias correction':<32} {checks(NoCorrection)}")
nn.LayerNorm.forward, right = unbiased_forward, nn.LayerNorm.forward
print(f"{'LayerNorm, variance / (C - 1)':<32} {checks()}")
nn.LayerNorm.forward, Tensor.__getitem__ = right, overwriting_getitem
print(f"{'Embedding grad, full[idx] += g':<32} {checks()}")
