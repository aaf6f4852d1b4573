import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import MultiHeadAttention

T = 32  # block_size of the default GPTConfig()
print("n_head  head_size  parameters  scores per sequence (nh*T*T)")
for n_head in (1, 2, 4, 8, 16):
    config = GPTConfig(n_head=n_head)  # n_embd stays 64
    attn = MultiHeadAttention(config, rng=np.random.default_rng(0))
    n_params = sum(p.numel() for p in attn.parameters())
    print(f"{n_head:>6}  {config.head_size:>9}  {n_params:>10,}  {n_head * T * T:>8,}")

gpt2 = GPTConfig(vocab_size=50257, block_size=1024, n_layer=12, n_head=12, n_embd=768)  # GPT-2 small
C = gpt2.n_embd
print(f"\nGPT-2 small: n_embd={C} n_head={gpt2.n_head} head_size={gpt2.head_size} "
      f"parameters 4*(C*C + C) = {4 * (C * C + C):,}")
