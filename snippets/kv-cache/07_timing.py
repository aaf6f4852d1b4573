import argparse
import gc
import os
import platform
import time

import numpy as np
import torch
from torch.utils._python_dispatch import TorchDispatchMode

from minigpt.gpt_torch import GPT
from minigpt.presets import get_preset

parser = argparse.ArgumentParser()
parser.add_argument("--threads", type=int, default=1)
parser.add_argument("--repeats", type=int, default=21)
parser.add_argument("--report", action="store_true", help="print the measured times and the machine")
args = parser.parse_args()
torch.set_num_threads(args.threads)
config = get_preset("poems-cpu").gpt_config(6831)
model = GPT(config, seed=0).eval()
LENGTHS = (16, 32, 64, 128, 256)
idx = torch.from_numpy(np.random.default_rng(0).integers(0, 6831, size=(1, 256)))  # (1, 256)
cache = model.new_kv_cache(1)


def no_cache(n):  # the step that makes token n+1 without a cache: all n positions
    model(idx[:, :n])


def with_cache(n):  # the same step with n-1 positions cached: only the newest
    cache.length = n - 1
    model(idx[:, n - 1 : n], kv_cache=cache)


class CountOps(TorchDispatchMode):  # every torch operation a call runs
    def __init__(self):
        super().__init__()
        self.n = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.n += 1
        return func(*args, **(kwargs or {}))


ways = {"no cache": no_cache, "cache": with_cache, "cache again": with_cache}
times = {(way, n): [] for way in ways for n in LENGTHS}
order = np.random.default_rng(0)
gc.disable()  # no garbage collection inside a timed call
with torch.no_grad():
    model(idx, kv_cache=cache)  # fill all 256 positions once
    ops = {}
    for way in ("no cache", "cache"):
        with CountOps() as counter:
            ways[way](256)
        ops[way] = counter.n
    for repeat in range(2 + args.repeats):  # 2 warm-up rounds, then the timed ones
        for n in LENGTHS:
            for way in order.permutation(list(ways)):  # a new random order every time
                t0 = time.perf_counter()
                ways[way](n)
                if repeat >= 2:
                    times[way, n].append(time.perf_counter() - t0)
gc.enable()
ms = {key: 1000 * float(np.median(t)) for key, t in times.items()}
print(f"one generation step at context n, poems-cpu's shape ({config.n_layer} layers, {config.n_embd} wide, "
      f"V {config.vocab_size}), torch, float32, batch 1")
print(f"protocol: 2 warm-up rounds, then {args.repeats} timed rounds, the ways in random order; the median")
print(f"torch threads: {torch.get_num_threads()}")
print(f"torch operations per step at n = 256: no cache {ops['no cache']}, cache {ops['cache']}")
ratio = {n: ms["no cache", n] / ms["cache", n] for n in LENGTHS}
print(f"no cache / cache > 2 at n = 256: {ratio[256] > 2}")
print(f"the ratio at n = 256 above the ratio at n = 32: {ratio[256] > ratio[32]}")
print(f"control, cache again / cache > 2 at n = 256: {ms['cache again', 256] / ms['cache', 256] > 2}")
if args.report:
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores seen by Python, torch {torch.__version__}")
    print("n     no cache ms  cache ms  cache again ms  no cache / cache")
    for n in LENGTHS:
        print(f"{n:<4}  {ms['no cache', n]:11.2f}  {ms['cache', n]:8.2f}  {ms['cache again', n]:14.2f}  "
              f"{ratio[n]:16.1f}")
