import re

from minigpt.presets import get_preset
from minigpt.train import lr_at, make_engine

config = get_preset("shakespeare-cpu", dtype="float32", threads=1)
engine = make_engine(config, config.gpt_config(69))  # V = 69
names = {id(p): name for name, p in engine.model.named_parameters()}
total = sum(p.numel() for p in engine.model.parameters())
for group in engine.optimizer.param_groups:
    params = group["params"]
    n = sum(p.numel() for p in params)
    print(f"weight_decay {group['weight_decay']}: {len(params)} tensors, {n:,} numbers ({n / total:.1%})")
    kinds = {}
    for p in params:
        kind = re.sub(r"blocks\.\d+\.", "blocks.*.", names[id(p)])  # one line for all 4 blocks
        kinds.setdefault(kind, (tuple(p.shape), 0))
        kinds[kind] = (kinds[kind][0], kinds[kind][1] + 1)
    for kind, (shape, count) in kinds.items():
        print(f"    {kind:28s} {str(shape):11s} x{count}")
shrink = 1.0
for step in range(config.max_steps):
    shrink *= 1 - lr_at(step, config) * config.weight_decay  # p *= 1 - lr * wd, every step
print(f"decay alone over {config.max_steps} steps: p -> {shrink:.3f} * p")
