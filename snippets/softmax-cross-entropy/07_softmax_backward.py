import numpy as np

from tensor import Tensor

np.set_printoptions(precision=4, suppress=True)
rng = np.random.default_rng(0)
x, g = rng.standard_normal(4), rng.standard_normal(4)  # logits (V,), upstream gradient d loss / d s (V,)


def softmax(a):
    return Tensor(a).softmax(-1).data


s = softmax(x)
J = np.diag(s) - np.outer(s, s)  # J[i, j] = d s_i / d x_j = s_i ([i = j] - s_j), (V, V)
print("Jacobian of softmax (symmetric, every row sums to 0):")
print(J)
h = 1e-6
numeric = np.stack([(softmax(x + e) - softmax(x - e)) / (2 * h) for e in np.eye(4) * h], axis=1)  # column j: d s / d x_j
print("central differences agree with J:", np.abs(numeric - J).max() < 1e-8)

t = Tensor(x, requires_grad=True)
(t.softmax(-1) * Tensor(g)).sum().backward()  # d loss / d x = J^T g
print("J^T g, with the whole matrix:", J.T @ g)
print("s * (g - sum(g * s))        :", s * (g - (g * s).sum()))
print("Tensor.softmax's backward   :", t.grad)
for V in (69, 6831):
    print(f"V = {V:>5,}: the Jacobian of one row holds {V * V:>10,} numbers ({V * V * 8 / 1e6:5.1f} MB), s and g {2 * V:>6,}")
