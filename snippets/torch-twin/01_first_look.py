import numpy as np

from minigpt import gpt, gpt_torch
from minigpt.config import GPTConfig

config = GPTConfig(vocab_size=69)  # V = 65 + 4
rng = np.random.default_rng(0)
x = rng.integers(0, 69, size=(4, 32))  # (B, T) token ids
y = rng.integers(0, 69, size=(4, 32))  # (B, T) targets

numpy_gpt = gpt.GPT(config, seed=0)
torch_gpt = gpt_torch.GPT(config, seed=0)
_, loss_np = numpy_gpt(x, y)
_, loss_pt = torch_gpt(x, y)
for name, loss in (("numpy GPT", loss_np), ("torch GPT", loss_pt)):
    kind = f"{type(loss).__module__}.{type(loss).__name__}"
    print(f"{name}: loss is a {kind:22s} {loss.item():.5f}")
loss_np.backward()
loss_pt.backward()
g_np = numpy_gpt.wte.weight.grad  # (V, C)
g_pt = torch_gpt.wte.weight.grad.numpy()  # (V, C)
print(f"wte.weight.grad: {g_np.shape} in both, largest |grad| {np.abs(g_np).max():.4f}")
print(f"max |numpy - torch| < 1e-6 (float32): {np.abs(g_np - g_pt).max() < 1e-6}")
