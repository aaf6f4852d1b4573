import argparse
import os
import platform
import time

import numpy as np
import torch

from minigpt.presets import get_preset
from minigpt.train import NumpyEngine, TorchEngine

parser = argparse.ArgumentParser()
parser.add_argument("--threads", type=int, default=1)
parser.add_argument("--repeats", type=int, default=15)
parser.add_argument("--report", action="store_true", help="print the measured times and the machine")
args = parser.parse_args()
torch.set_num_threads(args.threads)
config = get_preset("shakespeare-cpu", dtype="float32", device="cpu", seed=0)
model_config = config.gpt_config(69)
B, T = config.batch_size, config.block_size
rng = np.random.default_rng(0)
x, y = rng.integers(0, 69, size=(B, T)), rng.integers(0, 69, size=(B, T))  # (B, T) each
engines = {"numpy": NumpyEngine(config, model_config), "torch": TorchEngine(config, model_config),
           "torch again": TorchEngine(config, model_config)}
times = {name: [] for name in engines}
for repeat in range(2 + args.repeats):  # 2 + repeats rounds
    order = list(engines.items())
    k = repeat % len(order)  # rotate, so that no engine always runs right after numpy's step
    for name, engine in order[k:] + order[:k]:
        t0 = time.perf_counter()
        engine.train_step(x, y, 1e-3)
        if repeat >= 2:
            times[name].append(time.perf_counter() - t0)
ms = {name: 1000 * float(np.median(t)) for name, t in times.items()}
best = {name: min(t) for name, t in times.items()}  # the least disturbed step of each engine
print(f"one training step: shakespeare-cpu's model ({config.n_layer} layers, {config.n_embd} wide), "
      f"{B} x {T} tokens, float32")
print(f"protocol: 2 warm-up steps, then {args.repeats} timed steps per engine, alternating; the fastest of each")
print(f"torch threads: {torch.get_num_threads()}")
print(f"numpy / torch > 1.3: {best['numpy'] / best['torch'] > 1.3}")
print(f"control, torch again / torch > 1.3: {best['torch again'] / best['torch'] > 1.3}")
if args.report:
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores seen by Python, torch {torch.__version__}")
    for name, t in times.items():
        print(f"{name:12s} median {ms[name]:7.1f} ms  (min {1000 * min(t):.1f}, max {1000 * max(t):.1f})")
    print(f"numpy / torch = {ms['numpy'] / ms['torch']:.2f}, "
          f"torch again / torch = {ms['torch again'] / ms['torch']:.2f}")
