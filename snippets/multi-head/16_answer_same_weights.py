import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import MultiHeadAttention
from minigpt.tensor import Tensor

rng = np.random.default_rng(0)
four = MultiHeadAttention(GPTConfig(n_head=4), rng=rng)
# parameters larger than the init: attention weights far from uniform
four.load_state_dict({name: rng.normal(0.0, 0.3, a.shape) for name, a in four.state_dict().items()})
one = MultiHeadAttention(GPTConfig(n_head=1), rng=rng)
one.load_state_dict(four.state_dict())  # every name and shape matches: (64, 64) and (64,)

x = Tensor(rng.standard_normal((1, 6, 64)).astype(np.float32))  # (B, T, C)
y4, y1 = four(x).data, one(x).data  # (B, T, C) each
same_params = all(np.array_equal(a, b) for a, b in zip(four.state_dict().values(), one.state_dict().values()))
print("same parameters:", same_params)
print("same output    :", np.allclose(y4, y1, atol=1e-4))
print(f"largest |output|: {np.abs(y4).max():.2f}, largest |difference|: {np.abs(y4 - y1).max():.2f}")
