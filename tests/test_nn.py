"""The layers of minigpt.nn: registration, state dicts, Linear and Embedding against torch."""

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as TF

from minigpt import nn
from minigpt.config import GPTConfig
from minigpt.convert import to_numpy
from minigpt.gpt import GPT
from minigpt.tensor import Tensor


def tiny(**kw):
    return GPTConfig(vocab_size=kw.pop("vocab_size", 50), **kw)


EXPECTED_KEYS = ["wte.weight", "wpe.weight"] + [
    f"blocks.{i}.{name}"
    for i in range(2)
    for name in [
        "ln_1.weight", "ln_1.bias",
        "attn.c_q.weight", "attn.c_q.bias", "attn.c_k.weight", "attn.c_k.bias",
        "attn.c_v.weight", "attn.c_v.bias", "attn.c_proj.weight", "attn.c_proj.bias",
        "ln_2.weight", "ln_2.bias",
        "mlp.c_fc.weight", "mlp.c_fc.bias", "mlp.c_proj.weight", "mlp.c_proj.bias",
    ]
] + ["ln_f.weight", "ln_f.bias"]


def test_parameter_names_shapes_and_init_follow_the_contract():
    cfg = tiny()
    model = GPT(cfg, seed=0)
    sd = model.state_dict()
    assert list(sd) == EXPECTED_KEYS
    C, V = cfg.n_embd, cfg.vocab_size
    assert sd["wte.weight"].shape == (V, C) and sd["wpe.weight"].shape == (cfg.block_size, C)
    assert sd["blocks.1.mlp.c_fc.weight"].shape == (4 * C, C) and sd["blocks.1.mlp.c_proj.weight"].shape == (C, 4 * C)
    assert all(a.dtype == np.float32 for a in sd.values())
    assert abs(sd["blocks.0.attn.c_q.weight"].std() - 0.02) < 0.003
    assert abs(sd["blocks.0.mlp.c_proj.weight"].std() - 0.02 / math.sqrt(2 * cfg.n_layer)) < 0.002
    assert (sd["blocks.0.ln_1.weight"] == 1).all() and (sd["blocks.0.attn.c_k.bias"] == 0).all()
    assert len(model.parameters()) == len(EXPECTED_KEYS)  # the tied head adds no parameter
    no_bias = GPT(tiny(bias=False)).state_dict()
    assert not any(k.endswith(".bias") for k in no_bias)
    assert GPT(cfg, seed=0).state_dict()["wte.weight"].tobytes() == sd["wte.weight"].tobytes()
    assert GPT(cfg, seed=1).state_dict()["wte.weight"].tobytes() != sd["wte.weight"].tobytes()


def test_load_state_dict_takes_arrays_and_names_bad_keys():
    a, b = GPT(tiny(), seed=0), GPT(tiny(), seed=1)
    b.load_state_dict(to_numpy({k: torch.from_numpy(v) for k, v in a.state_dict().items()}))
    for (k, x), y in zip(a.state_dict().items(), b.state_dict().values()):
        np.testing.assert_array_equal(x, y, err_msg=k)
    b.load_state_dict(a.state_dict())
    sd = a.state_dict()
    sd.pop("ln_f.bias")
    sd["extra.weight"] = np.zeros(3)
    with pytest.raises(KeyError, match=r"ln_f\.bias.*extra\.weight"):
        b.load_state_dict(sd)
    sd = a.state_dict()
    sd["wpe.weight"] = np.zeros((3, 3))
    with pytest.raises(ValueError, match=r"wpe\.weight.*\(3, 3\)"):
        b.load_state_dict(sd)


def test_module_train_eval_zero_grad_and_named_parameters():
    model = GPT(tiny(dropout=0.1), seed=0)
    assert all(m.training for m in model.modules())
    model.eval()
    assert not any(m.training for m in model.modules())
    x = np.random.default_rng(0).integers(0, 50, (2, 8))
    l1, _ = model(x)
    l2, _ = model(x)
    np.testing.assert_array_equal(l1.data, l2.data)  # eval: dropout off
    model.train()
    _, loss = model(x, x)
    loss.backward()
    assert all(p.grad is not None and p.grad.shape == p.shape for p in model.parameters())
    model.zero_grad()
    assert all(p.grad is None for p in model.parameters())
    names = [n for n, _ in model.blocks[0].attn.named_parameters()]
    assert names == ["c_q.weight", "c_q.bias", "c_k.weight", "c_k.bias", "c_v.weight", "c_v.bias",
                     "c_proj.weight", "c_proj.bias"]


def test_linear_and_embedding_like_torch():
    rng = np.random.default_rng(0)
    lin = nn.Linear(5, 3, rng=rng).to(np.float64)
    x = rng.standard_normal((2, 4, 5))
    y = lin(Tensor(x, requires_grad=True))
    ref = TF.linear(torch.tensor(x), torch.from_numpy(lin.weight.data), torch.from_numpy(lin.bias.data))
    np.testing.assert_allclose(y.data, ref.numpy(), rtol=1e-12)
    emb = nn.Embedding(10, 4, rng=rng)
    idx = np.array([[1, 9], [9, 0]])
    np.testing.assert_array_equal(emb(idx).data, emb.weight.data[idx])
    with pytest.raises(ValueError, match="index 10 is out of range for vocab_size=10"):
        emb(np.array([10]))
    with pytest.raises(TypeError, match="integer"):
        emb(np.array([1.0]))
