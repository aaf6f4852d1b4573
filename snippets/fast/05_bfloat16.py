import argparse
import time
from pathlib import Path

import numpy as np
import torch

from minigpt.device import resolve_dtype
from minigpt.presets import get_preset
from minigpt.train import TorchEngine

parser = argparse.ArgumentParser()
parser.add_argument("--repeats", type=int, default=4)
parser.add_argument("--report", action="store_true", help="print the measured times")
args = parser.parse_args()
torch.set_num_threads(1)
flags = set(Path("/proc/cpuinfo").read_text().split()) if Path("/proc/cpuinfo").exists() else set()
print(f"CPU flags avx512_bf16 / amx_bf16 (bfloat16 in hardware): {'avx512_bf16' in flags} / {'amx_bf16' in flags}")
print(f"torch.backends.cpu.get_cpu_capability(): {torch.backends.cpu.get_cpu_capability()}")
print(f"oneDNN says it can do bfloat16 here: {torch.ops.mkldnn._is_mkldnn_bf16_supported()}")
print(f"dtype 'auto' (it times a matmul both ways) picks here: {resolve_dtype('auto', torch.device('cpu'))}")


def engine(dtype):  # the poem model's step with AdamW, as lesson 14 wrote it
    config = get_preset("poems-cpu", optimizer="adamw", dtype=dtype, device="cpu", seed=0, batch_size=2)
    return TorchEngine(config, config.gpt_config(6831))


engines = {name: engine(dtype) for name, dtype in
           (("float32", "float32"), ("bfloat16", "bfloat16"), ("float32 again", "float32"))}
rng = np.random.default_rng(0)
x, y = rng.integers(0, 6831, size=(2, 256)), rng.integers(0, 6831, size=(2, 256))  # (B, T) each
times = {name: [] for name in engines}
losses = {}
for repeat in range(1 + args.repeats):  # 1 warm-up round, then the timed ones, the ways alternating
    for name, engine in engines.items():
        t0 = time.process_time()
        loss = engine.train_step(x, y, 1e-3)
        losses.setdefault(name, loss)  # the first step's loss, before any update
        if repeat >= 1:
            times[name].append(time.process_time() - t0)
best = {name: min(t) for name, t in times.items()}
print(f"poem model, one training step, 2 x 256 tokens, 1 thread; first loss float32 {losses['float32']:.3f}, "
      f"bfloat16 autocast {losses['bfloat16']:.3f}")
print(f"bfloat16 / float32 > 1.5 (slower): {best['bfloat16'] / best['float32'] > 1.5}")
print(f"control, float32 again / float32 > 1.5: {best['float32 again'] / best['float32'] > 1.5}")
if args.report:
    for name, t in times.items():
        print(f"{name:14s} median {1000 * np.median(t):6.1f} ms  (min {1000 * min(t):.1f})")
