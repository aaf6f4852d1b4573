import numpy as np

from minigpt.tensor import Tensor

rng = np.random.default_rng(0)
B, nh, T, hs = 2, 4, 5, 16
q = Tensor(rng.standard_normal((B, nh, T, hs)))
k = Tensor(rng.standard_normal((B, nh, T, hs)))

att = q @ k.transpose(-2, -1)  # (B, nh, T, hs) @ (B, nh, hs, T) -> (B, nh, T, T)
print("one batched matmul:", q.shape, "@", k.transpose(-2, -1).shape, "->", att.shape)

q3 = q.reshape(B * nh, T, hs)  # (B*nh, T, hs)
k3 = k.reshape(B * nh, T, hs)  # (B*nh, T, hs)
pieces = [q3[i] @ k3[i].T for i in range(B * nh)]  # B*nh times (T, hs) @ (hs, T) -> (T, T)
loop = np.stack([p.data for p in pieces]).reshape(B, nh, T, T)  # (B*nh, T, T) -> (B, nh, T, T)
print(f"a loop of {len(pieces)} matmuls: {q3[0].shape} @ {k3[0].T.shape} -> {pieces[0].shape} each")
print("same scores:", np.allclose(att.data, loop.data, atol=1e-6))
