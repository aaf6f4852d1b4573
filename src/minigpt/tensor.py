"""A tensor with reverse-mode autograd, built on numpy.

Every op computes its output with numpy and defines, right beside it, a local
``_backward(g)`` that receives the gradient of the loss with respect to the output
and adds (``+=``) the gradient with respect to each input. ``Tensor.backward()``
sorts the graph topologically and runs those functions in reverse: the chain rule.

Names follow PyTorch (``reshape``, ``permute``, ``masked_fill``, ``softmax(dim=-1)``)
so that what a reader learns here carries over to torch. Part 1 of the course builds
this file lesson by lesson (``snippets/<lesson>/tensor.py``).
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

import numpy as np

_grad_enabled = True


class no_grad:
    """Context manager that stops recording the graph (like ``torch.no_grad``)."""

    def __enter__(self) -> "no_grad":
        global _grad_enabled
        self._previous = _grad_enabled
        _grad_enabled = False
        return self

    def __exit__(self, *exc) -> None:
        global _grad_enabled
        _grad_enabled = self._previous


def contiguous_strides(shape: Sequence[int]) -> tuple[int, ...]:
    """Strides, in elements, of a row-major (C-order) array of this shape.

    The last dimension moves by 1; each earlier one by the product of the sizes after it:
    ``contiguous_strides((2, 3, 4)) == (12, 4, 1)``.
    """
    strides, step = [], 1
    for size in reversed(tuple(shape)):
        strides.append(step)
        step *= max(int(size), 1)
    return tuple(reversed(strides))


def flat_offset(index: Sequence[int], strides: Sequence[int], offset: int = 0) -> int:
    """Position in the flat storage of element ``index``: ``offset + sum(i * s)``."""
    if len(index) != len(strides):
        raise ValueError(f"index has {len(index)} coordinates but strides has {len(strides)}")
    return offset + sum(int(i) * int(s) for i, s in zip(index, strides))


def unbroadcast(g: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Sum the gradient ``g`` back to ``shape``: undo numpy broadcasting in the backward pass.

    Broadcasting copied the input along the dims it added in front and along its size-1 dims,
    so each copy's gradient must be added up: (B, T, C) -> (C,) sums over B and T.
    """
    if g.shape == shape:
        return g
    extra = g.ndim - len(shape)
    if extra > 0:  # dims broadcasting added in front
        g = g.sum(axis=tuple(range(extra)))
    stretched = tuple(i for i, size in enumerate(shape) if size == 1 and g.shape[i] != 1)
    if stretched:  # dims of size 1 that broadcasting stretched
        g = g.sum(axis=stretched, keepdims=True)
    return g.reshape(shape)


