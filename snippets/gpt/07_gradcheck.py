import numpy as np

from minigpt import functional as F
from minigpt.config import GPTConfig
from minigpt.gpt import GPT
from minigpt.tensor import Tensor

model = GPT(GPTConfig(vocab_size=50, n_embd=16, block_size=8), seed=0).to(np.float64)
rng = np.random.default_rng(0)
x, y = rng.integers(0, 50, size=(2, 8)), rng.integers(0, 50, size=(2, 8))  # (B, T)
params = dict(model.named_parameters())
_, loss = model(x, y)
loss.backward()
grads = {name: p.grad.copy() for name, p in params.items()}


def numeric(name, i, h=1e-6):  # central difference of the loss in one entry
    w = params[name].data
    old = w.flat[i]
    w.flat[i] = old + h
    up = float(model(x, y)[1].data)
    w.flat[i] = old - h
    down = float(model(x, y)[1].data)
    w.flat[i] = old
    return (up - down) / (2 * h)


worst = 0.0
names = ("wte.weight", "wpe.weight", "blocks.0.attn.c_q.weight", "blocks.1.mlp.c_proj.weight", "ln_f.bias")
for name in names:
    for i in rng.choice(params[name].data.size, 3, replace=False):
        num, ana = numeric(name, i), grads[name].flat[i]
        worst = max(worst, abs(num - ana))
print(f"15 entries of 5 tensors, float64: largest |finite difference - backward| {worst:.1e}, "
      f"below 1e-8: {worst < 1e-8}")

# control: wte's gradient through the embedding only, the head's share left out
model.zero_grad()
h = model.drop(model.wte(x) + model.wpe(np.arange(8)))  # (B, T, C)
for block in model.blocks:
    h = block(h)
logits = model.ln_f(h) @ Tensor(model.wte.weight.data.T)  # the head as a constant: (B, T, V)
F.cross_entropy(logits, y).backward()
i = int(x[0, 0]) * 16  # an entry of a row the input uses
part, num = model.wte.weight.grad.flat[i], numeric("wte.weight", i)
print(f"wte[{x[0, 0]}, 0]: finite difference {num:.6f}, embedding path only {part:.6f}, "
      f"same: {abs(num - part) < 1e-8}")
