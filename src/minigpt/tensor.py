"""A tensor with reverse-mode autograd, built on numpy.

Every op computes its output with numpy and defines, right beside it, a local
``_backward(g)`` that receives the gradient of the loss with respect to the output
and adds (``+=``) the gradient with respect to each input. ``Tensor.backward()``
sorts the graph topologically and runs those functions in reverse: the chain rule.

Names follow PyTorch (``reshape``, ``permute``, ``masked_fill``, ``softmax(dim=-1)``)
so that what a reader learns here carries over to torch.
"""

from __future__ import annotations

import math
from typing import Callable, Iterable, Sequence

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


# --- row-major storage (the first lesson shows these) ------------------------------


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


# --- helpers -----------------------------------------------------------------------


def _unbroadcast(g: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Sum ``g`` back to ``shape``: undo numpy broadcasting in the backward pass."""
    if g.shape == shape:
        return g
    extra = g.ndim - len(shape)
    if extra > 0:
        g = g.sum(axis=tuple(range(extra)))
    axes = tuple(i for i, size in enumerate(shape) if size == 1 and g.shape[i] != 1)
    if axes:
        g = g.sum(axis=axes, keepdims=True)
    return g.reshape(shape)


def _shape_arg(shape) -> tuple[int, ...]:
    """Accept both ``reshape(2, 3)`` and ``reshape((2, 3))``."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = shape[0]
    return tuple(int(s) for s in shape)


def _fits(shape: tuple[int, ...], n: int) -> bool:
    """Whether ``n`` elements can take ``shape`` (which may hold one -1)."""
    known = math.prod(s for s in shape if s != -1)
    if -1 in shape:
        return known > 0 and n % known == 0 or n == 0
    return known == n


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
        if dtype is not None:
            data = np.asarray(data, dtype=dtype)
        elif isinstance(data, (np.ndarray, np.generic)):
            data = np.asarray(data)
            if _is_float(data.dtype) and data.dtype not in (np.float32, np.float64):
                data = data.astype(np.float32)
        else:
            data = np.asarray(data)
            if _is_float(data.dtype):
                data = data.astype(np.float32)
        if requires_grad and not _is_float(data.dtype):
            raise TypeError(f"only floating-point tensors can require a gradient, got dtype {data.dtype}")
        self.data: np.ndarray = data
        self.grad: np.ndarray | None = None
        self._grad_owned = False  # False while .grad borrows an array another tensor may also hold
        self.requires_grad = bool(requires_grad)
        self._prev: tuple[Tensor, ...] = ()
        self._backward: Callable[[np.ndarray], None] | None = None
        self._op = ""

    # --- building the graph ---------------------------------------------------------

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
        """Add ``g`` (summed back to this tensor's shape) into ``self.grad``."""
        if not self.requires_grad:
            return
        g = _unbroadcast(np.asarray(g), self.shape)
        if self.grad is None:
            if self._prev:  # an intermediate result: borrow g, copy only if a second gradient arrives
                self.grad = g if g.dtype == self.dtype else g.astype(self.dtype)
                self._grad_owned = g.dtype != self.dtype
            else:  # a leaf: optimizers and clipping may change its .grad in place, so it gets its own
                self.grad = np.array(g, dtype=self.dtype, copy=True)
                self._grad_owned = True
        elif self._grad_owned:
            self.grad += g
        else:
            self.grad = self.grad + g
            self._grad_owned = True

    def _own_grad(self) -> np.ndarray:
        """``self.grad`` as an array this tensor alone may write into (zeros if there is none yet)."""
        if self.grad is None:
            self.grad = np.zeros_like(self.data)
        elif not self._grad_owned:
            self.grad = self.grad.copy()
        self._grad_owned = True
        return self.grad

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
            gradient = np.ones_like(self.data)
        else:
            gradient = np.asarray(gradient.data if isinstance(gradient, Tensor) else gradient, dtype=self.dtype)
            if gradient.shape != self.shape:
                raise ValueError(f"backward(): gradient has shape {gradient.shape}, expected {self.shape}")

        # topological order: each tensor comes after every tensor it was computed from
        topo: list[Tensor] = []
        seen: set[int] = set()
        stack: list[tuple[Tensor, bool]] = [(self, False)]
        while stack:
            node, expanded = stack.pop()
            if expanded:
                topo.append(node)
                continue
            if id(node) in seen:
                continue
            seen.add(id(node))
            stack.append((node, True))
            stack.extend((p, False) for p in node._prev if id(p) not in seen)

        for node in topo:  # intermediate results start from zero; leaves keep accumulating
            if node._prev:
                node.grad = None
        self._accumulate(gradient)
        # chain rule, from the output back to the leaves
        for node in reversed(topo):
            if node._backward is not None and node.grad is not None:
                node._backward(node.grad)

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
        out_data = np.ascontiguousarray(self.data)

        def _backward(g):
            self._accumulate(g)

        return Tensor._make(out_data, (self,), _backward, "contiguous")

    # --- elementwise arithmetic (with broadcasting) ---------------------------------

    def __add__(self, other) -> "Tensor":
        other = self._lift(other)

        def _backward(g):
            self._accumulate(g)
            other._accumulate(g)

        return Tensor._make(self.data + other.data, (self, other), _backward, "+")

    def __sub__(self, other) -> "Tensor":
        other = self._lift(other)

        def _backward(g):
            self._accumulate(g)
            other._accumulate(-g)

        return Tensor._make(self.data - other.data, (self, other), _backward, "-")

    def __mul__(self, other) -> "Tensor":
        other = self._lift(other)

        def _backward(g):
            self._accumulate(g * other.data)
            other._accumulate(g * self.data)

        return Tensor._make(self.data * other.data, (self, other), _backward, "*")

    def __truediv__(self, other) -> "Tensor":
        other = self._lift(other)

        def _backward(g):
            self._accumulate(g / other.data)
            other._accumulate(-g * self.data / (other.data * other.data))

        return Tensor._make(self.data / other.data, (self, other), _backward, "/")

    def __pow__(self, other) -> "Tensor":
        if isinstance(other, (int, float)) and not isinstance(other, bool):
            p = other
            out_data = self.data**p

            def _backward(g):
                self._accumulate(g * p * self.data ** (p - 1))

            return Tensor._make(out_data, (self,), _backward, f"**{p}")
        other = self._lift(other)
        out_data = self.data**other.data

        def _backward(g):  # d(x^y)/dx = y x^(y-1), d(x^y)/dy = x^y ln x
            self._accumulate(g * other.data * self.data ** (other.data - 1))
            other._accumulate(g * out_data * np.log(self.data))

        return Tensor._make(out_data, (self, other), _backward, "**")

    def __neg__(self) -> "Tensor":
        def _backward(g):
            self._accumulate(-g)

        return Tensor._make(-self.data, (self,), _backward, "neg")

    def neg(self) -> "Tensor":
        return -self

    def __radd__(self, other) -> "Tensor":
        return self + other

    def __rsub__(self, other) -> "Tensor":
        return self._lift(other) - self

    def __rmul__(self, other) -> "Tensor":
        return self * other

    def __rtruediv__(self, other) -> "Tensor":
        return self._lift(other) / self

    def __rpow__(self, other) -> "Tensor":
        return self._lift(other) ** self

    def __matmul__(self, other) -> "Tensor":
        return self.matmul(other)

    def __rmatmul__(self, other) -> "Tensor":
        return self._lift(other).matmul(self)

    # --- matrix product -------------------------------------------------------------

    def matmul(self, other) -> "Tensor":
        """Matrix product of the last two dims; leading (batch) dims broadcast."""
        other = self._lift(other)
        a, b = self, other
        if a.ndim == 0 or b.ndim == 0:
            raise ValueError(f"matmul: both operands need at least 1 dimension, got shapes {a.shape} and {b.shape}")
        if a.ndim == 1:  # (K,) acts as a row (1, K)
            return a.reshape(1, -1).matmul(b).reshape(b.shape[:-2] + b.shape[-1:])
        if b.ndim == 1:  # (K,) acts as a column (K, 1)
            return a.matmul(b.reshape(-1, 1)).reshape(a.shape[:-1])
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
        flat = b.ndim == 2 and a.ndim > 2  # (..., M, K) @ (K, N), e.g. a Linear layer on (B, T, C)
        if flat:  # one (B*M, K) @ (K, N) GEMM instead of a batch of small ones
            out_data = (a.data.reshape(-1, a.shape[-1]) @ b.data).reshape(a.shape[:-1] + b.shape[-1:])
        else:
            out_data = a.data @ b.data

        def _backward(g):
            if a.requires_grad:
                if flat:
                    a._accumulate((g.reshape(-1, g.shape[-1]) @ b.data.T).reshape(a.shape))  # (B*M, N) @ (N, K)
                else:
                    a._accumulate(g @ np.swapaxes(b.data, -1, -2))  # (..., M, N) @ (..., N, K)
            if b.requires_grad:
                if b.ndim == 2 and g.ndim > 2:  # (B*M, K)^T @ (B*M, N): one GEMM instead of a batch
                    a2 = np.broadcast_to(a.data, g.shape[:-1] + a.shape[-1:]).reshape(-1, a.shape[-1])
                    b._accumulate(a2.T @ g.reshape(-1, g.shape[-1]))
                else:
                    b._accumulate(np.swapaxes(a.data, -1, -2) @ g)  # (..., K, M) @ (..., M, N)

        return Tensor._make(out_data, (a, b), _backward, "@")

    # --- reductions -----------------------------------------------------------------

    def sum(self, dim=None, keepdim: bool = False) -> "Tensor":
        out_data = self.data.sum(axis=dim, keepdims=keepdim)

        def _backward(g):
            if dim is not None and not keepdim:
                g = np.expand_dims(g, dim)
            self._accumulate(np.broadcast_to(g, self.shape))

        return Tensor._make(np.asarray(out_data), (self,), _backward, "sum")

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

    def sqrt(self) -> "Tensor":
        out_data = np.sqrt(self.data)

        def _backward(g):
            self._accumulate(g * 0.5 / out_data)

        return Tensor._make(out_data, (self,), _backward, "sqrt")

    def tanh(self) -> "Tensor":
        out_data = np.tanh(self.data)

        def _backward(g):
            self._accumulate(g * (1.0 - out_data * out_data))

        return Tensor._make(out_data, (self,), _backward, "tanh")

    def relu(self) -> "Tensor":
        out_data = np.maximum(self.data, 0)

        def _backward(g):
            self._accumulate(g * (self.data > 0))

        return Tensor._make(out_data, (self,), _backward, "relu")

    def gelu(self) -> "Tensor":
        """GELU, tanh approximation: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""
        x = self.data
        c = math.sqrt(2.0 / math.pi)  # a Python float, so float32 stays float32
        t = np.tanh(c * (x + 0.044715 * x * x * x))
        out_data = 0.5 * x * (1.0 + t)

        def _backward(g):
            dt = (1.0 - t * t) * (c * (1.0 + 3 * 0.044715 * x * x))
            self._accumulate(g * (0.5 * (1.0 + t) + 0.5 * x * dt))

        return Tensor._make(out_data, (self,), _backward, "gelu")

    def softmax(self, dim: int = -1) -> "Tensor":
        """exp(x) / sum(exp(x)) along ``dim``; the max is subtracted first (no overflow)."""
        e = np.exp(self.data - self.data.max(axis=dim, keepdims=True))
        s = e / e.sum(axis=dim, keepdims=True)

        def _backward(g):  # Jacobian-vector product: s * (g - sum(g * s))
            self._accumulate(s * (g - (g * s).sum(axis=dim, keepdims=True)))

        return Tensor._make(s, (self,), _backward, "softmax")

    def log_softmax(self, dim: int = -1) -> "Tensor":
        shifted = self.data - self.data.max(axis=dim, keepdims=True)
        out_data = shifted - np.log(np.exp(shifted).sum(axis=dim, keepdims=True))

        def _backward(g):
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
        out_data = np.where(mask, np.asarray(value, dtype=self.dtype), self.data)

        def _backward(g):
            self._accumulate(np.where(mask, 0, g))

        return Tensor._make(out_data, (self,), _backward, "masked_fill")

    # --- shapes and views -----------------------------------------------------------

    def reshape(self, *shape) -> "Tensor":
        """Same elements, new shape (a view when numpy can make one, else a copy)."""
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

    def view(self, *shape) -> "Tensor":
        """Like reshape, but never copies: raises when the strides do not allow a view."""
        shape = _shape_arg(shape)
        try:
            out_data = np.reshape(self.data, shape, copy=False)
        except ValueError:
            if not _fits(shape, self.data.size):
                raise ValueError(
                    f"view: cannot view a tensor of shape {self.shape} ({self.data.size} elements) as {shape}"
                ) from None
            raise ValueError(
                f"view: shape {shape} is not compatible with this tensor's shape {self.shape} and strides "
                f"{self.stride()} (it is not contiguous, e.g. after permute/transpose); "
                f"use .reshape(...) or .contiguous().view(...) instead"
            ) from None

        def _backward(g):
            self._accumulate(g.reshape(self.shape))

        return Tensor._make(out_data, (self,), _backward, "view")

    def permute(self, *dims) -> "Tensor":
        """Reorder the dimensions (a view: only the strides change)."""
        dims = _shape_arg(dims)
        if sorted(d % self.ndim for d in dims) != list(range(self.ndim)):
            raise ValueError(f"permute: dims {dims} are not a permutation of the {self.ndim} dims of {self.shape}")
        inverse = np.argsort([d % self.ndim for d in dims])

        def _backward(g):
            self._accumulate(np.transpose(g, inverse))

        return Tensor._make(np.transpose(self.data, dims), (self,), _backward, "permute")

    def transpose(self, dim0: int, dim1: int) -> "Tensor":
        """Swap two dimensions (a view)."""

        def _backward(g):
            self._accumulate(np.swapaxes(g, dim0, dim1))

        return Tensor._make(np.swapaxes(self.data, dim0, dim1), (self,), _backward, "transpose")

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
        out_data = self.data[idx]
        parts = idx if isinstance(idx, tuple) else (idx,)
        advanced = any(isinstance(i, (np.ndarray, list)) for i in parts)

        def _backward(g):
            if not self.requires_grad:
                return
            grad = self._own_grad()
            if advanced:  # repeated indices must add up: np.add.at, not +=
                np.add.at(grad, idx, g)
            else:
                grad[idx] += g

        return Tensor._make(np.asarray(out_data), (self,), _backward, "getitem")

    def split(self, split_size_or_sections, dim: int = 0) -> tuple["Tensor", ...]:
        """Cut along ``dim`` into pieces of ``split_size`` (or of the listed sizes), like torch."""
        n = self.shape[dim]
        if isinstance(split_size_or_sections, (int, np.integer)):
            size = int(split_size_or_sections)
            if size <= 0:
                raise ValueError(f"split: split_size must be positive, got {size}")
            sizes = [min(size, n - start) for start in range(0, n, size)]
        else:
            sizes = [int(s) for s in split_size_or_sections]
            if sum(sizes) != n:
                raise ValueError(f"split: sizes {sizes} sum to {sum(sizes)}, but dim {dim} has size {n}")
        pieces, start = [], 0
        for size in sizes:
            sl = [slice(None)] * self.ndim
            sl[dim] = slice(start, start + size)
            pieces.append(self[tuple(sl)])
            start += size
        return tuple(pieces)

    def chunk(self, chunks: int, dim: int = 0) -> tuple["Tensor", ...]:
        return self.split(-(-self.shape[dim] // chunks), dim)


def cat(tensors: Iterable[Tensor], dim: int = 0) -> Tensor:
    """Join tensors along an existing dimension (``torch.cat``)."""
    tensors = [t if isinstance(t, Tensor) else Tensor(t) for t in tensors]
    if not tensors:
        raise ValueError("cat: expected a non-empty list of tensors")
    try:
        out_data = np.concatenate([t.data for t in tensors], axis=dim)
    except ValueError:
        shapes = [t.shape for t in tensors]
        raise ValueError(f"cat: shapes {shapes} differ outside dim {dim}") from None
    bounds = np.cumsum([t.shape[dim] for t in tensors])[:-1]

    def _backward(g):
        for t, piece in zip(tensors, np.split(g, bounds, axis=dim)):
            t._accumulate(piece)

    return Tensor._make(out_data, tuple(tensors), _backward, "cat")


def stack(tensors: Iterable[Tensor], dim: int = 0) -> Tensor:
    """Join tensors along a new dimension (``torch.stack``)."""
    tensors = [t if isinstance(t, Tensor) else Tensor(t) for t in tensors]
    return cat([t.reshape(t.shape[:dim % (t.ndim + 1)] + (1,) + t.shape[dim % (t.ndim + 1):]) for t in tensors], dim)
