import numpy as np
import torch

from minigpt import gpt, gpt_torch
from minigpt.config import GPTConfig
from minigpt.convert import to_torch

config = GPTConfig(vocab_size=69)
numpy_gpt = gpt.GPT(config, seed=0)
sd = numpy_gpt.state_dict()
q, k = "blocks.1.attn.c_q.weight", "blocks.1.attn.c_k.weight"
swapped = dict(sd, **{q: sd[k], k: sd[q]})  # (C, C) each
torch_gpt = gpt_torch.GPT(config)
torch_gpt.load_state_dict(to_torch(swapped))
names = [n for n, _ in torch_gpt.named_parameters()] == list(sd)
shapes = all(tuple(p.shape) == sd[n].shape for n, p in torch_gpt.named_parameters())
print(f"names check:  {names}")
print(f"shapes check: {shapes}")
idx = np.random.default_rng(0).integers(0, 69, size=(2, 32))  # (B, T)
with torch.no_grad():
    diff = np.abs(numpy_gpt(idx)[0].data - torch_gpt(idx)[0].numpy()).max()
print(f"logits check, max |numpy - torch| < 1e-4: {diff < 1e-4}")
