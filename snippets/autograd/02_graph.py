from tensor import Tensor

a = Tensor(3.0, requires_grad=True)
b = Tensor(-2.0, requires_grad=True)
c = Tensor(8.0, requires_grad=True)
d = Tensor(5.0, requires_grad=True)
u = a * b
v = u + c
L = v * d  # L = (a * b + c) * d

name = {id(t): n for n, t in dict(a=a, b=b, c=c, d=d, u=u, v=v, L=L).items()}
for n, t in [("u", u), ("v", v), ("L", L)]:
    left, right = (name[id(p)] for p in t._prev)
    print(f"{n} = {left} {t._op} {right} = {t.data:>2g}   _op {t._op!r}  "
          f"_prev ({left}, {right})  requires_grad {t.requires_grad}")
print(f"a: a leaf, _prev {a._prev}, _backward {a._backward}")
k = Tensor(3.0) * Tensor(-2.0)
print(f"Tensor(3.0) * Tensor(-2.0) = {k}: "
      f"requires_grad {k.requires_grad}, _prev {k._prev}")
