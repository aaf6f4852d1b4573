import numpy as np
import torch

from tensor import Tensor

rng = np.random.default_rng(0)
ops = [  # (name, f, input shapes, inputs > 0)
    ("a + b", lambda a, b: a + b, [(3, 4), (3, 4)], False),
    ("a - b", lambda a, b: a - b, [(3, 4), (3, 4)], False),
    ("a * b", lambda a, b: a * b, [(3, 4), (3, 4)], False),
    ("a / b", lambda a, b: a / b, [(3, 4), (3, 4)], True),
    ("a ** 3.5", lambda a: a**3.5, [(3, 4)], True),
    ("-a, 2 - 3 * a, 1 / a", lambda a: -a + (2 - 3 * a) + 1 / a, [(3, 4)], True),
    ("exp", lambda a: a.exp(), [(3, 4)], False),
    ("log", lambda a: a.log(), [(3, 4)], True),
    ("tanh", lambda a: a.tanh(), [(3, 4)], False),
    ("relu", lambda a: a.relu(), [(3, 4)], False),
    ("sum()", lambda a: a.sum(), [(3, 4)], False),
    ("sum(1)", lambda a: a.sum(1), [(2, 3, 4)], False),
    ("sum(-1, keepdim)", lambda a: a.sum(-1, keepdim=True), [(2, 3, 4)], False),
    ("mean(), mean(0)", lambda a: a.mean() * a.mean(0), [(2, 3, 4)], False),
    ("a @ b", lambda a, b: a @ b, [(3, 4), (4, 5)], False),
    ("batched a @ b", lambda a, b: a @ b, [(2, 3, 4), (2, 4, 5)], False),
    ("x @ w.T", lambda x, w: x @ w.T, [(2, 3, 4), (5, 4)], False),
    ("(B,T,C) + (C,)", lambda a, b: a + b, [(2, 3, 4), (4,)], False),
    ("(2,1,4) * (3,1)", lambda a, b: a * b, [(2, 1, 4), (3, 1)], False),
    ("reshape", lambda a: a.reshape(4, 6), [(2, 3, 4)], False),
    ("permute", lambda a: a.permute(2, 0, 1), [(2, 3, 4)], False),
    ("transpose(0, 2)", lambda a: a.transpose(0, 2), [(2, 3, 4)], False),
    (".T", lambda a: a.T, [(3, 4)], False),
    ("a[[0, 2, 0]]", lambda a: a[[0, 2, 0]], [(3, 4)], False),
    ("a[:, 1:3]", lambda a: a[:, 1:3], [(3, 4)], False),
]


def compare(ours, theirs, shapes, positive):  # float64: max |ours - torch| of out, and of d sum(out * g) / d inputs
    arrays = [rng.standard_normal(s) for s in shapes]
    arrays = [np.abs(a) + 0.5 for a in arrays] if positive else arrays
    xs = [Tensor(a, requires_grad=True) for a in arrays]
    ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    out, tout = ours(*xs), theirs(*ts)
    g = rng.standard_normal(tout.shape)
    (out * Tensor(g)).sum().backward()
    tout.backward(torch.tensor(g))
    value_err = np.abs(out.data - tout.detach().numpy()).max()
    grad_err = max(np.abs(x.grad - t.grad.numpy()).max() for x, t in zip(xs, ts))
    return value_err, grad_err


def tanh_bug(self):  # control: d tanh/dx = 1 - tanh  (right: 1 - tanh^2)
    out = np.tanh(self.data)
    return Tensor._make(out, (self,), lambda g: self._accumulate(g * (1.0 - out)), "tanh")


def row(name, v, g):  # err < 1e-12 -> "< 1e-12"
    shown = [f"{e:.0e}" if e >= 1e-12 else "< 1e-12" for e in (v, g)]
    print(f"{name:22} {shown[0]:>11} {shown[1]:>11}  {v < 1e-10 and g < 1e-10}")


print(f"{'op':22} {'value':>11} {'gradient':>11}  ok: both < 1e-10")
agree = 0
for name, f, shapes, positive in ops:
    v, g = compare(f, f, shapes, positive)
    row(name, v, g)
    agree += v < 1e-10 and g < 1e-10
Tensor.tanh = tanh_bug
row("control: tanh bug", *compare(lambda a: a.tanh(), lambda a: a.tanh(), [(3, 4)], False))
print(f"ops that agree with torch: {agree} of {len(ops)}")
