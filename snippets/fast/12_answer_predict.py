import numpy as np
import torch
from torch.profiler import ProfilerActivity, profile

from minigpt.gpt_torch import GPT
from minigpt.presets import get_preset

torch.set_num_threads(1)
print("preset            V     V / (V + 12*L*C)   counted by the profiler")
for preset, V in (("poems-cpu", 6831), ("shakespeare-cpu", 69)):
    config = get_preset(preset).gpt_config(V)
    L, C = config.n_layer, config.n_embd
    model = GPT(config, seed=0)
    rng = np.random.default_rng(0)
    x, y = (torch.from_numpy(rng.integers(0, V, size=(2, config.block_size))) for _ in range(2))
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True, with_flops=True) as prof:
        model(x, y)[1].backward()
    rows = prof.key_averages(group_by_input_shape=True)
    head = sum(e.flops for e in rows if str(V) in str(e.input_shapes))  # the output layer's matmuls
    print(f"{preset:16s} {V:5d}   {V / (V + 12 * L * C):16.1%}   {head / sum(e.flops for e in rows):.1%}")
