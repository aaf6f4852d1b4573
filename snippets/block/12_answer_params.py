import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import Block

for C in (64, 128, 768):
    block = Block(GPTConfig(n_embd=C, n_head=4), np.random.default_rng(0))
    counted = sum(p.numel() for p in block.parameters())
    mlp = sum(p.numel() for p in block.mlp.parameters())
    formula = 12 * C * C + 13 * C
    print(f"C={C:<4} counted {counted:>10,}  12*C*C + 13*C = {formula:>10,}"
          f"  MLP share {mlp / counted:.1%}")
