"""Training speed and memory of the shakespeare-cpu preset, each run in a fresh process.

``python benchmarks/training.py shakespeare --steps 200`` prints one JSON line; ``bench_shakespeare``
starts those processes so that peak memory (RSS) is the training's own.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time

import torch


def peak_rss_mib() -> float:
    """This process's peak resident memory in MiB (ru_maxrss: KiB on Linux, bytes on macOS)."""
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024


def shakespeare_worker(steps: int | None, threads: int | None, dtype: str = "auto") -> dict:
    """Run in a fresh process: train shakespeare-cpu (``steps`` steps, or the whole preset) and measure."""
    from minigpt.device import resolve_dtype
    from minigpt.presets import get_preset
    from minigpt.train import train

    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="minigpt-bench-") as out:
        overrides = {"out_dir": out, "threads": threads, "device": "cpu", "dtype": dtype}
        if steps is not None:  # throughput only: one evaluation at the end
            overrides.update(max_steps=steps, eval_interval=steps, eval_iters=1)
        config = get_preset("shakespeare-cpu", **overrides)
        result = train(config, progress=False, plot=steps is None)
    return {"steps": result.step, "tokens_per_s": result.tokens_per_s, "ms_per_step": result.ms_per_step,
            "val_loss": result.val_loss, "train_elapsed_s": result.elapsed,
            "process_wall_s": time.perf_counter() - t0, "peak_rss_mib": peak_rss_mib(),
            "threads": torch.get_num_threads(), "tokens_per_step": config.tokens_per_step,
            "dtype": str(resolve_dtype(dtype, torch.device("cpu"))).removeprefix("torch.")}


def _run_worker(args: list[str]) -> dict:
    cmd = [sys.executable, __file__, *args]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode:
        tail = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise RuntimeError(f"bench worker {' '.join(args)} failed: {tail}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def bench_shakespeare(steps: int = 200, full: bool = False, threads: int | None = None) -> dict:
    from minigpt.device import resolve_dtype

    extra = ["--threads", str(threads)] if threads else []
    out = {"quick": _run_worker(["shakespeare", "--steps", str(steps), *extra])}
    if resolve_dtype("auto", torch.device("cpu")) != torch.float32:  # this CPU trains in bf16: float32 too
        out["quick_fp32"] = _run_worker(["shakespeare", "--steps", str(steps), "--dtype", "float32", *extra])
    if full:
        out["full"] = _run_worker(["shakespeare", *extra])
    return out


if __name__ == "__main__":
    p = argparse.ArgumentParser(prog="python benchmarks/training.py")
    p.add_argument("what", choices=["shakespeare"])
    p.add_argument("--steps", type=int)
    p.add_argument("--threads", type=int)
    p.add_argument("--dtype", default="auto")
    a = p.parse_args()
    print(json.dumps(shakespeare_worker(a.steps, a.threads, a.dtype)))
