import numpy as np
import torch

from minigpt.tensor import Tensor

x, w, v = np.ones((2, 3, 4)), np.ones((3, 4)), np.ones((3, 4, 5))  # (B, T, C), a wrong weight, a wrong batch


def write_into_broadcast():
    view = np.broadcast_to(np.ones(4), (2, 3, 4))  # (C,) -> (B, T, C), strides (0, 0, 8)
    view[0, 0, 0] = 1.0


attempts = [
    ("numpy   (2, 3, 4) + (3,)", lambda: x + np.ones(3)),
    ("torch   (2, 3, 4) + (3,)", lambda: torch.ones(2, 3, 4) + torch.ones(3)),
    ("numpy   (2, 3, 4) @ (3, 4)", lambda: x @ w),
    ("torch   (2, 3) @ (4, 5)", lambda: torch.ones(2, 3) @ torch.ones(4, 5)),
    ("torch   (2, 3, 4) @ (3, 4, 5)", lambda: torch.ones(2, 3, 4) @ torch.ones(3, 4, 5)),
    ("minigpt (2, 3, 4) @ (3, 4)", lambda: Tensor(x) @ Tensor(w)),
    ("minigpt (2, 3, 4) @ (3, 4, 5)", lambda: Tensor(x) @ Tensor(v)),
    ("numpy   broadcast_to(...)[0, 0, 0] = 1", write_into_broadcast),
]
for what, attempt in attempts:
    try:
        attempt()
    except (ValueError, RuntimeError) as e:
        print(f"{what}\n  {type(e).__name__}: {str(e).rstrip()}")
print("np.dot (2, 3, 4) . (2, 4, 5) ->", np.dot(x, np.ones((2, 4, 5))).shape, "  @ ->", (x @ np.ones((2, 4, 5))).shape)
