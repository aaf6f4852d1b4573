import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import Block

config = GPTConfig()  # C=64, nh=4, n_layer=2
block = Block(config, np.random.default_rng(0))
print(f"{'name':<22}{'shape':<11}numbers")
for name, p in block.named_parameters():
    print(f"{name:<22}{str(p.shape):<11}{p.numel():>7,}")
C = config.n_embd
parts = ("ln_1", "attn", "ln_2", "mlp")
count = {part: sum(p.numel() for p in getattr(block, part).parameters())
         for part in parts}
total = sum(count.values())
print("  ".join(f"{part} {n:,}" for part, n in count.items()), f" total {total:,}")
print(f"formula 12*C*C + 13*C = {12 * C * C + 13 * C:,};",
      f"the MLP holds {count['mlp'] / total:.1%}")
