import torch

from minigpt.gpt2 import from_hf

C = 2
W = torch.arange(C * 3 * C).reshape(C, 3 * C)  # c_attn.weight (C, 3C): columns q | k | v
print("c_attn.weight (C, 3C), C = 2:")
print(W.numpy())
for name, t in from_hf("h.0.attn.c_attn.weight", W).items():
    print(f"{name}: {t.tolist()}")

C = 8
torch.manual_seed(0)
x, W, b = torch.randn(1, 5, C), torch.randn(C, 3 * C), torch.randn(3 * C)  # (B, T, C), c_attn (C, 3C), (3C,)
q, k, v = (x @ W + b).split(C, dim=2)  # GPT-2's code: one matmul, then the output cut in three (B, T, C)
ours = {**from_hf("h.0.attn.c_attn.weight", W), **from_hf("h.0.attn.c_attn.bias", b)}
for part, theirs in zip("qkv", (q, k, v)):
    mine = x @ ours[f"blocks.0.attn.c_{part}.weight"].T + ours[f"blocks.0.attn.c_{part}.bias"]  # our c_{part}(x)
    print(f"GPT-2's {part} == our c_{part}(x): {torch.allclose(mine, theirs, atol=1e-6)}", end="; " if part < "v" else "\n")
