import numpy as np
import torch

from minigpt import nn, optim

ours = nn.Linear(3, 2, rng=np.random.default_rng(0), std=0.5).to(np.float64)  # y = x @ W.T + b, W (out, in)
theirs = torch.nn.Linear(3, 2, dtype=torch.float64)
print("ours  :", [(name, p.shape, type(p).__name__) for name, p in ours.named_parameters()])
print("torch :", [(name, tuple(p.shape), type(p).__name__) for name, p in theirs.named_parameters()])

with torch.no_grad():  # W_torch <- W_ours, b_torch <- b_ours
    for name, p in theirs.named_parameters():
        p.copy_(torch.from_numpy(getattr(ours, name).data))

x = np.array([[1.0, -1.0, 2.0], [0.5, 0.0, -0.5]], dtype=np.float64)  # (2, 3)
opt = optim.SGD(ours.parameters(), lr=0.1)
opt_t = torch.optim.SGD(theirs.parameters(), lr=0.1)
for step in range(3):
    loss = (ours(x) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    loss_t = (theirs(torch.from_numpy(x)) ** 2).mean()
    opt_t.zero_grad()
    loss_t.backward()
    opt_t.step()
    print(f"step {step}: loss ours {loss.item():.6f}  torch {loss_t.item():.6f}")
diff = np.abs(ours.weight.data - theirs.weight.detach().numpy()).max()
print(f"weight after 3 steps: max |ours - torch| < 1e-12 (float64): {diff < 1e-12}")
