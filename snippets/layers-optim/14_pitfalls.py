import numpy as np
import torch

from nn import Embedding, Linear, Module, Parameter
from optim import SGD

from tensor import Tensor

from minigpt import nn as lib_nn
from minigpt.tensor import Tensor as LibTensor

q = Parameter([1.0, -2.0])
opt = SGD([q], lr=0.1)
for step in range(3):  # L = sum(q^2), dL/dq = 2q; no opt.zero_grad()
    (q * q).sum().backward()
    print(f"no zero_grad, step {step}: grad {q.grad}  true gradient 2q {2 * q.data}")
    opt.step()

rng = np.random.default_rng(0)
print()
x = np.ones((2, 3))  # (N, 3), but the layers expect 4 features
for name, layer, inp in (("yours", Linear(4, 5, rng=rng), Tensor(x)), ("library", lib_nn.Linear(4, 5), LibTensor(x)),
                         ("torch", torch.nn.Linear(4, 5), torch.ones(2, 3))):
    try:
        layer(inp)
    except (ValueError, RuntimeError) as e:
        print(f"{name} Linear(4, 5) on (2, 3)\n  {type(e).__name__}: {e}")

idx = np.array([3, 6])  # id 6 in a table of 6 rows (ids 0..5)
for name, layer, inp in (("yours", Embedding(6, 2, rng=rng), idx), ("library", lib_nn.Embedding(6, 2), idx),
                         ("torch", torch.nn.Embedding(6, 2), torch.from_numpy(idx))):
    try:
        layer(inp)
    except (IndexError, ValueError) as e:
        print(f"{name} Embedding(6, 2) on ids [3, 6]\n  {type(e).__name__}: {e}")


class Stack(Module):
    def __init__(self):
        self.layers = [Linear(4, 4, rng=rng), Linear(4, 4, rng=rng)]  # a plain list


class TorchStack(torch.nn.Module):
    def __init__(self, keep):
        super().__init__()
        self.layers = keep([torch.nn.Linear(4, 4), torch.nn.Linear(4, 4)])


print("\nlayers kept in a plain list, parameters found:")
print("  yours (Module)            ", len(Stack().parameters()))
print("  torch (nn.Module)         ", len(list(TorchStack(list).parameters())))
print("  torch.nn.ModuleList       ", len(list(TorchStack(torch.nn.ModuleList).parameters())))
print("  minigpt.nn.ModuleList     ", len(lib_nn.ModuleList([lib_nn.Linear(4, 4), lib_nn.Linear(4, 4)]).parameters()))
