import numpy as np
import torch
from torch.profiler import ProfilerActivity, profile

from minigpt.gpt_torch import GPT
from minigpt.presets import get_preset

model = GPT(get_preset("tiny").gpt_config(69), seed=0)
idx = torch.from_numpy(np.random.default_rng(0).integers(0, 69, size=(2, 8)))  # (B, T)
try:
    torch.compile(model, fullgraph=True)(idx)
except Exception as e:
    print(f"{type(e).__name__}: {str(e).splitlines()[0]}")
with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16):
    logits, _ = model(idx)  # (B, T, V)
try:
    logits.numpy()
except TypeError as e:
    print(f"TypeError: {e}; logits.dtype is {logits.dtype}")
with profile(activities=[ProfilerActivity.CPU]) as prof:  # without record_shapes=True
    model(idx)
row = [e for e in prof.key_averages(group_by_input_shape=True) if e.key == "aten::matmul"][0]
print(f"without record_shapes: aten::matmul input shapes {row.input_shapes}")
torch.set_num_interop_threads(2)
try:
    torch.set_num_interop_threads(1)
except RuntimeError as e:
    print(f"RuntimeError: {e}")
