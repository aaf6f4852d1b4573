"""minigpt.diagnostics: the activations and step sizes lesson 15's "Is the run healthy?" reads."""

import math

import numpy as np
import pytest
import torch

from minigpt import diagnostics, muon
from minigpt.config import GPTConfig
from minigpt.gpt_torch import GPT

CONFIG = GPTConfig(vocab_size=20, block_size=8, n_layer=2, n_head=2, n_embd=16)
IDX = np.random.default_rng(0).integers(0, 20, size=(3, 8))


def model() -> GPT:
    return GPT(CONFIG, seed=0).double()


def test_a_fresh_model_has_no_dead_units_and_no_saturated_attention():
    seen = diagnostics.activations(model(), IDX)
    assert len(seen) == CONFIG.n_layer
    for block in seen:
        assert block["gelu_in"].shape == (3 * 8 * 4 * 16,)
        assert block["attn_max"].shape == (3 * 2 * 7,)  # every row but the first
        assert diagnostics.dead_share(block["gelu_in"]) == 0.0
        assert diagnostics.saturated_share(block["attn_max"]) == 0.0


def test_wide_weights_kill_gelu_units_and_saturate_attention():
    m = model()
    with torch.no_grad():
        for block in m.blocks:
            for layer in (block.mlp.c_fc, block.attn.c_q, block.attn.c_k):
                layer.weight.mul_(100)
    for block in diagnostics.activations(m, IDX):
        assert diagnostics.dead_share(block["gelu_in"]) > 0.2
        assert diagnostics.saturated_share(block["attn_max"]) > 0.5


def test_attention_max_of_equal_scores_is_one_over_the_row_length():
    m = model()
    with torch.no_grad():
        for block in m.blocks:
            block.attn.c_q.weight.zero_()  # every score 0: each row spreads its weight evenly
            block.attn.c_q.bias.zero_()
    got = diagnostics.activations(m, IDX)[1]["attn_max"].view(3, 2, 7)
    want = 1 / torch.arange(2, 9, dtype=torch.float64)  # row t sees t + 1 tokens
    torch.testing.assert_close(got, want.expand(3, 2, 7))


def test_activations_leave_no_hooks_behind():
    m = model()
    diagnostics.activations(m, IDX)
    assert all(not mod._forward_hooks and not mod._forward_pre_hooks for mod in m.modules())


def step(m, opt):
    _, loss = m(IDX, IDX)
    loss.backward()
    opt.step()
    opt.zero_grad(set_to_none=True)


def test_an_sgd_update_is_lr_times_the_gradient():
    m = model()
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    ratios = diagnostics.Ratios(m, opt)
    step(m, opt)
    step(m, opt)
    names = [n for n, p in m.named_parameters() if p.dim() == 2]
    assert sorted(ratios.update) == sorted(names)
    for name in names:
        assert len(ratios.grad[name]) == len(ratios.update[name]) == 2
        for grad, update in zip(ratios.grad[name], ratios.update[name]):
            assert update == pytest.approx(math.log10(0.1) + grad, abs=1e-9)  # update = -lr * grad


def test_ratios_follow_every_optimizer_of_a_muon_run_and_stop_when_closed():
    m = model()
    hidden = muon.hidden_matrices(m)
    rest = [p for p in m.parameters() if all(p is not h for h in hidden)]
    opt = muon.Optimizers(torch.optim.AdamW(rest, lr=1e-3), muon.Muon(hidden, lr=0.02))
    ratios = diagnostics.Ratios(m, opt)
    step(m, opt)
    assert {name: len(v) for name, v in ratios.update.items()} == {name: 1 for name in ratios.update}
    assert all(-6 < v[0] < 0 for v in ratios.update.values())
    ratios.close()
    step(m, opt)
    assert all(len(v) == 1 for v in ratios.update.values())


def test_minigpt_train_diagnostics_prints_a_line_under_each_evaluation(capsys, tmp_path):
    from cli_run import run

    code, stdout, err = run(capsys, "train", "--preset", "tiny", "--max-steps", "4", "--eval-interval", "2",
                            "--eval-iters", "1", "--dtype", "float64", "--threads", "1", "--out", str(tmp_path),
                            "--no-progress", "--diagnostics")
    assert code == 0, err
    lines = stdout.splitlines()
    evals = [i for i, line in enumerate(lines) if line.startswith("step ")]
    assert len(evals) == 3  # steps 0, 2, 4
    inside = [lines[i + 1] for i in evals]
    assert all(line.startswith("  inside: GELU inputs < -3 ") for line in inside)
    assert inside[0].endswith("log10 update/weight -")  # no step yet
    assert all(-6 < float(line.rsplit(" ", 1)[1]) < 0 for line in inside[1:])
    code, _, err = run(capsys, "train", "--preset", "tiny", "--engine", "numpy", "--out", str(tmp_path / "np"),
                       "--diagnostics")
    assert code != 0 and "--diagnostics needs --engine torch" in err and "Traceback" not in err
