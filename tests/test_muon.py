"""Muon (minigpt.muon): the orthogonalization, one step by hand, and training and resuming with it."""

from __future__ import annotations

from dataclasses import replace

import pytest
import torch

from minigpt import gpt_torch
from minigpt.checkpoint import CheckpointError
from minigpt.config import GPTConfig, TrainConfig
from minigpt.muon import Muon, Optimizers, hidden_matrices, orthogonalize
from minigpt.train import train
from test_train import text_corpus, tiny


@pytest.mark.parametrize("shape", [(6, 6), (5, 12), (12, 5), (3, 4, 9)])
def test_orthogonalize_brings_singular_values_near_one(shape):
    g = torch.randn(shape, generator=torch.Generator().manual_seed(1), dtype=torch.float64)
    g[..., 0, :] *= 100  # one direction dominates the gradient ...
    s = torch.linalg.svdvals(orthogonalize(g))
    assert ((s > 0.6) & (s < 1.25)).all(), s  # ... and gets a step no larger than the others
    u, _, vh = torch.linalg.svd(g, full_matrices=False)
    inner = u.mT @ orthogonalize(g) @ vh.mT  # diagonal: g's singular vectors are kept, only their values move
    assert torch.allclose(inner, torch.diag_embed(torch.diagonal(inner, dim1=-2, dim2=-1)), atol=1e-9)


def test_a_stack_is_orthogonalized_matrix_by_matrix():
    g = torch.randn(4, 7, 3, generator=torch.Generator().manual_seed(2), dtype=torch.float64)
    assert torch.allclose(orthogonalize(g), torch.stack([orthogonalize(m) for m in g]), atol=1e-12)


def test_one_step_by_hand():
    gen = torch.Generator().manual_seed(3)
    w0, g1, g2 = (torch.randn(8, 2, generator=gen, dtype=torch.float64) for _ in range(3))
    w = torch.nn.Parameter(w0.clone())
    opt = Muon([w], lr=0.1, momentum=0.9, weight_decay=0.5, scale=2.0)
    expected, buf = w0.clone(), torch.zeros_like(w0)
    for g in (g1, g2):
        w.grad = g.clone()
        opt.step()
        buf = 0.9 * buf + 0.1 * g
        step = 0.1 * 2.0  # lr * scale
        expected = expected * (1 - step * 0.5) - step * 2.0 * orthogonalize(g + 0.9 * (buf - g))  # sqrt(8 / 2)
    assert torch.allclose(w.detach(), expected, atol=1e-12)


def test_muon_refuses_vectors_and_a_bad_momentum():
    with pytest.raises(ValueError, match="matrices only; got a parameter of shape \\(3,\\)"):
        Muon([torch.nn.Parameter(torch.zeros(3))])
    with pytest.raises(ValueError, match="momentum must be in \\[0, 1\\)"):
        Muon([torch.nn.Parameter(torch.zeros(3, 3))], momentum=1.0)


def test_muon_takes_the_blocks_matrices_and_adamw_the_rest():
    from minigpt.config import TrainConfig
    from minigpt.train import TorchEngine

    config = GPTConfig(vocab_size=11, n_layer=2, n_embd=8, n_head=2)
    model = gpt_torch.GPT(config)
    names = {id(p): n for n, p in model.named_parameters()}
    hidden = hidden_matrices(model)
    assert all(names[id(p)].startswith("blocks.") and p.dim() == 2 for p in hidden)
    assert len(hidden) == 2 * 6  # q, k, v, proj, fc, mlp proj per block
    engine = TorchEngine(TrainConfig(optimizer="muon", weight_decay=0.1, dtype="float32"), config)
    names = {id(p): n for n, p in engine.model.named_parameters()}
    adamw, muon = engine.optimizer.optimizers
    decay, no_decay = adamw.param_groups
    assert [names[id(p)] for p in decay["params"]] == ["wte.weight", "wpe.weight"]  # wte is the output layer too
    assert decay["weight_decay"] == 0.1 and no_decay["weight_decay"] == 0.0
    assert all(p.dim() == 1 for p in no_decay["params"])
    assert [names[id(p)] for p in muon.param_groups[0]["params"]] == [names[id(p)] for p in hidden_matrices(engine.model)]
    assert sum(len(g["params"]) for g in engine.optimizer.param_groups) == len(list(engine.model.parameters()))


def test_optimizers_state_round_trip_and_mismatch():
    a, b = torch.nn.Parameter(torch.ones(2, 2)), torch.nn.Parameter(torch.ones(3))
    pair = Optimizers(Muon([a]), torch.optim.AdamW([b]))
    assert len(pair.param_groups) == 2
    a.grad, b.grad = torch.ones(2, 2), torch.ones(3)
    pair.step()
    state = pair.state_dict()
    fresh = torch.nn.Parameter(torch.ones(2, 2)), torch.nn.Parameter(torch.ones(3))
    other = Optimizers(Muon([fresh[0]]), torch.optim.AdamW([fresh[1]]))
    other.load_state_dict(state)
    assert torch.equal(other.optimizers[0].state_dict()["state"][0]["momentum_buffer"], 0.05 * torch.ones(2, 2))
    with pytest.raises(ValueError, match="saved by another --optimizer"):
        other.load_state_dict(torch.optim.AdamW([b]).state_dict())


def test_config_checks_the_optimizer():
    with pytest.raises(ValueError, match="optimizer must be one of adamw, muon; got 'sgd'"):
        TrainConfig(optimizer="sgd")
    with pytest.raises(ValueError, match="muon_lr must be a number > 0"):
        TrainConfig(muon_lr=0)
    with pytest.raises(ValueError, match="numpy engine trains with AdamW only"):
        TrainConfig(engine="numpy", optimizer="muon")


def test_training_with_muon_learns_and_resumes_exactly(tmp_path):
    corpus = text_corpus()
    config = tiny(tmp_path / "whole", max_steps=20, eval_interval=5, optimizer="muon")
    whole = train(config, corpus=corpus, progress=False)
    assert whole.losses[20] < whole.losses[1] - 0.5
    split = replace(config, out_dir=str(tmp_path / "split"))
    train(replace(split, max_steps=10, lr_decay_steps=20), corpus=corpus, progress=False)
    second = train(split, corpus=corpus, progress=False, resume=True)
    assert {s: second.losses[s] for s in range(11, 21)} == {s: whole.losses[s] for s in range(11, 21)}  # bit for bit
    with pytest.raises(CheckpointError, match="trained with the muon optimizer; resume it with --optimizer muon"):
        train(replace(split, max_steps=30, optimizer="adamw"), corpus=corpus, progress=False, resume=True)
