import numpy as np

from tensor import Tensor


def expression(a=3.0, b=-2.0, c=8.0, d=5.0):
    a, b, c, d = (Tensor(x, requires_grad=True) for x in (a, b, c, d))
    u = a * b
    v = u + c
    L = v * d
    return dict(a=a, b=b, c=c, d=d, u=u, v=v, L=L)


t = expression()
name = {id(x): n for n, x in t.items()}
local = {}
for n in ("u", "v", "L"):
    for p in t[n]._prev:
        p.grad = None
    t[n]._backward(np.ones_like(t[n].data))  # g = 1
    for p in t[n]._prev:
        local[n, name[id(p)]] = p.grad.item()
    print("   ".join(f"d{n}/d{name[id(p)]} = {p.grad.item():g}"
                     for p in t[n]._prev))

Lv, vu, ua = local["L", "v"], local["v", "u"], local["u", "a"]
chain = Lv * vu * ua  # dL/da = dL/dv * dv/du * du/da
h = 1e-6
nudged = (expression(a=3.0 + h)["L"].data - expression()["L"].data) / h
print(f"dL/da = dL/dv * dv/du * du/da = {Lv:g} * {vu:g} * ({ua:g}) = {chain:g}")
print(f"nudging a by {h:g}: dL/da ~ {nudged:.4f}")
