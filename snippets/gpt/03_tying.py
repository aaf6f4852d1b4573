import numpy as np

from minigpt.config import GPTConfig
from minigpt.gpt import GPT

model = GPT(GPTConfig(vocab_size=6831, n_embd=32), seed=0)
rng = np.random.default_rng(0)
x = rng.integers(4, 6831, size=(2, 8))  # (B, T) token ids
y = rng.integers(4, 6831, size=(2, 8))  # (B, T) targets
_, loss = model(x, y)
loss.backward()
g = model.wte.weight.grad  # (V, C): one gradient for both uses of wte
rows = np.abs(g).sum(1) > 0  # (V,)
names = [n for n, _ in model.named_parameters()]
print("wte.weight is the head's weight too:", names.count("wte.weight"), "tensor")
print(f"tokens in the input: {len(np.unique(x))} of V = {len(rows)}")
print(f"rows of wte with a gradient: {rows.sum()}")
