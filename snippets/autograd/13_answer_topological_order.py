import numpy as np

from minigpt_course.checks.autograd import check_topological_order
from tensor import Tensor


def topological_order(loss):
    order, visited = [], set()
    stack = [(loss, False)]
    while stack:
        t, parents_done = stack.pop()
        if parents_done:
            order.append(t)
        elif id(t) not in visited:
            visited.add(id(t))
            stack.append((t, True))
            stack.extend((p, False) for p in reversed(t._prev))
    return order


print(check_topological_order(topological_order, Tensor))

Tensor._topological_order = topological_order
x = Tensor(np.array(2.0), requires_grad=True)
s = x
for _ in range(5000):
    s = s + x
s.backward()
print(f"backward() with it, s = x + x + ... + x (5001 terms): x.grad = {x.grad}")
