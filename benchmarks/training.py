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

# targets from the project's issues, printed next to the measurements
TARGET_TOKENS_PER_S = 36_000
TARGET_VAL_LOSS = 1.80
TARGET_WALL_S = 60.0
TARGET_RSS_MIB = 400
# nanoGPT's own train.py in its laptop config (4 layers, 2000 steps, fp32): its validation loss as measured on a
# quiet 2-core Intel Xeon (no AMX, no bf16), 65.7 s for the whole command, one run after the other with
# `minigpt train --preset shakespeare-cpu` (1.7371, 44.3 s). Ratios of time are measured side by side, not against
# these figures: minigpt bench nanogpt (benchmarks/nanogpt.py).
NANOGPT_VAL_LOSS = 1.8857
NANOGPT_WALL_S = 65.7  # that whole command, under /usr/bin/time
NANOGPT_RSS_MIB = 370


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


def report(say, options) -> None:
    """The [shakespeare] section of minigpt bench."""
    from minigpt.presets import get_preset

    c = get_preset("shakespeare-cpu")
    r = bench_shakespeare(full=options.full, threads=options.threads)
    q = r["quick"]
    say(f"\n[shakespeare] shakespeare-cpu preset ({c.n_layer} layers, {c.n_head} heads, {c.n_embd} wide, "
        f"context {c.block_size}, batch {c.batch_size}, {c.max_steps} steps), {q['threads']} torch threads, "
        "fresh process each")
    for row in (q, r["quick_fp32"]) if "quick_fp32" in r else (q,):
        say(f"  {row['steps']} steps, {row['dtype']:>8}: {row['ms_per_step']:.2f} ms/step, "
            f"{row['tokens_per_s']:,.0f} tokens/s (target >= {TARGET_TOKENS_PER_S:,}: "
            f"{say.mark(row['tokens_per_s'] >= TARGET_TOKENS_PER_S)})")
    say("  (nanoGPT side by side, one run after the other: minigpt bench nanogpt)")
    say(f"  (the preset's dtype is 'auto': {q['dtype']} on this CPU)")
    say(f"  peak RSS {q['peak_rss_mib']:.0f} MiB (target <= {TARGET_RSS_MIB}: "
        f"{say.mark(q['peak_rss_mib'] <= TARGET_RSS_MIB)})")
    if "full" in r:
        f = r["full"]
        say(f"  full run, {f['steps']} steps, {f['dtype']}: val loss {f['val_loss']:.4f} (target <= {TARGET_VAL_LOSS}: "
            f"{say.mark(f['val_loss'] <= TARGET_VAL_LOSS)}; nanoGPT {NANOGPT_VAL_LOSS}), "
            f"training {f['train_elapsed_s']:.1f} s (target <= {TARGET_WALL_S:g}: "
            f"{say.mark(f['train_elapsed_s'] <= TARGET_WALL_S)}), process {f['process_wall_s']:.1f} s, "
            f"{f['tokens_per_s']:,.0f} tokens/s, {f['ms_per_step']:.2f} ms/step, "
            f"peak RSS {f['peak_rss_mib']:.0f} MiB")
    else:
        say(f"  (add --full for the whole {c.max_steps}-step run: validation loss and wall time, under a minute)")


if __name__ == "__main__":
    p = argparse.ArgumentParser(prog="python benchmarks/training.py")
    p.add_argument("what", choices=["shakespeare"])
    p.add_argument("--steps", type=int)
    p.add_argument("--threads", type=int)
    p.add_argument("--dtype", default="auto")
    a = p.parse_args()
    print(json.dumps(shakespeare_worker(a.steps, a.threads, a.dtype)))
