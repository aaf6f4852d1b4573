import numpy as np
import torch
import torch.nn.functional as F

from optim import SGD, AdamW
from toy import V, TinyLM, pairs

from functional import cross_entropy

from minigpt import functional as lib_F
from minigpt import nn as lib_nn
from minigpt import optim as lib_optim

x, y = pairs()
xt, yt = torch.from_numpy(x), torch.from_numpy(y)


def twins(seed=0):
    """Our TinyLM and the same model in torch.nn, same float64 weights."""
    ours = TinyLM(C=16, rng=np.random.default_rng(seed))
    theirs = torch.nn.Sequential(torch.nn.Embedding(V, 16), torch.nn.Linear(16, V)).double()
    for p, q in zip(ours.parameters(), theirs.parameters()):  # wte, lm_head in order
        q.data = torch.from_numpy(p.data.copy())
    return ours, theirs


def gap(ours, theirs):
    return max(np.abs(p.data - q.detach().numpy()).max() for p, q in zip(ours.parameters(), theirs.parameters()))


ours, theirs = twins()
loss, tloss = cross_entropy(ours(x), y), F.cross_entropy(theirs(xt), yt)
loss.backward()
tloss.backward()
print("loss", f"{float(loss.data):.6f}", "torch", f"{tloss.item():.6f}")
print("every gradient, max |ours - torch| < 1e-10:",
      max(np.abs(p.grad - q.grad.numpy()).max() for p, q in zip(ours.parameters(), theirs.parameters())) < 1e-10)

optimisers = {
    "SGD   vs torch.optim.SGD  ": (lambda ps: SGD(ps, lr=1.0), lambda ps: torch.optim.SGD(ps, lr=1.0)),
    "AdamW vs torch.optim.AdamW": (lambda ps: AdamW(ps, lr=0.03, weight_decay=0.1),
                                   lambda ps: torch.optim.AdamW(ps, lr=0.03, weight_decay=0.1)),
    "AdamW vs torch.optim.Adam ": (lambda ps: AdamW(ps, lr=0.03, weight_decay=0.1),
                                   lambda ps: torch.optim.Adam(ps, lr=0.03, weight_decay=0.1)),  # L2, not AdamW
}
for name, (mine, ref) in optimisers.items():
    ours, theirs = twins()
    opt, topt = mine(ours.parameters()), ref(theirs.parameters())
    for _ in range(5):
        loss, tloss = cross_entropy(ours(x), y), F.cross_entropy(theirs(xt), yt)
        opt.zero_grad(), topt.zero_grad()
        loss.backward(), tloss.backward()
        opt.step(), topt.step()
    d = gap(ours, theirs)
    print(f"{name}: 5 steps, every weight max |diff| < 1e-10: {d < 1e-10}" + ("" if d < 1e-10 else f" ({d:.4f})"))


class LibTinyLM(lib_nn.Module):
    """TinyLM from src/minigpt/, the library lessons 5 on import: the same names, so the weights load as they are."""

    def __init__(self, C=16):
        super().__init__()
        self.wte, self.lm_head = lib_nn.Embedding(V, C), lib_nn.Linear(C, V)

    def forward(self, idx):
        return self.lm_head(self.wte(idx))


ours, lib = TinyLM(C=16, rng=np.random.default_rng(0)), LibTinyLM().to(np.float64)
lib.load_state_dict({name: p.data for name, p in ours.named_parameters()})
for model, opt, loss_fn in ((ours, AdamW(ours.parameters(), lr=0.03), cross_entropy),
                            (lib, lib_optim.AdamW(lib.parameters(), lr=0.03), lib_F.cross_entropy)):
    for _ in range(5):
        loss = loss_fn(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
d = max(np.abs(p.data - q.data).max() for p, q in zip(ours.parameters(), lib.parameters()))
print(f"AdamW vs src/minigpt/ : 5 steps, every weight max |diff| < 1e-12: {d < 1e-12}")
