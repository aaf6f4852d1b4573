import numpy as np
import torch
import torch.nn.functional as F

from minigpt.config import GPTConfig
from minigpt.gpt import MultiHeadAttention
from minigpt.tensor import Tensor

config = GPTConfig()
attn = MultiHeadAttention(config, rng=np.random.default_rng(0)).to(np.float64)
rng = np.random.default_rng(1)
# parameters larger than the init: attention weights far from uniform
attn.load_state_dict({name: rng.normal(0.0, 0.3, a.shape) for name, a in attn.state_dict().items()})
B, T, C, nh, hs = 2, 8, config.n_embd, config.n_head, config.head_size
x = rng.standard_normal((B, T, C))  # float64

ours = attn(Tensor(x)).data  # (B, T, C)

w = {name: torch.from_numpy(a) for name, a in attn.state_dict().items()}
xt = torch.from_numpy(x)


def heads(name):  # (B, T, C) -> (B, nh, T, hs)
    y = F.linear(xt, w[f"{name}.weight"], w[f"{name}.bias"])
    return y.view(B, T, nh, hs).transpose(1, 2)


def torch_attention(is_causal):
    y = F.scaled_dot_product_attention(heads("c_q"), heads("c_k"), heads("c_v"), is_causal=is_causal)
    y = y.transpose(1, 2).reshape(B, T, C)  # (B, nh, T, hs) -> (B, T, nh, hs) -> (B, T, C)
    return F.linear(y, w["c_proj.weight"], w["c_proj.bias"]).numpy()


print("shapes:", ours.shape, torch_attention(True).shape)
print(f"largest |output|: {np.abs(ours).max():.2f}")
print("is_causal=True : max |ours - torch| < 1e-10:", bool(np.abs(ours - torch_attention(True)).max() < 1e-10))
print("is_causal=False: max |ours - torch| < 1e-10:", bool(np.abs(ours - torch_attention(False)).max() < 1e-10))
