import math
import tempfile

import torch
from safetensors.torch import load_file
from torch.nn import functional as F

from minigpt.config import GPTConfig
from minigpt.gpt2 import load_gpt2, save_gpt2
from minigpt.gpt_torch import GPT

config = GPTConfig(vocab_size=100, block_size=32, n_layer=2, n_head=4, n_embd=32)
model = GPT(config, seed=0).eval()
g = torch.Generator().manual_seed(0)
with torch.no_grad():
    for p in model.parameters():
        p.add_(0.3 * torch.randn(p.shape, generator=g))  # far from the initial weights: every mistake shows
folder = save_gpt2(model, tempfile.mkdtemp())
w = {k.removeprefix("transformer."): t for k, t in load_file(folder / "model.safetensors").items()}


def gpt2_forward(w, idx, n_layer, n_head):
    """GPT-2's forward as its own code computes it, on the file's tensors: Conv1D is x @ W + b, W (in, out)."""
    def ln(x, p):
        return F.layer_norm(x, x.shape[-1:], w[p + ".weight"], w[p + ".bias"], eps=1e-5)

    def conv1d(x, p):
        return x @ w[p + ".weight"] + w[p + ".bias"]  # (..., in) @ (in, out)

    B, T = idx.shape
    x = w["wte.weight"][idx] + w["wpe.weight"][:T]  # (B, T, C)
    C = x.size(-1)
    for i in range(n_layer):
        h = f"h.{i}."
        q, k, v = conv1d(ln(x, h + "ln_1"), h + "attn.c_attn").split(C, dim=2)  # (B, T, 3C) -> 3 x (B, T, C)
        q, k, v = (t.view(B, T, n_head, C // n_head).transpose(1, 2) for t in (q, k, v))  # (B, nh, T, hs)
        att = q @ k.transpose(-2, -1) / math.sqrt(C // n_head)  # (B, nh, T, T)
        att = att.masked_fill(torch.ones(T, T).tril() == 0, float("-inf")).softmax(dim=-1)
        x = x + conv1d((att @ v).transpose(1, 2).reshape(B, T, C), h + "attn.c_proj")
        m = conv1d(ln(x, h + "ln_2"), h + "mlp.c_fc")  # (B, T, 4C)
        m = 0.5 * m * (1 + torch.tanh(math.sqrt(2 / math.pi) * (m + 0.044715 * m**3)))  # gelu_new
        x = x + conv1d(m, h + "mlp.c_proj")
    return ln(x, "ln_f") @ w["wte.weight"].T  # tied head: (B, T, V)


idx = torch.randint(0, config.vocab_size, (2, config.block_size), generator=g)  # (B, T)
loaded = load_gpt2(folder)
with torch.no_grad():
    reference, ours = gpt2_forward(w, idx, config.n_layer, config.n_head), loaded(idx)[0]
print(f"file: {len(w)} tensors; logits as large as {reference.abs().max():.0f}")
print("load_gpt2 gives back every weight bit for bit:",
      all(torch.equal(t, loaded.state_dict()[k]) for k, t in model.state_dict().items()))
print("GPT-2's forward on the file == our twin, within 1e-5:", torch.allclose(ours, reference, atol=1e-5, rtol=1e-5))
with torch.no_grad():
    for block in loaded.blocks:
        block.attn.c_proj.weight.copy_(block.attn.c_proj.weight.t().clone())  # as the file stores it: (in, out)
    wrong = loaded(idx)[0]
print("control, c_proj not transposed (the shapes fit):", torch.allclose(wrong, reference, atol=1e-5, rtol=1e-5))
