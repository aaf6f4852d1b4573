import numpy as np

from minigpt.config import GPTConfig

cfg = GPTConfig()  # tiny
B, T, nh, hs = 3, 10, cfg.n_head, cfg.head_size
cases = [
    ("(2, 1, 5) + (3, 1)", np.ones((2, 1, 5)) + np.ones((3, 1))),
    ("(4, 3, 2) @ (2, 5)", np.ones((4, 3, 2)) @ np.ones((2, 5))),
    ("(B, nh, T, T) @ (B, nh, T, hs)", np.ones((B, nh, T, T)) @ np.ones((B, nh, T, hs))),
    ("(B, T, C) @ (C, 4*C)", np.ones((B, T, nh * hs)) @ np.ones((nh * hs, 4 * nh * hs))),
]
for what, out in cases:
    print(f"{what:32} -> {out.shape}")
