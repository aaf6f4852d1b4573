import numpy as np
import torch
from memory import graph  # what backward keeps, counted on the graph
from window_mlp import WindowMLP

from minigpt import nn as lib_nn
from minigpt.tensor import Tensor as LibTensor
from minigpt_course.lessons import lesson_module

nn = lesson_module("layers-optim", "nn")  # your nn.py, LayerNorm added
LayerNorm, Tensor = nn.LayerNorm, nn.Tensor

ln = LayerNorm(4)
x = np.array([[1.0, 2.0, 3.0, 4.0], [10.0, 20.0, 30.0, 40.0], [-3.0, 0.0, 0.0, 3.0]])  # (N, C)
out = ln(Tensor(x)).data
print("each row to mean 0, variance 1:")
print(out.round(4))
print("row means", out.mean(-1).round(6) + 0.0, "row variances", out.var(-1).round(4))

rng = np.random.default_rng(0)
ln.weight.data, ln.bias.data = rng.standard_normal(4), rng.standard_normal(4)  # learned gain and shift
ref = torch.nn.LayerNorm(4).double()
with torch.no_grad():
    ref.weight.copy_(torch.from_numpy(ln.weight.data))
    ref.bias.copy_(torch.from_numpy(ln.bias.data))
want = ref(torch.from_numpy(x)).detach().numpy()
print("\nyours vs torch.nn.LayerNorm, max |diff| < 1e-12:", np.abs(ln(Tensor(x)).data - want).max() < 1e-12)

mu, var1 = x.mean(-1, keepdims=True), x.var(-1, ddof=1, keepdims=True)  # var1 divides by C - 1
wrong = (x - mu) / np.sqrt(var1 + ln.eps) * ln.weight.data + ln.bias.data
print("with the unbiased variance (ddof=1, torch.var's default), max |diff|:", f"{np.abs(wrong - want).max():.3f}")

print("\nfresh WindowMLP, 256 windows: the standard deviation of what tanh would read")
for k in (1, 4, 16):
    model = WindowMLP(69, k, rng=np.random.default_rng(0)).to(np.float64)
    idx = np.random.default_rng(1).integers(0, 69, (256, k))  # (B, k)
    a = model.fc(model.wte(idx).reshape(256, -1))  # (B, k*d) -> (B, H)
    print(f"  window {k:>2}: fc output {a.data.std():.4f}   after ln {model.ln(a).data.std():.4f}")

x = np.random.default_rng(0).standard_normal((8, 32, 64))  # (B, T, C)
for name, layer, T in (("yours, composed ", LayerNorm(64), Tensor),
                       ("library, fused  ", lib_nn.LayerNorm(64).to(np.float64), LibTensor)):
    ops, kept = graph(layer(T(x, requires_grad=True)))
    print(f"LayerNorm on (8, 32, 64), {name}: ops recorded {ops:>2}, kept for backward {kept / 1024:.0f} KiB")
