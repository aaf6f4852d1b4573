import numpy as np
import torch

from minigpt.tensor import Tensor

xs = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])  # (2, 3)
ws = np.array([[0.1], [-0.2], [0.3]])  # (3, 1)

x = Tensor(xs)
w = Tensor(ws, requires_grad=True)
loss = (x @ w).tanh().sum()  # sum(tanh(x @ w)), shape ()
loss.backward()

xt = torch.tensor(xs)
wt = torch.tensor(ws, requires_grad=True)
loss_t = (xt @ wt).tanh().sum()
loss_t.backward()

print(f"{'':14s}{'ours':>28s}  {'torch':>28s}")
print(f"{'dtype':14s}{str(w.dtype):>28s}  {str(wt.dtype):>28s}")
print(f"{'requires_grad':14s}{str(w.requires_grad):>28s}  {str(wt.requires_grad):>28s}")
print(f"{'loss':14s}{loss.item():>28.6f}  {loss_t.item():>28.6f}")
print(f"{'w.grad':14s}{str(np.round(w.grad.ravel(), 6)):>28s}  {str(np.round(wt.grad.numpy().ravel(), 6)):>28s}")
print(f"{'x.grad':14s}{str(x.grad):>28s}  {str(xt.grad):>28s}")
print(f"same gradient (float64, 1e-12): {np.allclose(w.grad, wt.grad.numpy(), rtol=0, atol=1e-12)}")
print(f"torch records the graph too: loss_t.grad_fn = {type(loss_t.grad_fn).__name__}")
