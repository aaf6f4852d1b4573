import argparse
import csv

import numpy as np
import torch
from torch.profiler import ProfilerActivity, profile

from minigpt.presets import get_preset
from minigpt.train import TorchEngine

parser = argparse.ArgumentParser()
parser.add_argument("--report", action="store_true", help="print each part's time and torch's own table")
parser.add_argument("--save", help="with --report: write each part's share to this CSV file")
args = parser.parse_args()
torch.set_num_threads(1)
config = get_preset("poems-cpu", optimizer="adamw", dtype="float32", device="cpu", seed=0)  # AdamW, as lesson 14
V = 6831
engine = TorchEngine(config, config.gpt_config(V))
B, T = config.batch_size, config.block_size
rng = np.random.default_rng(0)
x, y = rng.integers(0, V, size=(B, T)), rng.integers(0, V, size=(B, T))  # (B, T) each
STEPS = 2
engine.train_step(x, y, 1e-3)  # warm-up: the first step allocates memory
with profile(activities=[ProfilerActivity.CPU], record_shapes=True, with_flops=True) as prof:
    for _ in range(STEPS):
        engine.train_step(x, y, 1e-3)


def part(event):  # which part of the step an operation belongs to
    name, shapes = event.key, str(event.input_shapes)
    if "adamw" in name.lower() or "foreach" in name or "vector_norm" in name:
        return "optimizer and clipping"
    if "scaled_dot_product" in name:
        return "attention (fused)"
    if str(V) in shapes:
        return "output layer + loss (6,831-way)"
    return "everything else in the blocks"


parts = {}  # part -> [self CPU microseconds, calls, flops]
for e in prof.key_averages(group_by_input_shape=True):
    if e.key.startswith(("aten::", "autograd::")) or "::" not in e.key:
        p = parts.setdefault(part(e), [0.0, 0, 0])
        p[0], p[1], p[2] = p[0] + e.self_cpu_time_total, p[1] + e.count // STEPS, p[2] + e.flops // STEPS
total = sum(p[0] for p in parts.values())
share = {name: p[0] / total for name, p in parts.items()}
print(f"one training step of the poem model: {config.n_layer} layers, {config.n_embd} wide, V {V}, "
      f"{B} x {T} tokens, float32, 1 thread; {STEPS} steps profiled")
print(f"{'part of the step':32s} {'op calls':>8s} {'GFLOP':>6s}  its share of the time")
for name in ("output layer + loss (6,831-way)", "attention (fused)", "everything else in the blocks",
             "optimizer and clipping"):
    seconds, calls, flops = parts[name]
    claim = {"output layer + loss (6,831-way)": ("more than 1/3", share[name] > 1 / 3),
             "attention (fused)": ("less than 1/3", share[name] < 1 / 3),
             "optimizer and clipping": ("less than 1/20", share[name] < 1 / 20)}
    shown = f"{claim[name][0]}: {claim[name][1]}" if name in claim else ""
    gflop = f"{flops / 1e9:6.1f}" if flops else "     -"  # the profiler counts the FLOPs of matmuls only
    print(f"{name:32s} {calls:8d} {gflop}  {shown}".rstrip())
if args.report:
    for name, s in share.items():
        print(f"{name:32s} {100 * s:5.1f}% of {total / 1000 / STEPS:.0f} ms per step")
    print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=10, max_name_column_width=40))
    if args.save:
        with open(args.save, "w", newline="") as f:
            csv.writer(f).writerows([("part", "percent_of_time", "gflop")] +
                                    [(n, f"{100 * share[n]:.1f}", f"{parts[n][2] / 1e9:.2f}") for n in share])
