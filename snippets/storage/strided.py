"""A tensor as lesson 22 builds it: one flat buffer, plus a shape, strides and an offset.

Strides count elements, not bytes: stepping one position along dim d moves strides[d] elements
through the buffer. Nothing here copies the buffer except contiguous().
"""

from __future__ import annotations

import math


# --8<-- [start:strides]
def contiguous_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    """Row-major strides: the last dim moves by 1, each earlier dim by the product of the sizes after it."""
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= size
    return tuple(reversed(strides))


def flat_offset(index: tuple[int, ...], strides: tuple[int, ...], offset: int = 0) -> int:
    """Where element ``index`` lives in the buffer: offset + sum(i * s)."""
    return offset + sum(i * s for i, s in zip(index, strides))
# --8<-- [end:strides]


class Strided:
    """A view of ``buffer`` (a flat list) with a shape, strides (in elements) and an offset."""

    # --8<-- [start:init]
    def __init__(self, buffer: list, shape: tuple[int, ...], strides: tuple[int, ...] | None = None, offset: int = 0):
        shape = tuple(shape)
        if strides is None and math.prod(shape) != len(buffer) - offset:
            raise ValueError(f"shape {shape} holds {math.prod(shape)} elements, the buffer {len(buffer) - offset}")
        self.buffer = buffer  # shared with every view made from it, never copied
        self.shape = shape
        self.strides = tuple(strides) if strides is not None else contiguous_strides(shape)
        self.offset = offset

    @classmethod
    def arange(cls, *shape: int) -> "Strided":
        """0, 1, 2, ... laid out row-major in a new buffer."""
        return cls(list(range(math.prod(shape))), shape)

    def __getitem__(self, index: tuple[int, ...]):
        if len(index) != len(self.shape) or not all(0 <= i < n for i, n in zip(index, self.shape)):
            raise IndexError(f"index {index} is outside shape {self.shape}")
        return self.buffer[flat_offset(index, self.strides, self.offset)]
    # --8<-- [end:init]

    # --8<-- [start:views]
    # --8<-- [start:permute]
    def permute(self, *dims: int) -> "Strided":
        """The same buffer, dims reordered: only the shape and the strides move."""
        if sorted(dims) != list(range(len(self.shape))):
            raise ValueError(f"permute{dims} is not an order of the {len(self.shape)} dims of shape {self.shape}")
        return Strided(self.buffer, tuple(self.shape[d] for d in dims), tuple(self.strides[d] for d in dims),
                       self.offset)

    def transpose(self, d0: int, d1: int) -> "Strided":
        dims = list(range(len(self.shape)))
        dims[d0], dims[d1] = dims[d1], dims[d0]
        return self.permute(*dims)
    # --8<-- [end:permute]

    # --8<-- [start:select]
    def select(self, dim: int, i: int) -> "Strided":
        """Fix dim ``dim`` at position ``i``: one dim fewer, the offset moves by i * strides[dim]."""
        if not 0 <= i < self.shape[dim]:
            raise IndexError(f"select({dim}, {i}): dim {dim} of shape {self.shape} "
                             f"has positions 0..{self.shape[dim] - 1}")
        shape, strides = list(self.shape), list(self.strides)
        step = strides.pop(dim)
        shape.pop(dim)
        return Strided(self.buffer, tuple(shape), tuple(strides), self.offset + i * step)
    # --8<-- [end:select]

    # --8<-- [start:reshape]
    def is_contiguous(self) -> bool:
        """True when the strides are the row-major ones of the shape (size-1 dims may have any stride)."""
        want = contiguous_strides(self.shape)
        return all(n == 1 or s == w for n, s, w in zip(self.shape, self.strides, want))

    def reshape(self, *shape: int) -> "Strided":
        """A view with a new shape: possible without copying only when the elements are in row-major order."""
        if math.prod(shape) != math.prod(self.shape):
            raise ValueError(f"cannot reshape {self.shape} ({math.prod(self.shape)} elements) into {shape}")
        if not self.is_contiguous():
            raise ValueError(f"reshape of shape {self.shape} with strides {self.strides} needs a copy: "
                             f"call .contiguous() first")
        return Strided(self.buffer, shape, offset=self.offset, strides=contiguous_strides(shape))
    # --8<-- [end:reshape]

    # --8<-- [start:contiguous]
    def contiguous(self) -> "Strided":
        """This view if it is already row-major, else a copy into a new buffer in row-major order."""
        if self.is_contiguous():
            return self
        return Strided(self.flatten_values(), self.shape)

    def flatten_values(self) -> list:
        """The elements in row-major order of this view's shape (what a copy would store)."""
        out = []

        def walk(dim: int, offset: int) -> None:
            if dim == len(self.shape):
                out.append(self.buffer[offset])
                return
            for i in range(self.shape[dim]):
                walk(dim + 1, offset + i * self.strides[dim])

        walk(0, self.offset)
        return out
    # --8<-- [end:contiguous]
    # --8<-- [end:views]

    def tolist(self):
        """Nested lists, like numpy's and torch's .tolist()."""
        values = iter(self.flatten_values())

        def build(dim: int):
            if dim == len(self.shape):
                return next(values)
            return [build(dim + 1) for _ in range(self.shape[dim])]

        return build(0)

    def __repr__(self) -> str:
        return f"Strided(shape={self.shape}, strides={self.strides}, offset={self.offset})"
