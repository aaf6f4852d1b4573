import argparse
import math
import time

import numpy as np
import torch
from torch.nn import functional as F

parser = argparse.ArgumentParser()
parser.add_argument("--repeats", type=int, default=21)
parser.add_argument("--report", action="store_true", help="print the measured times")
args = parser.parse_args()
torch.set_num_threads(1)
B, nh, T, hs = 8, 4, 256, 32  # one layer of the poem model: batch 8, 4 heads, context 256, 128 / 4 wide


def manual(q, k, v):  # lesson 10's steps 3-6, one tensor each
    att = q @ k.transpose(-2, -1) / math.sqrt(hs)  # (B, nh, T, hs) @ (B, nh, hs, T) -> (B, nh, T, T)
    causal = torch.ones(T, T, dtype=torch.bool).tril()  # (T, T)
    att = att.masked_fill(~causal, float("-inf")).softmax(dim=-1)  # (B, nh, T, T)
    return att @ v  # (B, nh, T, T) @ (B, nh, T, hs) -> (B, nh, T, hs)


def fused(q, k, v):
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)  # (B, nh, T, hs)


gen = torch.Generator().manual_seed(0)
q, k, v = (torch.randn(B, nh, T, hs, generator=gen, requires_grad=True) for _ in range(3))
saved = {}
for name, attend in (("manual", manual), ("fused", fused)):
    kept = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: kept.append(t) or t, lambda t: t):
        out = attend(q, k, v)
    extra = {t.data_ptr(): t for t in kept if t.data_ptr() not in (q.data_ptr(), k.data_ptr(), v.data_ptr())}
    saved[name] = sum(t.numel() * t.element_size() for t in extra.values())
print(f"attention of one layer: B={B}, nh={nh}, T={T}, hs={hs}, float32, forward + backward, 1 thread")
print(f"same output: max |manual - fused| < 1e-5: {(manual(q, k, v) - fused(q, k, v)).abs().max().item() < 1e-5}")
for name in saved:
    print(f"{name:6s} keeps for backward, besides q, k, v: {saved[name] / 2**20:5.2f} MiB")
ways = {"manual": manual, "fused": fused, "fused again": fused}
times = {name: [] for name in ways}
for repeat in range(2 + args.repeats):  # 2 warm-up rounds, then the timed ones, the ways alternating
    for name, attend in ways.items():
        t0 = time.process_time()
        attend(q, k, v).sum().backward()
        if repeat >= 2:
            times[name].append(time.process_time() - t0)
best = {name: min(t) for name, t in times.items()}  # the least disturbed call of each
print(f"manual / fused > 1.25: {best['manual'] / best['fused'] > 1.25}")  # about 1.6 on a 2-core AMD EPYC
print(f"control, fused again / fused > 1.25: {best['fused again'] / best['fused'] > 1.25}")
if args.report:
    for name, t in times.items():
        print(f"{name:12s} median {1000 * np.median(t):6.1f} ms  (min {1000 * min(t):.1f})")
