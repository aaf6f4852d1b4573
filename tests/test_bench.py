"""The benchmark's building blocks run and measure what they say (timings themselves are not asserted)."""

import json
import subprocess
import sys


def test_engine_worker_times_numpy_without_importing_torch():
    done = subprocess.run([sys.executable, "-m", "minigpt.bench_engine", "numpy", "0.05"],
                          capture_output=True, text=True, check=True)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["engine"] == "numpy" and report["ms"] > 0
    assert report["torch_imported"] is False


def test_engine_worker_rejects_an_unknown_engine():
    done = subprocess.run([sys.executable, "-m", "minigpt.bench_engine", "jax"], capture_output=True, text=True)
    assert done.returncode != 0 and "usage" in done.stderr


def test_generation_is_timed_with_and_without_the_cache():
    import torch

    from minigpt.bench import time_generation
    from minigpt.config import GPTConfig
    from minigpt.model import GPT

    torch.manual_seed(0)
    model = GPT(GPTConfig.tiny(vocab_size=30))
    prompt = torch.randint(0, 30, (1, 4))
    cached, cached_tps = time_generation(model, prompt, 8, use_cache=True)
    plain, plain_tps = time_generation(model, prompt, 8, use_cache=False)
    assert cached_tps > 0 and plain_tps > 0
    assert cached.shape == (1, 12) and torch.equal(cached, plain)
