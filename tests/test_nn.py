"""Modules of minigpt.nn: registration, state dicts, attention against torch, the GPT and its KV cache."""

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as TF

from minigpt import nn
from minigpt.config import GPTConfig
from minigpt.tensor import Tensor


def tiny(**kw):
    return GPTConfig.tiny(vocab_size=kw.pop("vocab_size", 50), **kw)


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
    model = nn.GPT(cfg, seed=0)
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
    no_bias = nn.GPT(tiny(bias=False)).state_dict()
    assert not any(k.endswith(".bias") for k in no_bias)
    assert nn.GPT(cfg, seed=0).state_dict()["wte.weight"].tobytes() == sd["wte.weight"].tobytes()
    assert nn.GPT(cfg, seed=1).state_dict()["wte.weight"].tobytes() != sd["wte.weight"].tobytes()


def test_load_state_dict_accepts_numpy_and_torch_and_names_bad_keys():
    a, b = nn.GPT(tiny(), seed=0), nn.GPT(tiny(), seed=1)
    b.load_state_dict({k: torch.from_numpy(v) for k, v in a.state_dict().items()})
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
    model = nn.GPT(tiny(dropout=0.1), seed=0)
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
    with pytest.raises(ValueError, match="10"):
        emb(np.array([10]))
    with pytest.raises(TypeError, match="integers"):
        emb(np.array([1.0]))


def make_mha_and_input(B=2, T=7, C=16, nh=4, seed=0):
    rng = np.random.default_rng(seed)
    mha = nn.MultiHeadAttention(C, nh, block_size=8, rng=rng).to(np.float64)
    for p in mha.parameters():  # non-trivial biases
        p.data = rng.standard_normal(p.shape) * 0.3
    return mha, rng.standard_normal((B, T, C))


