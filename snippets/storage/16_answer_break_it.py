import runpy
from pathlib import Path

from strided import Strided, contiguous_strides


def select_keeps_offset(self, dim, i):  # bug: drops the dim but forgets offset + i * strides[dim]
    shape, strides = list(self.shape), list(self.strides)
    shape.pop(dim), strides.pop(dim)
    return Strided(self.buffer, tuple(shape), tuple(strides), self.offset)


def strict_is_contiguous(self):  # bug: a dim of size 1 must have its row-major stride too
    return self.strides == contiguous_strides(self.shape)


check = str(Path(__file__).with_name("09_check.py"))
for name, bug in [("select", select_keeps_offset), ("is_contiguous", strict_is_contiguous)]:
    right = getattr(Strided, name)
    setattr(Strided, name, bug)
    print(f"--- {bug.__name__}")
    runpy.run_path(check)  # the lesson's own check, with the bug in
    setattr(Strided, name, right)
