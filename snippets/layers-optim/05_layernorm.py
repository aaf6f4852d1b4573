import numpy as np
import torch

from nn import LayerNorm

from tensor import Tensor

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
print("\nours vs torch.nn.LayerNorm, max |diff| < 1e-12:", np.abs(ln(Tensor(x)).data - want).max() < 1e-12)

mu, var1 = x.mean(-1, keepdims=True), x.var(-1, ddof=1, keepdims=True)  # var1 divides by C - 1
wrong = (x - mu) / np.sqrt(var1 + ln.eps) * ln.weight.data + ln.bias.data
print("with the unbiased variance (ddof=1, torch.var's default), max |diff|:", f"{np.abs(wrong - want).max():.3f}")
