"""The benchmarks' building blocks run and measure what they say (timings themselves are not asserted)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

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
    assert done.returncode == 0 and "engine, shakespeare, generate, learning, poems" in done.stdout
    done = subprocess.run([sys.executable, "-m", "minigpt", "bench", "nope"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 2 and "unknown section(s) nope" in done.stderr


@pytest.mark.parametrize("argv, says", [
    (["--threads", "-1"], "argument --threads: expected a positive integer, got '-1'"),
    (["--threads", "two"], "argument --threads: expected a positive integer, got 'two'"),
    (["--samples", "0"], "argument --samples: expected a positive integer, got '0'"),
    (["engine", "nope"], "unknown section(s) nope; choose from engine, shakespeare, generate, learning, poems"),
])
def test_bad_arguments_are_one_line_errors_before_anything_runs(capsys, argv, says):
    import run

    with pytest.raises(SystemExit) as exit_:
        run.main(argv)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("minigpt bench: error: ") and says in err, err


def test_every_section_is_a_module_with_a_report_and_a_new_one_is_one_file_and_one_entry(capsys, tmp_path,
                                                                                         monkeypatch):
    import importlib

    import run

    for name, section in run.SECTIONS.items():
        assert callable(importlib.import_module(section.module).report), name
    assert run.DEFAULT_SECTIONS == ("engine", "shakespeare", "generate", "learning")  # poems needs a trained checkpoint
    (tmp_path / "tiny_bench.py").write_text(
        "def report(say, options):\n    say(f'[tiny] samples {options.samples}: ' + say.mark(True))\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(run.SECTIONS, "tiny", run.Section("tiny_bench", False, "a benchmark added in a test"))
    assert "tiny" in run.build_parser().format_help()
    assert run.main(["tiny", "--samples", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("minigpt bench on ") and out[1:] == ["[tiny] samples 3: ok"]
