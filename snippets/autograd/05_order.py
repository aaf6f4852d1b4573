import numpy as np

from tensor import Tensor


def branches():  # h = x * w,  m = h * k,  L = h + m
    x, w, k = (Tensor(v, requires_grad=True) for v in (2.0, 3.0, 4.0))
    h = x * w
    m = h * k
    L = h + m
    return L, dict(x=x, w=w, k=k, h=h, m=m, L=L)


def breadth_first(loss):
    order, seen, queue = [], {id(loss)}, [loss]
    while queue:
        t = queue.pop(0)
        order.append(t)
        for p in t._prev:
            if id(p) not in seen:
                seen.add(id(p))
                queue.append(p)
    return order


def run(loss, order):
    loss.grad = np.ones_like(loss.data)
    passed_on = {}
    for t in order:
        if t._backward is not None:
            passed_on[id(t)] = t.grad.item()
            t._backward(t.grad)
    return passed_on


def reversed_topological(loss):
    return list(reversed(loss._topological_order()))


for what, order_of in [("reversed topological", reversed_topological),
                       ("breadth first", breadth_first)]:
    L, t = branches()
    name = {id(v): n for n, v in t.items()}
    order = order_of(L)
    passed_on = run(L, order)
    h, x = t["h"], t["x"]
    print(f"{what:<21} {' '.join(name[id(v)] for v in order)}   "
          f"h passed on {passed_on[id(h)]:g}, h.grad at the end "
          f"{h.grad.item():g}, dL/dx = {x.grad.item():g}")