def _shape_arg(shape) -> tuple[int, ...]:
    """Accept both ``reshape(2, 3)`` and ``reshape((2, 3))``."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = shape[0]
    return tuple(int(s) for s in shape)


def _is_float(dtype) -> bool:
    return np.issubdtype(dtype, np.floating)


class Tensor:
    """An n-dimensional array that remembers how it was computed.

    ``Tensor(data)``: numpy arrays keep their float dtype (float64 stays float64, which
    the gradient checks use); Python numbers and lists become float32. Integer arrays
    are accepted as data only (e.g. token ids), they cannot require a gradient.
    """

    __array_ufunc__ = None  # make `ndarray + Tensor` call Tensor.__radd__

    def __init__(self, data, requires_grad: bool = False, dtype=None):
        if isinstance(data, Tensor):
            data = data.data
        from_numpy = isinstance(data, (np.ndarray, np.generic))
        data = np.asarray(data, dtype=dtype)
        if dtype is None and _is_float(data.dtype) and not (from_numpy and data.dtype in (np.float32, np.float64)):
            data = data.astype(np.float32)
        if requires_grad and not _is_float(data.dtype):
            raise TypeError(f"only floating-point tensors can require a gradient, got dtype {data.dtype}")
        self.data: np.ndarray = data
        self.grad: np.ndarray | None = None
        self._grad_owned = False  # whether self.grad is an array of our own (see _accumulate)
        self.requires_grad = bool(requires_grad)
        self._prev: tuple[Tensor, ...] = ()  # the tensors this one was computed from
        self._backward: Callable[[np.ndarray], None] | None = None
        self._op = ""

    @staticmethod
    def _make(data: np.ndarray, parents: tuple["Tensor", ...], backward, op: str) -> "Tensor":
        """Wrap an op's output; record parents and backward only when a gradient is needed."""
        out = Tensor(data)
        if _grad_enabled and any(p.requires_grad for p in parents):
            out.requires_grad = True
            out._prev = tuple(p for p in parents if p.requires_grad)
            out._backward = backward
            out._op = op
        return out

    def _accumulate(self, g: np.ndarray) -> None:
        """Add ``g`` (summed back to this tensor's shape) into ``self.grad``: +=, never =."""
        if not self.requires_grad:
            return
        g = unbroadcast(np.asarray(g), self.shape)
        if self.grad is None:
            # speed-up (about a fifth of a training step): an intermediate result keeps g itself, and copies
            # only when a second gradient arrives. A leaf always copies: optimizers change .grad in place.
            self._grad_owned = not self._prev or g.dtype != self.dtype
            self.grad = np.array(g, dtype=self.dtype) if self._grad_owned else g
        elif self._grad_owned:
            self.grad += g
        else:  # g is borrowed and may be another tensor's gradient too: never write into it
            self.grad = self.grad + g
            self._grad_owned = True

    def _lift(self, other) -> "Tensor":
        """Turn a number or array into a Tensor of our dtype (so 0.5 * x stays float32)."""
        if isinstance(other, Tensor):
            return other
        arr = np.asarray(other)
        if _is_float(self.dtype):
            arr = arr.astype(self.dtype, copy=False)
        return Tensor(arr)

    def backward(self, gradient=None) -> None:
        """Fill ``.grad`` of every tensor this one was computed from (chain rule)."""
        if not self.requires_grad:
            raise ValueError("backward(): this tensor does not require a gradient (no graph was recorded)")
        if gradient is None:
            if self.data.size != 1:
                raise ValueError(
                    f"backward() without a gradient needs a scalar (one element); this tensor has "
                    f"shape {self.shape}: pass gradient= of that shape or reduce it first (e.g. .sum())"
                )
            gradient = np.ones_like(self.data)  # d loss / d loss = 1
        else:
            gradient = np.asarray(gradient.data if isinstance(gradient, Tensor) else gradient, dtype=self.dtype)
            if gradient.shape != self.shape:
                raise ValueError(f"backward(): gradient has shape {gradient.shape}, expected {self.shape}")
        order = self._topological_order()
        for node in order:  # intermediate results start from zero; leaves keep accumulating
            if node._prev:
                node.grad = None
        self._accumulate(gradient)
        # chain rule, from the output back to the leaves: each node's gradient is complete
        # before its own _backward passes it on, because every later use of it ran first
        for node in reversed(order):
            if node._backward is not None and node.grad is not None:
                node._backward(node.grad)

    def _topological_order(self) -> list["Tensor"]:
        """This tensor and all it depends on, each after every tensor it was computed from.

        A depth-first walk with an explicit stack instead of recursion, so a graph thousands
        of ops deep does not hit Python's recursion limit. It reads only ``_prev``: the exercise
        checks sort the reader's own tensors with it too.
        """
        order: list[Tensor] = []
        visited: set[int] = set()
        stack: list[tuple[Tensor, bool]] = [(self, False)]
        while stack:
            node, inputs_done = stack.pop()
            if inputs_done:  # every input of node is already in order
                order.append(node)
            elif id(node) not in visited:
                visited.add(id(node))
                stack.append((node, True))
                stack.extend((p, False) for p in node._prev)
        return order

    # --- plain properties -----------------------------------------------------------

    @property
    def shape(self) -> tuple[int, ...]:
        return self.data.shape

    @property
    def dtype(self):
        return self.data.dtype

    @property
    def ndim(self) -> int:
        return self.data.ndim

    def size(self, dim: int | None = None):
        return self.shape if dim is None else self.shape[dim]

    def numel(self) -> int:
        return int(self.data.size)

    def __len__(self) -> int:
        return len(self.data)

    def item(self) -> float:
        return self.data.item()

    def numpy(self) -> np.ndarray:
        return self.data

    def __array__(self, dtype=None, copy=None) -> np.ndarray:  # np.asarray(tensor) -> its data
        return self.data if dtype is None else self.data.astype(dtype)

    def tolist(self):
        return self.data.tolist()

    def detach(self) -> "Tensor":
        return Tensor(self.data)

    def zero_grad(self) -> None:
        self.grad = None

    def __repr__(self) -> str:
        grad = ", requires_grad=True" if self.requires_grad else ""
        return f"Tensor({np.array2string(self.data, precision=4, separator=', ')}, dtype={self.dtype}{grad})"

    # --- storage: strides and contiguity --------------------------------------------

    # --8<-- [start:storage]
    def stride(self, dim: int | None = None):
        """Steps, in elements, to move one position along each dimension (like torch)."""
        strides = tuple(s // self.data.itemsize for s in self.data.strides)
        return strides if dim is None else strides[dim]

    def is_contiguous(self) -> bool:
        """True when the elements lie in row-major order with no gaps."""
        return bool(self.data.flags.c_contiguous)

    def contiguous(self) -> "Tensor":
        """This tensor if already contiguous, else a row-major copy."""
        if self.is_contiguous():
            return self

        def _backward(g):
            self._accumulate(g)

        return Tensor._make(np.ascontiguousarray(self.data), (self,), _backward, "contiguous")
    # --8<-- [end:storage]

    # --- elementwise arithmetic (with broadcasting) ---------------------------------

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

    def __sub__(self, other) -> "Tensor":
        other = self._lift(other)

        def _backward(g):
            self._accumulate(g)
            other._accumulate(-g)

        return Tensor._make(self.data - other.data, (self, other), _backward, "-")

    def __truediv__(self, other) -> "Tensor":
        other = self._lift(other)

        def _backward(g):  # d(a / b)/da = 1/b, d(a / b)/db = -a/b^2
            self._accumulate(g / other.data)
            other._accumulate(-g * self.data / (other.data * other.data))

        return Tensor._make(self.data / other.data, (self, other), _backward, "/")

    def __pow__(self, p: float) -> "Tensor":
        if isinstance(p, bool) or not isinstance(p, (int, float)):
            raise TypeError(f"x ** p: p must be a number, got {type(p).__name__}")

        def _backward(g):  # d(x^p)/dx = p x^(p-1)
            self._accumulate(g * p * self.data ** (p - 1))

        return Tensor._make(self.data**p, (self,), _backward, f"**{p}")

    def __neg__(self) -> "Tensor":
        def _backward(g):
            self._accumulate(-g)

        return Tensor._make(-self.data, (self,), _backward, "neg")

    def __radd__(self, other) -> "Tensor":
        return self + other

    def __rsub__(self, other) -> "Tensor":
        return self._lift(other) - self

    def __rmul__(self, other) -> "Tensor":
        return self * other

    def __rtruediv__(self, other) -> "Tensor":
        return self._lift(other) / self

    def __matmul__(self, other) -> "Tensor":
        return self.matmul(other)

    def __rmatmul__(self, other) -> "Tensor":
        return self._lift(other).matmul(self)

    # --- matrix product -------------------------------------------------------------

    def matmul(self, other) -> "Tensor":
        """Matrix product of the last two dims; leading (batch) dims broadcast."""
        a, b = self, self._lift(other)
        if a.ndim < 2 or b.ndim < 2:
            raise ValueError(f"matmul: both operands need at least 2 dimensions, got shapes {a.shape} and {b.shape}")
        if a.shape[-1] != b.shape[-2]:
            raise ValueError(
                f"matmul: shapes {a.shape} and {b.shape} do not match: the last dim of the first "
                f"({a.shape[-1]}) must equal the second-to-last dim of the second ({b.shape[-2]})"
            )
        try:
            np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
        except ValueError:
            raise ValueError(
                f"matmul: shapes {a.shape} and {b.shape}: batch dims {a.shape[:-2]} and "
                f"{b.shape[:-2]} cannot be broadcast together"
            ) from None

        def _backward(g):  # C = A @ B: dA = dC @ B^T, dB = A^T @ dC (summed over broadcast batch dims)
            a._accumulate(g @ np.swapaxes(b.data, -1, -2))  # (..., M, N) @ (..., N, K)
            b._accumulate(np.swapaxes(a.data, -1, -2) @ g)  # (..., K, M) @ (..., M, N)

        return Tensor._make(a.data @ b.data, (a, b), _backward, "@")

    # --- reductions -----------------------------------------------------------------

    def sum(self, dim=None, keepdim: bool = False) -> "Tensor":
        out_data = np.asarray(self.data.sum(axis=dim, keepdims=keepdim))

        def _backward(g):  # every summed element gets the gradient of the sum
            if dim is not None and not keepdim:
                g = np.expand_dims(g, dim)
            self._accumulate(np.broadcast_to(g, self.shape))

        return Tensor._make(out_data, (self,), _backward, "sum")

    def mean(self, dim=None, keepdim: bool = False) -> "Tensor":
        out_data = np.asarray(self.data.mean(axis=dim, keepdims=keepdim))
        count = self.data.size // max(out_data.size, 1) if self.data.size else 0

        def _backward(g):
            if dim is not None and not keepdim:
                g = np.expand_dims(g, dim)
            self._accumulate(np.broadcast_to(g / count, self.shape))

        return Tensor._make(out_data, (self,), _backward, "mean")

    def max(self, dim: int | None = None, keepdim: bool = False) -> "Tensor":
        """Largest value (over everything, or along ``dim``); values only."""
        if dim is None:
            out_data = np.asarray(self.data.max())

            def _backward(g):  # ties share the gradient equally (like torch.max())
                hit = self.data == out_data
                self._accumulate(hit * (g / hit.sum()))

            return Tensor._make(out_data, (self,), _backward, "max")
        arg = np.expand_dims(self.data.argmax(axis=dim), dim)
        out_data = np.take_along_axis(self.data, arg, axis=dim)
        if not keepdim:
            out_data = np.squeeze(out_data, axis=dim)

        def _backward(g):  # the gradient goes to the position of the max
            full = np.zeros_like(self.data)
            np.put_along_axis(full, arg, g if keepdim else np.expand_dims(g, dim), axis=dim)
            self._accumulate(full)

        return Tensor._make(out_data, (self,), _backward, "max")

    # --- elementwise functions ------------------------------------------------------

    def exp(self) -> "Tensor":
        out_data = np.exp(self.data)

        def _backward(g):
            self._accumulate(g * out_data)

        return Tensor._make(out_data, (self,), _backward, "exp")

    def log(self) -> "Tensor":
        def _backward(g):
            self._accumulate(g / self.data)

        return Tensor._make(np.log(self.data), (self,), _backward, "log")

    def tanh(self) -> "Tensor":
        out_data = np.tanh(self.data)

        def _backward(g):
            self._accumulate(g * (1.0 - out_data * out_data))

        return Tensor._make(out_data, (self,), _backward, "tanh")

    def relu(self) -> "Tensor":
        def _backward(g):
            self._accumulate(g * (self.data > 0))

        return Tensor._make(np.maximum(self.data, 0), (self,), _backward, "relu")

    def gelu(self) -> "Tensor":
        """GELU, tanh approximation: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""
        x = self.data
        c = math.sqrt(2.0 / math.pi)  # a Python float, so float32 stays float32
        t = np.tanh(c * (x + 0.044715 * x * x * x))

        def _backward(g):
            dt = (1.0 - t * t) * (c * (1.0 + 3 * 0.044715 * x * x))
            self._accumulate(g * (0.5 * (1.0 + t) + 0.5 * x * dt))

        return Tensor._make(0.5 * x * (1.0 + t), (self,), _backward, "gelu")

    def softmax(self, dim: int = -1) -> "Tensor":
        """exp(x) / sum(exp(x)) along ``dim``; the max is subtracted first (no overflow)."""
        e = np.exp(self.data - self.data.max(axis=dim, keepdims=True))
        s = e / e.sum(axis=dim, keepdims=True)

        def _backward(g):  # Jacobian-vector product: s * (g - sum(g * s))
            self._accumulate(s * (g - (g * s).sum(axis=dim, keepdims=True)))

        return Tensor._make(s, (self,), _backward, "softmax")

    def log_softmax(self, dim: int = -1) -> "Tensor":
        """x - log(sum(exp(x))) along ``dim``, computed as (x - max) - log(sum(exp(x - max)))."""
        shifted = self.data - self.data.max(axis=dim, keepdims=True)
        out_data = shifted - np.log(np.exp(shifted).sum(axis=dim, keepdims=True))

        def _backward(g):  # g - softmax(x) * sum(g)
            self._accumulate(g - np.exp(out_data) * g.sum(axis=dim, keepdims=True))

        return Tensor._make(out_data, (self,), _backward, "log_softmax")

    def masked_fill(self, mask, value: float) -> "Tensor":
        """Copy with ``value`` wherever ``mask`` (broadcast to our shape) is True."""
        mask = np.asarray(mask.data if isinstance(mask, Tensor) else mask)
        if mask.dtype != np.bool_:
            raise TypeError(f"masked_fill: mask must be a boolean array, got dtype {mask.dtype}")
        try:
            np.broadcast_shapes(mask.shape, self.shape)
        except ValueError:
            raise ValueError(f"masked_fill: mask of shape {mask.shape} does not broadcast to {self.shape}") from None

        def _backward(g):  # filled positions no longer depend on the input
            self._accumulate(np.where(mask, 0, g))

        return Tensor._make(np.where(mask, np.asarray(value, dtype=self.dtype), self.data), (self,), _backward,
                            "masked_fill")

    # --- shapes and views -----------------------------------------------------------

    def reshape(self, *shape) -> "Tensor":
        """Same elements, new shape (a view when the strides allow one, else a copy)."""
        shape = _shape_arg(shape)
        try:
            out_data = self.data.reshape(shape)
        except ValueError:
            raise ValueError(
                f"reshape: cannot reshape a tensor of shape {self.shape} ({self.data.size} elements) into {shape}"
            ) from None

        def _backward(g):
            self._accumulate(g.reshape(self.shape))

        return Tensor._make(out_data, (self,), _backward, "reshape")

    def permute(self, *dims) -> "Tensor":
        """Reorder the dimensions (a view: only the strides change)."""
        dims = _shape_arg(dims)
        if sorted(d % self.ndim for d in dims) != list(range(self.ndim)):
            raise ValueError(f"permute: dims {dims} are not a permutation of the {self.ndim} dims of {self.shape}")
        inverse = np.argsort([d % self.ndim for d in dims])

        def _backward(g):  # put the dims back where they came from
            self._accumulate(np.transpose(g, inverse))

        return Tensor._make(np.transpose(self.data, dims), (self,), _backward, "permute")

    def view(self, *shape) -> "Tensor":
        """Like reshape, but never copies: raises when the strides do not allow a view."""
        out = self.reshape(*shape)  # a wrong number of elements fails here, with reshape's message
        if self.data.size and not np.may_share_memory(out.data, self.data):
            raise ValueError(
                f"view: shape {out.shape} is not compatible with this tensor's shape {self.shape} and strides "
                f"{self.stride()} (it is not contiguous, e.g. after permute/transpose); "
                f"use .reshape(...) or .contiguous().view(...) instead"
            )
        return out

    def transpose(self, dim0: int, dim1: int) -> "Tensor":
        """Swap two dimensions (a view)."""
        dims = list(range(self.ndim))
        dims[dim0], dims[dim1] = dims[dim1], dims[dim0]
        return self.permute(*dims)

    @property
    def T(self) -> "Tensor":
        """The dimensions reversed; for a matrix, its transpose."""
        return self.permute(*reversed(range(self.ndim)))

    def __getitem__(self, idx) -> "Tensor":
        """Indexing with ints, slices and integer arrays (e.g. an embedding lookup)."""
        if isinstance(idx, Tensor):
            idx = idx.data
        elif isinstance(idx, tuple):
            idx = tuple(i.data if isinstance(i, Tensor) else i for i in idx)

        def _backward(g):  # scatter the gradient back; repeated indices add up (np.add.at, not +=)
            full = np.zeros_like(self.data)
            np.add.at(full, idx, g)
            self._accumulate(full)

        return Tensor._make(np.asarray(self.data[idx]), (self,), _backward, "getitem")
