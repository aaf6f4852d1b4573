import numpy as np
import torch

from minigpt import gpt_torch
from minigpt.config import GPTConfig

torch.manual_seed(0)
default = torch.nn.Linear(64, 64)  # torch's own init: uniform(-1/sqrt(in), 1/sqrt(in))
ours = gpt_torch.GPT(GPTConfig(vocab_size=69), seed=0).blocks[0].attn.c_q
print(f"torch's default Linear(64, 64): weight std {default.weight.std().item():.4f} "
      f"(1/sqrt(3*64) = {1 / np.sqrt(3 * 64):.4f}), bias nonzero: {bool(default.bias.abs().sum() > 0)}")
print(f"gpt_torch.GPT's c_q:            weight std {ours.weight.std().item():.4f}, "
      f"bias nonzero: {bool(ours.bias.abs().sum() > 0)}")
torch.manual_seed(0)
plain = torch.randn(3)
torch.manual_seed(0)
gpt_torch.GPT(GPTConfig(vocab_size=69), seed=0)
print(f"building a GPT leaves torch's global generator where it was: {torch.equal(torch.randn(3), plain)}")
