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
