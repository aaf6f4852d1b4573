import numpy as np
import torch

from block_variants import PostNormBlock
from minigpt import gpt_torch
from minigpt.config import GPTConfig
from minigpt.gpt import Block
from minigpt.tensor import Tensor

config = GPTConfig()
rng = np.random.default_rng(1)
ours = Block(config, np.random.default_rng(0)).to(np.float64)
# weights larger than the init, so every part of the block shows in the output
state = {name: rng.normal(0.0, 0.3, a.shape) for name, a in ours.state_dict().items()}
ours.load_state_dict(state)
theirs = gpt_torch.Block(config).double()
theirs.load_state_dict({name: torch.from_numpy(a) for name, a in state.items()})
post = PostNormBlock(config, np.random.default_rng(0)).to(np.float64)
post.load_state_dict(state)

x = rng.standard_normal((2, 8, 64))  # (B, T, C), float64
xt = torch.from_numpy(x).requires_grad_()
ref = theirs(xt)  # (B, T, C)
ref.pow(2).sum().backward()
xo = Tensor(x, requires_grad=True)
y = ours(xo)
(y * y).sum().backward()
print(f"largest |output|: {np.abs(y.data).max():.2f}")
want = ref.detach().numpy()
print("output   max |ours - torch| < 1e-10:", bool(np.abs(y.data - want).max() < 1e-10))
dx = np.abs(xo.grad - xt.grad.numpy()).max()
print("dL/dx    max |ours - torch| < 1e-10:", bool(dx < 1e-10))
print("dL/dW    max |ours - torch| < 1e-10:", all(
    np.abs(p.grad - dict(theirs.named_parameters())[name].grad.numpy()).max() < 1e-10
    for name, p in ours.named_parameters()))
dpost = np.abs(post(Tensor(x)).data - want).max()
print("post-norm max |ours - torch| < 1e-10:", bool(dpost < 1e-10))
