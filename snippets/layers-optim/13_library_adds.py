import numpy as np

from memory import graph
from nn import Linear

from tensor import Tensor

from minigpt import nn as lib_nn
from minigpt.tensor import Tensor as LibTensor
from minigpt.tensor import no_grad


x = np.random.default_rng(0).standard_normal((8, 32, 64))  # (B, T, C)
ours, lib64, lib32 = Linear(64, 64), lib_nn.Linear(64, 64).to(np.float64), lib_nn.Linear(64, 64)
lib64.weight.data, lib32.weight.data = ours.weight.data.copy(), ours.weight.data.astype(np.float32)
print("Linear(64, 64) on (8, 32, 64)     ops  kept for backward")
for name, layer, T in (("yours, float64          ", ours, Tensor), ("library, float64        ", lib64, LibTensor),
                       ("library, float32        ", lib32, LibTensor)):
    inp = T(x.astype(np.float32) if layer is lib32 else x, requires_grad=True)
    out = layer(inp)
    ops, size = graph(out)
    print(f"  {name}  {ops:>5}  {size / 1024:>7.0f} KiB")
    if layer is lib32:
        print("  float32 vs float64, max |diff| < 1e-5:", np.abs(out.data - lib64(LibTensor(x)).data).max() < 1e-5)
with no_grad():
    print("library, inside no_grad(): ops recorded", graph(lib64(LibTensor(x, requires_grad=True)))[0])
print("yours, no no_grad to turn it off: ops recorded", graph(ours(Tensor(x, requires_grad=True)))[0])

for name, T in (("yours  ", Tensor), ("library", LibTensor)):
    h = T(np.array([0.5]), requires_grad=True)
    out = h
    for _ in range(2000):
        out = out.tanh()  # a chain 2000 ops deep
    try:
        out.sum().backward()
        print(f"{name}: backward through 2000 tanh: grad {h.grad[0]:.4f}")
    except RecursionError:
        print(f"{name}: backward through 2000 tanh: RecursionError")