def torch_attention(mha, x):
    """The same attention written with torch's scaled_dot_product_attention."""
    p = {k: torch.from_numpy(v) for k, v in mha.state_dict().items()}
    B, T, C = x.shape
    nh = mha.n_head
    q, k, v = (TF.linear(x, p[f"{n}.weight"], p[f"{n}.bias"]).view(B, T, nh, C // nh).transpose(1, 2)
               for n in ("c_q", "c_k", "c_v"))
    y = TF.scaled_dot_product_attention(q, k, v, is_causal=True)  # (B, nh, T, hs)
    y = y.transpose(1, 2).reshape(B, T, C)
    return TF.linear(y, p["c_proj.weight"], p["c_proj.bias"])


def test_attention_matches_torch_scaled_dot_product_attention():
    mha, x = make_mha_and_input()
    xt = torch.tensor(x, requires_grad=True)
    ref = torch_attention(mha, xt)
    xo = Tensor(x, requires_grad=True)
    out = mha(xo)
    assert out.shape == (2, 7, 16) and out.dtype == np.float64
    np.testing.assert_allclose(out.data, ref.detach().numpy(), rtol=1e-10, atol=1e-12)
    g = np.random.default_rng(1).standard_normal(out.shape)
    out.backward(g)
    ref.backward(torch.tensor(g))
    np.testing.assert_allclose(xo.grad, xt.grad.numpy(), rtol=1e-9, atol=1e-12)


def test_attention_gradient_matches_finite_differences():
    mha, x = make_mha_and_input(B=1, T=4, C=8, nh=2, seed=3)
    w = np.random.default_rng(4).standard_normal((1, 4, 8))

    def f(arr):
        return float((mha(Tensor(arr)).data * w).sum())

    xo = Tensor(x, requires_grad=True)
    (mha(xo) * w).sum().backward()
    num, eps = np.zeros_like(x), 1e-6
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        num[i] = (f(x + d) - f(x - d)) / (2 * eps)
    np.testing.assert_allclose(xo.grad, num, rtol=1e-6, atol=1e-8)
    # and for one weight matrix
    wq = mha.c_q.weight
    base = wq.data.copy()
    gq = wq.grad.copy()
    for i in [(0, 0), (3, 5), (7, 1)]:
        wq.data = base.copy()
        wq.data[i] += eps
        up = f(x)
        wq.data[i] -= 2 * eps
        down = f(x)
        np.testing.assert_allclose(gq[i], (up - down) / (2 * eps), rtol=1e-6, atol=1e-8)


def test_attention_is_causal():
    mha, x = make_mha_and_input()
    y1 = mha(Tensor(x)).data
    x2 = x.copy()
    x2[:, 4:] = 0  # changing later tokens leaves earlier outputs unchanged
    y2 = mha(Tensor(x2)).data
    np.testing.assert_allclose(y1[:, :4], y2[:, :4], rtol=1e-12)
    assert not np.allclose(y1[:, 4:], y2[:, 4:])


def test_split_and_merge_heads_shapes():
    x = Tensor(np.arange(2 * 3 * 8, dtype=np.float32).reshape(2, 3, 8))
    h = nn.split_heads(x, 4)
    assert h.shape == (2, 4, 3, 2)
    np.testing.assert_array_equal(h.data[1, 2, 0], x.data[1, 0, 4:6])  # head 2 = channels 4..5
    np.testing.assert_array_equal(nn.merge_heads(h).data, x.data)


def test_attention_config_and_divisibility_errors():
    assert nn.MultiHeadAttention(tiny()).n_head == 4
    with pytest.raises(ValueError, match=r"n_embd=10.*n_head=4"):
        nn.MultiHeadAttention(10, 4, block_size=8)


def test_gpt_forward_shapes_loss_and_dtypes():
    cfg = tiny()
    model = nn.GPT(cfg, seed=0)
    rng = np.random.default_rng(0)
    x, y = rng.integers(0, cfg.vocab_size, (3, 10)), rng.integers(0, cfg.vocab_size, (3, 10))
    logits, loss = model(x)
    assert logits.shape == (3, 10, cfg.vocab_size) and loss is None
    logits, loss = model(x, y)
    assert logits.dtype == np.float32 and loss.dtype == np.float32
    assert abs(loss.item() - math.log(cfg.vocab_size)) < 0.1  # small init: nearly uniform
    loss.backward()
    assert all(p.grad.dtype == np.float32 for p in model.parameters())
    y[0, :5] = -1
    _, masked = model(x, y)
    assert np.isfinite(masked.item())


def test_gpt_matches_torch_forward_and_backward():
    cfg = tiny(n_layer=1)
    model = nn.GPT(cfg, seed=0).to(np.float64)
    rng = np.random.default_rng(1)
    x, y = rng.integers(0, cfg.vocab_size, (2, 9)), rng.integers(0, cfg.vocab_size, (2, 9))
    p = {k: torch.tensor(v, requires_grad=True) for k, v in model.state_dict().items()}
    C = cfg.n_embd
    h = p["wte.weight"][torch.from_numpy(x)] + p["wpe.weight"][:9]
    b = "blocks.0."
    a = TF.layer_norm(h, (C,), p[b + "ln_1.weight"], p[b + "ln_1.bias"])
    q, k, v = (TF.linear(a, p[b + f"attn.{n}.weight"], p[b + f"attn.{n}.bias"]).view(2, 9, 4, 16).transpose(1, 2)
               for n in ("c_q", "c_k", "c_v"))
    att = TF.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).reshape(2, 9, C)
    h = h + TF.linear(att, p[b + "attn.c_proj.weight"], p[b + "attn.c_proj.bias"])
    m = TF.layer_norm(h, (C,), p[b + "ln_2.weight"], p[b + "ln_2.bias"])
    m = TF.gelu(TF.linear(m, p[b + "mlp.c_fc.weight"], p[b + "mlp.c_fc.bias"]), approximate="tanh")
    h = h + TF.linear(m, p[b + "mlp.c_proj.weight"], p[b + "mlp.c_proj.bias"])
    ref_logits = TF.layer_norm(h, (C,), p["ln_f.weight"], p["ln_f.bias"]) @ p["wte.weight"].T
    ref_loss = TF.cross_entropy(ref_logits.view(-1, cfg.vocab_size), torch.from_numpy(y).view(-1))
    ref_loss.backward()
    logits, loss = model(x, y)
    loss.backward()
    np.testing.assert_allclose(logits.data, ref_logits.detach().numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(loss.item(), ref_loss.item(), rtol=1e-12)
    for name, param in model.named_parameters():
        np.testing.assert_allclose(param.grad, p[name].grad.numpy(), rtol=1e-8, atol=1e-12, err_msg=name)


def test_gpt_rejects_bad_input():
    cfg = tiny()
    model = nn.GPT(cfg)
    with pytest.raises(ValueError, match=r"T=33.*block_size=32"):
        model(np.zeros((1, 33), dtype=np.int64))
    with pytest.raises(ValueError, match=r"token id 50.*vocab_size=50"):
        model(np.array([[1, 50]]))
    with pytest.raises(ValueError, match=r"token id -2"):
        model(np.array([[-2, 1]]))
    with pytest.raises(ValueError, match=r"\(B, T\)"):
        model(np.array([1, 2]))
    with pytest.raises(ValueError, match="targets"):
        model(np.array([[1, 2]]), np.array([1, 2]))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_generation_with_kv_cache_gives_the_same_tokens(dtype):
    cfg = tiny(block_size=16, vocab_size=30)
    model = nn.GPT(cfg, seed=0).to(dtype)
    for p in model.parameters():  # sharper logits than the 0.02 init, so the test means something
        p.data = p.data * dtype(8.0)
    prompt = np.random.default_rng(0).integers(0, 30, (2, 5))
    greedy = [model.generate(prompt, 25, temperature=0, use_cache=c) for c in (True, False)]
    np.testing.assert_array_equal(greedy[0], greedy[1])
    assert greedy[0].shape == (2, 30)
    np.testing.assert_array_equal(greedy[0][:, :5], prompt)
    for kw in ({}, {"temperature": 0.8, "top_k": 5}):
        runs = [model.generate(prompt, 25, use_cache=c, rng=np.random.default_rng(7), **kw) for c in (True, False)]
        np.testing.assert_array_equal(runs[0], runs[1])
    assert not np.array_equal(runs[0], greedy[0])  # sampling is not greedy
    top1 = model.generate(prompt, 25, top_k=1, rng=np.random.default_rng(3))
    np.testing.assert_array_equal(top1, greedy[0])
    assert model.training  # generate restores the mode


def test_kv_cache_logits_match_full_forward():
    cfg = tiny(vocab_size=30)
    model = nn.GPT(cfg, seed=2).to(np.float64)
    x = np.random.default_rng(0).integers(0, 30, (2, 12))
    full, _ = model(x)
    caches = [nn.KVCache() for _ in model.blocks]
    first, _ = model(x[:, :7], kv_caches=caches)
    steps = [first.data] + [model(x[:, t:t + 1], kv_caches=caches)[0].data for t in range(7, 12)]
    np.testing.assert_allclose(np.concatenate(steps, axis=1), full.data, rtol=1e-10, atol=1e-12)
    assert len(caches[0]) == 12
