import numpy as np
import torch

import minigpt

x = np.arange(24).reshape(2, 3, 4)  # (B, T, C)
t = torch.from_numpy(x)  # shares memory with x
print("minigpt", minigpt.__version__)
print("numpy", x.shape, "torch", tuple(t.shape))
print("same numbers:", bool((t.numpy() == x).all()))
