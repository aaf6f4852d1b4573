import numpy as np

from minigpt import functional as F
from minigpt.config import GPTConfig
from minigpt.gpt import GPT

config = GPTConfig(vocab_size=6831, n_embd=32)  # T 32, L 2, nh 4
model = GPT(config, seed=0)
rng = np.random.default_rng(0)
idx = rng.integers(4, 6831, size=(2, 5))  # (B, T)
targets = rng.integers(4, 6831, size=(2, 5))  # (B, T)
B, T = idx.shape
tok = model.wte(idx)  # (B, T, C)
pos = model.wpe(np.arange(T))  # (T, C)
x = model.drop(tok + pos)  # (B, T, C): pos broadcast over B
print(f"1 tok {tok.shape}  pos {pos.shape}  x {x.shape}")
for i, block in enumerate(model.blocks):
    x = block(x)  # (B, T, C)
    print(f"2 block {i}: x {x.shape}")
x = model.ln_f(x)  # (B, T, C)
logits = x @ model.wte.weight.T  # (B, T, C) @ (C, V) -> (B, T, V)
loss = F.cross_entropy(logits, targets, ignore_index=-1)  # mean over B*T
print(f"3 ln_f {x.shape}  logits {logits.shape}  loss {float(loss.data):.4f}")
ref_logits, ref_loss = model(idx, targets)
print("same as model(idx, targets):", np.array_equal(logits.data, ref_logits.data)
      and float(loss.data) == float(ref_loss.data))
C, L, V = config.n_embd, config.n_layer, config.vocab_size
blocks, head = L * 12 * C * C, C * V  # multiply-adds per token (attention scores aside)
share = head / (blocks + head)
print(f"multiply-adds per token: blocks {blocks:,}, head {head:,} ({share:.0%} in the head)")
