"""The numpy GPT (minigpt.gpt): attention against torch and finite differences, the GPT, generation."""

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as TF

from minigpt.config import GPTConfig
from minigpt.gpt import GPT, MLP, MultiHeadAttention, merge_heads, split_heads
from minigpt.tensor import Tensor


def tiny(**kw):
    return GPTConfig(vocab_size=kw.pop("vocab_size", 50), **kw)


def make_mha_and_input(B=2, T=7, C=16, nh=4, seed=0):
    rng = np.random.default_rng(seed)
    mha = MultiHeadAttention(GPTConfig(block_size=8, n_head=nh, n_embd=C), rng=rng).to(np.float64)
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
    h = split_heads(x, 4)
    assert h.shape == (2, 4, 3, 2)
    np.testing.assert_array_equal(h.data[1, 2, 0], x.data[1, 0, 4:6])  # head 2 = channels 4..5
    np.testing.assert_array_equal(merge_heads(h).data, x.data)


def test_attention_config_and_divisibility_errors():
    assert MultiHeadAttention(tiny()).n_head == 4
    with pytest.raises(ValueError, match=r"n_embd=10.*n_head=4"):
        GPTConfig(n_embd=10, n_head=4)


def test_a_head_count_that_does_not_divide_names_those_that_do():
    with pytest.raises(ValueError) as e:
        GPTConfig(n_embd=96, n_head=5)
    listed = str(e.value).split("n_head can be ")[1].replace(" or ", ", ").split(", ")
    assert listed == ["1", "2", "3", "4", "6", "8", "12", "16", "24", "32", "48", "96"]
    for h in listed:  # control: every count the message offers is accepted
        assert GPTConfig(n_embd=96, n_head=int(h)).head_size * int(h) == 96
    with pytest.raises(ValueError, match=r"n_head can be 1 or 7$"):  # a prime width: only 1 and itself
        GPTConfig(n_embd=7, n_head=2)


def test_gpt_forward_shapes_loss_and_dtypes():
    cfg = tiny()
    model = GPT(cfg, seed=0)
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
    model = GPT(cfg, seed=0).to(np.float64)
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
    model = GPT(cfg)
    with pytest.raises(ValueError, match=r"T=33.*block_size=32"):
        model(np.zeros((1, 33), dtype=np.int64))
    with pytest.raises(ValueError, match=r"idx 50 is out of range for vocab_size=50"):
        model(np.array([[1, 50]]))
    with pytest.raises(ValueError, match=r"idx -2 is out of range"):
        model(np.array([[-2, 1]]))
    with pytest.raises(ValueError, match=r"\(B, T\)"):
        model(np.array([1, 2]))
    with pytest.raises(ValueError, match="targets"):
        model(np.array([[1, 2]]), np.array([1, 2]))


def test_generation_is_reproducible_greedy_and_stops():
    cfg = tiny(block_size=16, vocab_size=30)
    model = GPT(cfg, seed=0)
    for p in model.parameters():  # sharper logits than the 0.02 init, so the test means something
        p.data = p.data * np.float32(8.0)
    prompt = np.random.default_rng(0).integers(0, 30, (2, 5))
    greedy = model.generate(prompt, 25, temperature=0)  # 30 tokens > block_size 16: the window slides
    assert greedy.shape == (2, 30)
    np.testing.assert_array_equal(greedy[:, :5], prompt)
    for t in range(5, 30):
        logits, _ = model(greedy[:, max(0, t - 16):t])
        np.testing.assert_array_equal(greedy[:, t], logits.data[:, -1].argmax(-1))
    runs = [model.generate(prompt, 25, temperature=0.8, top_k=5, rng=np.random.default_rng(7)) for _ in range(2)]
    np.testing.assert_array_equal(runs[0], runs[1])
    assert not np.array_equal(runs[0], greedy)  # sampling is not greedy
    np.testing.assert_array_equal(model.generate(prompt, 25, top_k=1, rng=np.random.default_rng(3)), greedy)
    row = greedy[:1]
    stopped = model.generate(prompt[:1], 25, temperature=0, stop=int(row[0, 8]))
    np.testing.assert_array_equal(stopped, row[:, :9])
    assert model.training  # generate restores the mode


def test_mlp_widens_to_4c_and_back():
    mlp = MLP(tiny(), rng=np.random.default_rng(0))
    x = Tensor(np.random.default_rng(1).standard_normal((2, 3, 64)).astype(np.float32))
    assert mlp.c_fc.weight.shape == (256, 64) and mlp(x).shape == (2, 3, 64)
