import argparse
import os
import platform
import time

import numpy as np
import torch

from minigpt.presets import get_preset
from minigpt.train import TorchEngine

parser = argparse.ArgumentParser()
parser.add_argument("--backend", default="aot_eager", help="inductor generates C++ kernels; aot_eager only traces")
parser.add_argument("--repeats", type=int, default=7)
parser.add_argument("--report", action="store_true", help="time eager against compiled steps")
args = parser.parse_args()
torch.set_num_threads(1)
config = get_preset("poems-cpu", optimizer="adamw", dtype="float32", device="cpu", seed=0,
                    batch_size=8 if args.report else 2)
engines = {name: TorchEngine(config, config.gpt_config(6831)) for name in ("eager", "compiled", "eager again")}
engines["compiled"].model = torch.compile(engines["compiled"].model, backend=args.backend)
B, T = config.batch_size, config.block_size
rng = np.random.default_rng(0)
x, y = rng.integers(0, 6831, size=(B, T)), rng.integers(0, 6831, size=(B, T))  # (B, T) each
t0 = time.perf_counter()
loss = engines["compiled"].train_step(x, y, 1e-3)  # the first call traces and compiles forward and backward
seconds = time.perf_counter() - t0
print(f"poem model, one training step, {B} x {T} tokens, float32, torch.compile backend {args.backend}")
print(f"same loss as eager: {abs(loss - engines['eager'].train_step(x, y, 1e-3)) < 1e-4}")
if args.report:
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, torch {torch.__version__}, 1 thread")
    print(f"first compiled step (tracing + code generation + C++ compiler): {seconds:.1f} s")
    engines["eager again"].train_step(x, y, 1e-3)  # every engine one step ahead, the same weights
    times = {name: [] for name in engines}
    for repeat in range(2 + args.repeats):  # 2 warm-up rounds, then the timed ones, alternating
        for name, engine in engines.items():
            t0 = time.perf_counter()
            engine.train_step(x, y, 1e-3)
            if repeat >= 2:
                times[name].append(time.perf_counter() - t0)
    for name, t in times.items():
        print(f"{name:12s} median {1000 * np.median(t):6.1f} ms  (min {1000 * min(t):.1f})")
    ms = {name: np.median(t) for name, t in times.items()}
    print(f"eager / compiled = {ms['eager'] / ms['compiled']:.2f}, eager again / eager = {ms['eager again'] / ms['eager']:.2f}")
