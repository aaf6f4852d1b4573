import numpy as np
import torch
from torch.nn import functional as F
from torch.profiler import ProfilerActivity, profile

from minigpt.gpt_torch import GPT
from minigpt.presets import get_preset

torch.set_num_threads(1)
config = get_preset("poems-cpu").gpt_config(6831)
model = GPT(config, seed=0)
B, T, C, V = 8, config.block_size, config.n_embd, config.vocab_size
rng = np.random.default_rng(0)
x, y = torch.from_numpy(rng.integers(0, V, size=(B, T))), torch.from_numpy(rng.integers(0, V, size=(B, T)))
seen = {}
model.ln_f.register_forward_hook(lambda module, inputs, out: seen.update(h=out.detach()))
_, loss_model = model(x, y)  # seen["h"]: what the output layer receives, (B, T, C)
h = seen["h"].requires_grad_()
with profile(activities=[ProfilerActivity.CPU], record_shapes=True, with_flops=True) as prof:
    logits = h @ model.wte.weight.T  # (B, T, C) @ (C, V) -> (B, T, V)
    loss = F.cross_entropy(logits.view(B * T, V), y.view(B * T))
    loss.backward()
KERNELS = ("aten::mm", "aten::_log_softmax", "aten::nll_loss_forward", "aten::nll_loss_backward",
           "aten::_log_softmax_backward_data")  # the operations that compute; the rest are views and copies
ops = [e for e in prof.events() if e.name in KERNELS]  # in the order they ran
print(f"{'operation':34s} {'input shapes':30s} GFLOP")
for e in ops:
    shapes = " ".join(str(tuple(s)) for s in e.input_shapes if len(s) >= 2)
    print(f"{e.name:34s} {shapes:30s} {e.flops / 1e9:5.2f}")
flops = sum(e.flops for e in ops)
print(f"matmul work: 3 x 2*B*T*C*V = 3 x {2 * B * T * C * V / 1e9:.2f} GFLOP, as counted: {flops == 3 * 2 * B * T * C * V}")
print(f"logits (B*T, V) float32: {logits.numel() * 4 / 2**20:.1f} MiB, their gradient the same again")
print(f"same loss as model(x, y): {torch.allclose(loss, loss_model)}")
