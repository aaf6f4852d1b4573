"""What a forward pass leaves behind for backward, counted on the engine's graph (lesson 7 measures it)."""

import numpy as np


def graph(out):
    """(ops recorded, bytes kept for backward: each op's output and the arrays its _backward closes over)."""
    seen, stack, ops, arrays = set(), [out], 0, {}
    while stack:
        t = stack.pop()
        if id(t) not in seen:
            seen.add(id(t))
            if t._backward is not None:
                ops += 1
                arrays[id(t.data)] = t.data
                for cell in t._backward.__closure__ or ():
                    if isinstance(cell.cell_contents, np.ndarray):
                        arrays[id(cell.cell_contents)] = cell.cell_contents
            stack.extend(t._prev)
    return ops, sum(a.nbytes for a in arrays.values())
