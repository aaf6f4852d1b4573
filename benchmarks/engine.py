"""One training step of the numpy GPT and of the torch GPT at the default ``GPTConfig()``, timed in a
process of its own.

``benchmarks/run.py engine`` runs ``python benchmarks/engine.py numpy`` and ``... torch`` in turn and
prints the ratio. Separate processes keep the two from disturbing each other: importing torch alone
(its OpenMP and MKL runtimes) slows numpy's small matrix products in the same process by about a
third on a 2-core machine. The numpy process never imports torch.
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np


def time_steps(step, warmup: int, min_steps: int, min_seconds: float) -> float:
    """Mean seconds per call of ``step()`` after ``warmup`` calls; runs at least min_steps and min_seconds."""
    for _ in range(warmup):
        step()
    n, t0 = 0, time.perf_counter()
    while n < min_steps or time.perf_counter() - t0 < min_seconds:
        step()
        n += 1
    return (time.perf_counter() - t0) / n


def batch(config, batch_size: int):
    """Fixed random tokens x, y of shape (batch_size, block_size)."""
    rng = np.random.default_rng(0)
    shape = (batch_size, config.block_size)
    return rng.integers(0, config.vocab_size, shape), rng.integers(0, config.vocab_size, shape)


def numpy_step_ms(batch_size: int = 8, seconds: float = 3.0) -> float:
    """ms per step (forward + backward + clipping + AdamW) of minigpt.gpt.GPT, float32."""
    from minigpt import optim
    from minigpt.config import GPTConfig
    from minigpt.gpt import GPT

    config = GPTConfig()
    model, (x, y) = GPT(config, seed=0), batch(config, batch_size)
    params = model.parameters()
    opt = optim.AdamW(params, lr=1e-3, weight_decay=0.1)

    def step():
        _, loss = model(x, y)
        loss.backward()
        optim.clip_grad_norm_(params, 1.0)
        opt.step()
        opt.zero_grad()

    return 1000 * time_steps(step, warmup=3, min_steps=10, min_seconds=seconds)


def torch_step_ms(batch_size: int = 8, seconds: float = 3.0) -> float:
    """The same step of minigpt.gpt_torch.GPT (the same initial weights and data), float32, fused AdamW."""
    import torch

    from minigpt.config import GPTConfig
    from minigpt.gpt_torch import GPT

    config = GPTConfig()
    model, (x, y) = GPT(config, seed=0), batch(config, batch_size)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.1, fused=True)
    x, y = torch.from_numpy(x), torch.from_numpy(y)

    def step():
        _, loss = model(x, y)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        opt.zero_grad(set_to_none=True)

    return 1000 * time_steps(step, warmup=5, min_steps=20, min_seconds=seconds)


if __name__ == "__main__":
    engine = sys.argv[1] if len(sys.argv) > 1 else ""
    if engine not in ("numpy", "torch"):
        raise SystemExit("usage: python benchmarks/engine.py numpy|torch [seconds]")
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
    ms = numpy_step_ms(seconds=seconds) if engine == "numpy" else torch_step_ms(seconds=seconds)
    print(json.dumps({"engine": engine, "ms": ms, "torch_imported": "torch" in sys.modules}))
