"""The benchmarks' building blocks run and measure what they say (timings themselves are not asserted)."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))


def test_engine_worker_times_numpy_without_importing_torch():
    done = subprocess.run([sys.executable, "benchmarks/engine.py", "numpy", "0.05"], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["engine"] == "numpy" and report["ms"] > 0
    assert report["torch_imported"] is False


def test_engine_worker_rejects_an_unknown_engine():
    done = subprocess.run([sys.executable, "benchmarks/engine.py", "jax"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode != 0 and "usage" in done.stderr


def test_generation_is_timed_with_and_without_the_cache():
    import torch

    from generation import time_generation
    from minigpt.config import GPTConfig
    from minigpt.gpt_torch import GPT

    model = GPT(GPTConfig(vocab_size=30))
    prompt = torch.randint(0, 30, (1, 4))
    cached, cached_tps = time_generation(model, prompt, 8, use_cache=True)
    plain, plain_tps = time_generation(model, prompt, 8, use_cache=False)
    assert cached_tps > 0 and plain_tps > 0
    assert cached.shape == (1, 12) and torch.equal(cached, plain)


def test_minigpt_bench_hands_its_arguments_to_the_benchmarks():
    done = subprocess.run([sys.executable, "-m", "minigpt", "bench", "--help"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0 and "engine, shakespeare, generate, poems" in done.stdout
    done = subprocess.run([sys.executable, "-m", "minigpt", "bench", "nope"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 2 and "unknown section(s) nope" in done.stderr
