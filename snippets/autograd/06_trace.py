import numpy as np

from tensor import Tensor


def expression():  # L = (a * b + c) * d
    a, b, c, d = (Tensor(x, requires_grad=True) for x in (3.0, -2.0, 8.0, 5.0))
    u = a * b
    v = u + c
    L = v * d
    return L, dict(a=a, b=b, c=c, d=d, u=u, v=v, L=L)


L, t = expression()
name = {id(x): n for n, x in t.items()}
order = L._topological_order()
print("topological order:", " ".join(name[id(x)] for x in order))
L.grad = np.ones_like(L.data)  # dL/dL = 1
print("step  node  g = dL/dnode  local derivatives       parents' grad after")
calls = 0
for step, node in enumerate(reversed(order), 1):
    n, g = name[id(node)], node.grad.item()
    if node._backward is None:
        print(f"{step:>4}  {n:<4}  {g:>12g}  (leaf)")
        continue
    before = [0.0 if p.grad is None else p.grad.item() for p in node._prev]
    node._backward(node.grad)  # parent.grad += g * d node / d parent
    calls += 1
    local = ", ".join(f"d{n}/d{name[id(p)]} = {(p.grad.item() - b) / g:g}"
                      for p, b in zip(node._prev, before))
    after = ", ".join(f"{name[id(p)]}: {p.grad.item():g}"
                      for p in node._prev)
    print(f"{step:>4}  {n:<4}  {g:>12g}  {local:<22}  {after}")

L2, t2 = expression()
L2.backward()
ops = sum(1 for x in order if x._prev)
print(f"ops in the forward pass: {ops}, _backward calls: {calls}")
same = all(t[k].grad.item() == t2[k].grad.item() for k in t)
print("same as L.backward():", same)
