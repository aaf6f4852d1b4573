import argparse
import os
import time

import numpy as np
import torch

from minigpt.gpt_torch import GPT
from minigpt.presets import get_preset

parser = argparse.ArgumentParser()
parser.add_argument("--repeats", type=int, default=3)
parser.add_argument("--cores", type=int, default=1, help="how many cores the process may use")
parser.add_argument("--report", action="store_true", help="print the measured times")
args = parser.parse_args()
os.sched_setaffinity(0, sorted(os.sched_getaffinity(0))[: args.cores])  # this process runs on those cores only
model = GPT(get_preset("poems-cpu").gpt_config(6831), seed=0)
rng = np.random.default_rng(0)
x, y = rng.integers(0, 6831, size=(2, 256)), rng.integers(0, 6831, size=(2, 256))  # (B, T) each
ways = {"1 thread": 1, "2 threads": 2, "1 thread again": 1}
times = {name: [] for name in ways}
with torch.no_grad():
    for repeat in range(1 + args.repeats):  # 1 warm-up round, then the timed ones, the ways alternating
        for name, threads in ways.items():
            torch.set_num_threads(threads)
            t0 = time.perf_counter()
            model(torch.from_numpy(x), torch.from_numpy(y))  # one forward pass
            if repeat >= 1:
                times[name].append(time.perf_counter() - t0)
best = {name: min(t) for name, t in times.items()}
print(f"poem model, one forward pass, 2 x 256 tokens, float32, on {len(os.sched_getaffinity(0))} core(s)")
print(f"2 threads / 1 thread > 2 (slower): {best['2 threads'] / best['1 thread'] > 2}")
print(f"control, 1 thread again / 1 thread > 2: {best['1 thread again'] / best['1 thread'] > 2}")
if args.report:
    for name, t in times.items():
        print(f"{name:15s} median {1000 * np.median(t):6.1f} ms  (min {1000 * min(t):.1f})")
