"""One training step of the numpy GPT and of the torch GPT at the default ``GPTConfig()``, timed in a
process of its own.

``benchmarks/run.py engine`` runs ``python benchmarks/engine.py numpy`` and ``... torch`` in turn and
prints the ratio. Separate processes keep the two from disturbing each other: importing torch alone
(its OpenMP and MKL runtimes) slows numpy's small matrix products in the same process by about a
third on a 2-core machine. The numpy process never imports torch.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

TARGET_ENGINE_RATIO = 3.0  # numpy within 3x of torch (the project's issues)


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


def bench_engine(batch_size: int = 8, seconds: float = 1.5, rounds: int = 3) -> dict:
    """ms per training step of the numpy GPT and the torch GPT on the same shape, weights and data, each
    timed in a fresh process of its own (see engine.py for why). The two alternate for ``rounds`` rounds
    and each keeps its fastest round: on a shared machine, slow rounds are noise."""
    ms: dict[str, list[float]] = {"numpy": [], "torch": []}
    script = Path(__file__).resolve()
    for _ in range(rounds):
        for engine in ms:
            done = subprocess.run([sys.executable, str(script), engine, str(seconds)], capture_output=True, text=True)
            if done.returncode:
                tail = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
                raise RuntimeError(f"bench engine {engine} failed: {tail}")
            ms[engine].append(json.loads(done.stdout.strip().splitlines()[-1])["ms"])
    best = {engine: min(values) for engine, values in ms.items()}
    return {"shape": f"GPTConfig() (2 layers, 4 heads, 64 wide, context 32), batch {batch_size}, float32, "
                     f"each engine in a fresh process, best of {rounds} alternating rounds",
            "numpy_ms": best["numpy"], "torch_ms": best["torch"], "ratio": best["numpy"] / best["torch"],
            "rounds_ms": ms, "torch_optimizer": "fused AdamW"}


def report(say, options) -> None:
    """The [engine] section of minigpt bench."""
    r = bench_engine()
    say(f"\n[engine] one training step (fwd+bwd+AdamW), {r['shape']}")
    say(f"  numpy GPT   {r['numpy_ms']:8.2f} ms/step")
    say(f"  torch GPT   {r['torch_ms']:8.2f} ms/step  ({r['torch_optimizer']})")
    say(f"  rounds (ms): numpy " + ", ".join(f"{v:.2f}" for v in r["rounds_ms"]["numpy"])
        + "; torch " + ", ".join(f"{v:.2f}" for v in r["rounds_ms"]["torch"]))
    say(f"  numpy/torch {r['ratio']:8.2f}x   target <= {TARGET_ENGINE_RATIO:g}x: "
        f"{say.mark(r['ratio'] <= TARGET_ENGINE_RATIO)}")


if __name__ == "__main__":
    engine = sys.argv[1] if len(sys.argv) > 1 else ""
    if engine not in ("numpy", "torch"):
        raise SystemExit("usage: python benchmarks/engine.py numpy|torch [seconds]")
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
    ms = numpy_step_ms(seconds=seconds) if engine == "numpy" else torch_step_ms(seconds=seconds)
    print(json.dumps({"engine": engine, "ms": ms, "torch_imported": "torch" in sys.modules}))
