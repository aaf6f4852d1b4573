import numpy as np

from broadcast import batched_matmul, broadcast_shapes
from minigpt.config import GPTConfig
from minigpt.gpt import causal_mask

cfg = GPTConfig()  # tiny
B, T, nh, hs = 2, 8, cfg.n_head, cfg.head_size
rng = np.random.default_rng(0)
q, k = rng.standard_normal((B, nh, T, hs)), rng.standard_normal((B, nh, T, hs))  # (B, nh, T, hs)
kT = k.swapaxes(-2, -1)  # (B, nh, T, hs) -> (B, nh, hs, T)
att = batched_matmul(q, kT)  # (B, nh, T, hs) @ (B, nh, hs, T) -> (B, nh, T, T)
print(f"q {q.shape} @ k^T {kT.shape} -> {att.shape}: {B * nh} products of {(T, hs)} @ {(hs, T)}")
print("att[1, 3] == q[1, 3] @ k[1, 3].T:", np.allclose(att[1, 3], q[1, 3] @ k[1, 3].T))
mask = causal_mask(T)  # (T, T)
print(f"mask {mask.shape} with scores {att.shape} -> {broadcast_shapes(mask.shape, att.shape)}: "
      f"one mask for all {B * nh} tables")
masked = np.where(mask, -np.inf, att)  # (T, T) broadcast over (B, nh)
print("every table hidden above the diagonal:", bool(np.isneginf(masked[..., mask]).all()))
print(f"multiply-adds: B*nh*T*T*hs = {B}*{nh}*{T}*{T}*{hs} = {B * nh * T * T * hs:,}")
