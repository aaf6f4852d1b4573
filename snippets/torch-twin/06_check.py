import numpy as np
import torch

from minigpt import gpt, gpt_torch
from minigpt.config import GPTConfig
from minigpt.convert import to_torch

config = GPTConfig(vocab_size=69)
idx = np.random.default_rng(0).integers(0, 69, size=(2, 32))  # (B, T)
sd = {k: v if ".ln_" in k or k.startswith("ln_") else v * 10.0  # std 0.02 -> 0.2; LayerNorm: 1, 0
      for k, v in gpt.GPT(config, seed=0).state_dict().items()}


def max_diff(numpy_state, torch_state, dtype):
    a = gpt.GPT(config).to(dtype)
    a.load_state_dict(numpy_state)
    b = gpt_torch.GPT(config).to(getattr(torch, np.dtype(dtype).name))
    b.load_state_dict(to_torch({k: v.astype(dtype) for k, v in torch_state.items()}))
    la = a(idx)[0].data  # (B, T, V)
    with torch.no_grad():
        lb = b(idx)[0].numpy()  # (B, T, V)
    return np.abs(la - lb).max(), np.abs(la).max()


d64, largest = max_diff(sd, sd, np.float64)
print(f"logits (2, 32, 69), largest |logit| {largest:.2f}")
print(f"float64: max |numpy - torch| < 1e-10: {d64 < 1e-10}")
d32, _ = max_diff(sd, sd, np.float32)
print(f"float32: max |numpy - torch| < 1e-10: {d32 < 1e-10}; < 1e-4: {d32 < 1e-4}")
bad = dict(sd, **{"blocks.0.attn.c_q.weight": sd["blocks.0.attn.c_q.weight"].T})  # (C, C): the shape fits
d_bad, _ = max_diff(sd, bad, np.float64)
print(f"control, torch given c_q.weight transposed: max |numpy - torch| < 1e-10: {d_bad < 1e-10}")
