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
    sections = "engine, shakespeare, generate, learning, nanogpt, poems"
    assert done.returncode == 0 and sections in " ".join(done.stdout.split())  # the help wraps its lines
    done = subprocess.run([sys.executable, "-m", "minigpt", "bench", "nope"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 2 and "unknown section(s) nope" in done.stderr


@pytest.mark.parametrize("argv, says", [
    (["--threads", "-1"], "argument --threads: expected a positive integer, got '-1'"),
    (["--threads", "two"], "argument --threads: expected a positive integer, got 'two'"),
    (["--samples", "0"], "argument --samples: expected a positive integer, got '0'"),
    (["engine", "nope"],
     "unknown section(s) nope; choose from engine, shakespeare, generate, learning, nanogpt, poems"),
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


def test_the_nanogpt_reference_is_our_gpt_without_biases_up_to_the_gelu():
    """RefGPT given minigpt's weights (bias=False; q, k, v stacked into c_attn) computes the same loss, up to
    exact against tanh GELU; a control with q and k stacked the wrong way round does not. The weights are scaled
    up 20x so that attention is far from uniform and the order of q and k matters."""
    import torch

    from minigpt.config import GPTConfig
    from minigpt.gpt_torch import GPT
    from nanogpt import RefGPT, score_val

    config = GPTConfig(vocab_size=30, n_layer=2, n_head=4, n_embd=32, block_size=16, bias=False)
    ours = GPT(config, seed=3).eval()
    ref = RefGPT(30, 2, 4, 32, 16).eval()
    with torch.no_grad():
        for name, p in ours.named_parameters():
            if p.dim() >= 2:
                p.mul_(20.0)
    sd = ours.state_dict()
    mapping = {"wte.weight": "wte.weight", "wpe.weight": "wpe.weight", "ln_f.weight": "ln_f.weight"}
    for i in range(2):
        mapping.update({f"blocks.{i}.{ours_name}": f"blocks.{i}.{ref_name}" for ours_name, ref_name in (
            ("ln_1.weight", "ln_1.weight"), ("ln_2.weight", "ln_2.weight"), ("attn.c_proj.weight", "attn_proj.weight"),
            ("mlp.c_fc.weight", "c_fc.weight"), ("mlp.c_proj.weight", "mlp_proj.weight"))})
    val = torch.randint(0, 30, (16 * 5 + 1,), generator=torch.Generator().manual_seed(0)).numpy()
    ours_loss = score_val(lambda x, y: ours(x, y)[1].item(), val, T=16, batch=2)

    def ref_loss(order: str) -> float:
        with torch.no_grad():
            for ours_name, ref_name in mapping.items():
                ref.get_parameter(ref_name).copy_(sd[ours_name])
            for i in range(2):
                ref.blocks[i].c_attn.weight.copy_(torch.cat([sd[f"blocks.{i}.attn.c_{n}.weight"] for n in order]))
        return score_val(lambda x, y: ref(x, y).item(), val, T=16, batch=2)

    assert abs(ref_loss("qkv") - ours_loss) < 1e-3, (ref_loss("qkv"), ours_loss)
    assert abs(ref_loss("kqv") - ours_loss) > 1e-2, (ref_loss("kqv"), ours_loss)  # control
