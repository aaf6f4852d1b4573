import numpy as np
import torch
import torch.nn.functional as F

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


def wrong_axis_cross_entropy(logits, targets):  # log-softmax over axis 0, the batch, not axis 1
    N = logits.shape[0]
    shifted = logits.data - logits.data.max(axis=0, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=0, keepdims=True))  # (N, V), each column sums to 1

    def _backward(g):
        grad = np.exp(log_probs)
        grad[np.arange(N), targets] -= 1.0
        logits._accumulate(g * grad / N)

    return Tensor._make(-log_probs[np.arange(N), targets].mean(), (logits,), _backward, "cross_entropy")


def overwriting_getitem(self, idx):  # full[idx] += g instead of np.add.at(full, idx, g)
    out = Tensor(self.data[idx])
    out.requires_grad, out._prev = True, (self,)

    def _backward(g):
        full = np.zeros_like(self.data)
        full[idx] += g
        self._accumulate(full)

    out._backward = _backward
    return out


def checks(opt_class=optim.AdamW, loss_fn=cross_entropy):
    """The checks of the page, in order: loss, gradients, weights after 5 AdamW steps, each vs torch."""
    ours = TinyLM(C=16, rng=np.random.default_rng(0))
    theirs = torch.nn.Sequential(torch.nn.Embedding(V, 16), torch.nn.Linear(16, V)).double()
    for p, q in zip(ours.parameters(), theirs.parameters()):
        q.data = torch.from_numpy(p.data.copy())
    opt, topt = opt_class(ours.parameters(), lr=0.03), torch.optim.AdamW(theirs.parameters(), lr=0.03)
    for step in range(5):
        loss, tloss = loss_fn(ours(x), y), F.cross_entropy(theirs(torch.from_numpy(x)), torch.from_numpy(y))
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
print(f"{'cross_entropy over axis 0':<32} {checks(loss_fn=wrong_axis_cross_entropy)}")
Tensor.__getitem__ = overwriting_getitem
print(f"{'Embedding grad, full[idx] += g':<32} {checks()}")
