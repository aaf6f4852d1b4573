import numpy as np
import torch

from broadcast import broadcast_shapes


def outcome(fn, a, b):  # the broadcast shape, or "error"
    try:
        return str(tuple(fn(a, b)))
    except (ValueError, RuntimeError):
        return "error"


pairs = [((2, 3, 4), (4,)), ((2, 3, 4), (3, 1)), ((8, 1, 6, 1), (7, 1, 5)), ((3,), (3, 1)), ((), (2, 2)),
         ((3, 4), (3,)), ((2, 1), (8, 4, 3))]
for a, b in pairs:
    n = max(len(a), len(b))
    pa, pb = (1,) * (n - len(a)) + a, (1,) * (n - len(b)) + b  # padded with 1s on the left
    ours = outcome(broadcast_shapes, a, b)
    agree = ours == outcome(np.broadcast_shapes, a, b) == outcome(torch.broadcast_shapes, a, b)
    print(f"{str(a):12} {str(b):9} -> {str(pa):12} {str(pb):12} -> {ours:12} numpy, torch agree: {agree}")
try:
    broadcast_shapes((3, 4), (3,))
except ValueError as e:
    print("ValueError:", e)
