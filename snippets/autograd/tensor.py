"""The Tensor of lesson 2: numpy data plus reverse-mode autograd.

Each op computes its output and defines, right beside it, a ``_backward(g)`` that gets the gradient of
the loss with respect to the output and adds (+=) the gradient with respect to each input (the local
derivative times g). ``backward()`` orders the graph topologically and runs them in reverse: the chain
rule. Gradients of broadcast inputs are not summed back yet: lesson 4 adds that.
"""

from __future__ import annotations

import numpy as np


class Tensor:
    # --8<-- [start:init]
    def __init__(self, data, requires_grad: bool = False):
        self.data = np.asarray(data, dtype=np.float64)
        self.grad: np.ndarray | None = None  # d loss / d self, filled by backward()
        self.requires_grad = requires_grad
        self._prev: tuple[Tensor, ...] = ()  # the tensors this one was computed from
        self._backward = None  # passes this tensor's gradient on to _prev
        self._op = ""  # which op made it, for printing the graph

    @staticmethod
    def _make(data, parents, backward, op: str) -> "Tensor":
        """An op's output; it remembers its parents and its backward only if some parent needs a gradient."""
        out = Tensor(data)
        if any(p.requires_grad for p in parents):
            out.requires_grad, out._prev, out._backward, out._op = True, tuple(parents), backward, op
        return out
    # --8<-- [end:init]

    # --8<-- [start:accumulate]
    def _accumulate(self, g: np.ndarray) -> None:
        """grad += g: a tensor used twice gets the sum of both gradients."""
        if not self.requires_grad:
            return
        if g.shape != self.shape:
            raise ValueError(f"gradient of shape {g.shape} for a tensor of shape {self.shape}: "
                             f"broadcast inputs need their gradient summed back (lesson 4)")
        self.grad = g.copy() if self.grad is None else self.grad + g
    # --8<-- [end:accumulate]

    @property
    def shape(self) -> tuple[int, ...]:
        return self.data.shape

    def __repr__(self) -> str:
        return f"Tensor({np.array2string(self.data, precision=4)}{', requires_grad=True' if self.requires_grad else ''})"

    def _lift(self, other) -> "Tensor":
        return other if isinstance(other, Tensor) else Tensor(other)

    # --8<-- [start:add_mul]
    def __add__(self, other) -> "Tensor":
        other = self._lift(other)

        def _backward(g):  # d(a + b)/da = 1, d(a + b)/db = 1
            self._accumulate(g)
            other._accumulate(g)

        return Tensor._make(self.data + other.data, (self, other), _backward, "+")

    def __mul__(self, other) -> "Tensor":
        other = self._lift(other)

        def _backward(g):  # d(a * b)/da = b, d(a * b)/db = a
            self._accumulate(g * other.data)
            other._accumulate(g * self.data)

        return Tensor._make(self.data * other.data, (self, other), _backward, "*")
    # --8<-- [end:add_mul]

    # --8<-- [start:more_ops]
    def __neg__(self) -> "Tensor":
        return self * -1.0

    def __sub__(self, other) -> "Tensor":
        return self + (-self._lift(other))

    def __pow__(self, p: float) -> "Tensor":
        def _backward(g):  # d(x^p)/dx = p x^(p-1)
            self._accumulate(g * p * self.data ** (p - 1))

        return Tensor._make(self.data**p, (self,), _backward, f"**{p}")

    def __truediv__(self, other) -> "Tensor":
        return self * self._lift(other) ** -1.0

    def exp(self) -> "Tensor":
        out = np.exp(self.data)

        def _backward(g):  # d(e^x)/dx = e^x
            self._accumulate(g * out)

        return Tensor._make(out, (self,), _backward, "exp")

    def log(self) -> "Tensor":
        def _backward(g):  # d(ln x)/dx = 1/x
            self._accumulate(g / self.data)

        return Tensor._make(np.log(self.data), (self,), _backward, "log")

    def tanh(self) -> "Tensor":
        out = np.tanh(self.data)

        def _backward(g):  # d(tanh x)/dx = 1 - tanh(x)^2
            self._accumulate(g * (1.0 - out**2))

        return Tensor._make(out, (self,), _backward, "tanh")

    def relu(self) -> "Tensor":
        def _backward(g):  # 1 where x > 0, else 0
            self._accumulate(g * (self.data > 0))

        return Tensor._make(np.maximum(self.data, 0.0), (self,), _backward, "relu")

    def sum(self, dim=None, keepdim: bool = False) -> "Tensor":
        def _backward(g):  # every summed element gets the gradient of the sum
            if dim is not None and not keepdim:
                g = np.expand_dims(g, dim)
            self._accumulate(np.broadcast_to(g, self.shape).copy())

        return Tensor._make(self.data.sum(axis=dim, keepdims=keepdim), (self,), _backward, "sum")

    def __matmul__(self, other) -> "Tensor":
        other = self._lift(other)

        def _backward(g):  # C = A @ B: dA = dC @ B^T, dB = A^T @ dC
            self._accumulate(g @ np.swapaxes(other.data, -1, -2))
            other._accumulate(np.swapaxes(self.data, -1, -2) @ g)

        return Tensor._make(self.data @ other.data, (self, other), _backward, "@")
    # --8<-- [end:more_ops]

    __radd__ = __add__
    __rmul__ = __mul__

    def __rsub__(self, other) -> "Tensor":
        return self._lift(other) - self

    def __rtruediv__(self, other) -> "Tensor":
        return self._lift(other) / self

    # --8<-- [start:backward]
    def _topological_order(self) -> list["Tensor"]:
        """This tensor and every tensor it was computed from, each one after all of its parents."""
        order, visited = [], set()

        def visit(t: Tensor) -> None:  # depth first: a tensor goes after everything it was computed from
            if id(t) not in visited:
                visited.add(id(t))
                for parent in t._prev:
                    visit(parent)
                order.append(t)

        visit(self)
        return order

    def backward(self) -> None:
        """Fill .grad of every tensor this scalar (the loss) was computed from."""
        if not self.requires_grad:
            raise ValueError("backward(): no tensor this one was computed from has requires_grad=True, "
                             "so there is nothing to differentiate")
        if self.data.size != 1:
            raise ValueError(f"backward() starts from one number, the loss; this tensor has shape {self.shape}: "
                             f"reduce it first, e.g. .sum()")
        order = self._topological_order()
        for t in order:  # results of ops start again from zero; leaves keep adding up until zero_grad()
            if t._prev:
                t.grad = None
        self.grad = np.ones_like(self.data)  # d loss / d loss = 1
        for t in reversed(order):  # chain rule, from the loss back to the leaves
            if t._backward is not None:
                t._backward(t.grad)
    # --8<-- [end:backward]

    def zero_grad(self) -> None:
        self.grad = None
