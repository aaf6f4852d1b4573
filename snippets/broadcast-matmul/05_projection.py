import numpy as np

from broadcast import batched_matmul
from minigpt.config import GPTConfig
from minigpt.nn import Linear
from minigpt.tensor import Tensor

cfg = GPTConfig()  # tiny
B, T, C = 2, 8, cfg.n_embd
x = np.random.default_rng(0).standard_normal((B, T, C)).astype(np.float32)  # (B, T, C)
lin = Linear(C, C, rng=np.random.default_rng(1))  # weight (C, C) as (out, in), bias (C,)
W, b = lin.weight.data, lin.bias.data
y = batched_matmul(x, W.T) + b  # (B, T, C) @ (C, C) -> (B, T, C), then + (C,)
print(f"x {x.shape} @ W.T {W.T.shape}: batch dims {x.shape[:-2]} and () -> {B} products of {(T, C)} @ {(C, C)}")
flat = (x.reshape(B * T, C) @ W.T).reshape(B, T, C) + b  # one (B*T, C) @ (C, C) product
print(f"same as one (B*T, C) @ (C, C) = {(B * T, C)} @ {(C, C)}:", np.allclose(y, flat, atol=1e-6))
print("same as minigpt Linear:", np.allclose(y, lin(Tensor(x)).data, atol=1e-6))
print(f"multiply-adds: B*T*C*C = {B}*{T}*{C}*{C} = {B * T * C * C:,}")
