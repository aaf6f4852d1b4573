import numpy as np
import torch

from minigpt import functional as F
from minigpt.data import shakespeare_corpus
from window_mlp import WindowMLP

corpus = shakespeare_corpus()
V, k = corpus.tokenizer.vocab_size, 4
model = WindowMLP(V, k, rng=np.random.default_rng(0)).to(np.float64)
for p in model.parameters():  # away from the initial values (LayerNorm weight 1, biases 0)
    p.data += np.random.default_rng(1).standard_normal(p.shape) * 0.1
x, y = corpus.get_batch("train", 8, k, np.random.default_rng(2))  # (8, k), (8, k)
loss = F.cross_entropy(model(x), y[:, -1])
loss.backward()

w = {name: torch.tensor(p.data, requires_grad=True) for name, p in model.named_parameters()}


def torch_forward(idx):  # the same model written with torch.nn.functional
    e = torch.nn.functional.embedding(idx, w["wte.weight"])  # (B, k, d)
    a = e.reshape(len(idx), -1) @ w["fc.weight"].T + w["fc.bias"]  # (B, H)
    n = torch.nn.functional.layer_norm(a, (a.shape[-1],), w["ln.weight"], w["ln.bias"], eps=1e-5)
    return torch.tanh(n) @ w["lm_head.weight"].T + w["lm_head.bias"]  # (B, V)


t_loss = torch.nn.functional.cross_entropy(torch_forward(torch.tensor(x)), torch.tensor(y[:, -1]))
t_loss.backward()
print(f"loss: ours {float(loss.data):.6f}  torch {t_loss.item():.6f}")
worst = max(np.abs(p.grad - w[name].grad.numpy()).max() for name, p in model.named_parameters())
print(f"all 7 gradients, max |ours - torch| < 1e-10: {worst < 1e-10}")
flipped = torch_forward(torch.tensor(x[:, ::-1].copy()))  # control: the window read backwards
print(f"control, window reversed: same logits: {np.allclose(flipped.detach().numpy(), model(x).data)}")
