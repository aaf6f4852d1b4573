"""The PyTorch GPT (minigpt.gpt_torch): shapes, init, state dict, attention, KV cache and generation."""

import math

import numpy as np
import pytest
import torch
from torch.nn import functional as F

from minigpt.config import GPTConfig
from minigpt.convert import to_torch
from minigpt.gpt_torch import GPT, MultiHeadAttention


def make(seed=0, dtype=torch.float64, **overrides):
    fields = dict(vocab_size=37, block_size=16, n_layer=2, n_head=4, n_embd=32)
    fields.update(overrides)
    return GPT(GPTConfig(**fields), seed=seed).to(dtype)


def tokens(B, T, V, seed=1):
    return torch.from_numpy(np.random.default_rng(seed).integers(0, V, (B, T)))


def expected_shapes(cfg: GPTConfig) -> dict:
    C, V = cfg.n_embd, cfg.vocab_size
    shapes = {"wte.weight": (V, C), "wpe.weight": (cfg.block_size, C)}
    layers = [("ln_1", (C,)), ("attn.c_q", (C, C)), ("attn.c_k", (C, C)), ("attn.c_v", (C, C)),
              ("attn.c_proj", (C, C)), ("ln_2", (C,)), ("mlp.c_fc", (4 * C, C)), ("mlp.c_proj", (C, 4 * C))]
    for i in range(cfg.n_layer):
        for name, shape in layers:
            shapes[f"blocks.{i}.{name}.weight"] = shape
            if cfg.bias:
                shapes[f"blocks.{i}.{name}.bias"] = (shape[0],)
    shapes["ln_f.weight"] = (C,)
    if cfg.bias:
        shapes["ln_f.bias"] = (C,)
    return shapes


# ---- shapes, loss, init ---------------------------------------------------------------------

def test_forward_shapes_and_no_loss_without_targets():
    m = make()
    logits, loss = m(tokens(3, 11, 37))
    assert logits.shape == (3, 11, 37)
    assert loss is None


def test_loss_at_init_is_about_ln_vocab():
    m = GPT(GPTConfig(vocab_size=64))
    x, y = tokens(8, 32, 64, seed=2), tokens(8, 32, 64, seed=3)
    _, loss = m(x, y)
    assert loss.dim() == 0
    assert abs(loss.item() - math.log(64)) < 0.1


def test_loss_ignores_minus_one_targets():
    m = make()
    x, y = tokens(2, 8, 37), tokens(2, 8, 37, seed=5)
    y_masked = y.clone()
    y_masked[:, :3] = -1
    logits, loss = m(x, y_masked)
    manual = F.cross_entropy(logits[:, 3:].reshape(-1, 37), y[:, 3:].reshape(-1))
    assert torch.allclose(loss, manual, rtol=0, atol=1e-12)


@pytest.mark.parametrize("bias", [True, False])
def test_state_dict_keys_and_shapes_follow_the_contract(bias):
    m = make(bias=bias)
    sd = m.state_dict()
    want = expected_shapes(m.config)
    assert list(sd) == list(want)  # same keys, no lm_head, no buffers
    assert {k: tuple(v.shape) for k, v in sd.items()} == want
    assert m.num_params() == sum(math.prod(s) for s in want.values())
    if not bias:
        assert m.ln_f.bias is None and m.blocks[0].attn.c_q.bias is None


def test_init_follows_the_contract_and_is_seeded():
    cfg = GPTConfig(vocab_size=500, block_size=64, n_layer=3, n_head=4, n_embd=128)
    state = torch.get_rng_state()
    m = GPT(cfg, seed=0)
    assert torch.equal(torch.get_rng_state(), state)  # torch's global generator is left alone
    sd = m.state_dict()
    proj_std = 0.02 / math.sqrt(2 * cfg.n_layer)
    for name, value in sd.items():
        if name.endswith("c_proj.weight"):
            assert abs(value.std().item() - proj_std) < 0.1 * proj_std, name
        elif name.startswith(("wte", "wpe")) or (name.endswith(".weight") and value.dim() == 2):
            assert abs(value.std().item() - 0.02) < 0.002, name
        elif ".ln_" in name or name.startswith("ln_f"):
            assert torch.all(value == (1.0 if name.endswith("weight") else 0.0)), name
        else:
            assert name.endswith(".bias") and torch.all(value == 0), name
    again = GPT(cfg, seed=0).state_dict()
    assert all(torch.equal(sd[k], again[k]) for k in sd)
    other = GPT(cfg, seed=1).state_dict()
    assert not torch.equal(sd["wte.weight"], other["wte.weight"])


def test_head_is_tied_and_wte_grad_includes_head_grad():
    m = make()
    x, y = tokens(2, 8, 37), tokens(2, 8, 37, seed=4)
    hidden = []
    m.ln_f.register_forward_hook(lambda module, inputs, out: hidden.append(out))
    m(x)
    h = hidden[0]  # (B, T, C), the final hidden states
    logits = h @ m.wte.weight.T
    logits.retain_grad()
    loss = F.cross_entropy(logits.reshape(-1, 37), y.reshape(-1))
    _, model_loss = m(x, y)
    assert torch.allclose(loss, model_loss, rtol=0, atol=1e-12)
    loss.backward()
    head_grad = logits.grad.reshape(-1, 37).T @ h.detach().reshape(-1, 32)  # (V, C)
    grad = m.wte.weight.grad
    unused = sorted(set(range(37)) - set(x.flatten().tolist()))
    used = sorted(set(x.flatten().tolist()))
    assert unused and torch.allclose(grad[unused], head_grad[unused], atol=1e-12)  # head only
    assert not torch.allclose(grad[used], head_grad[used], atol=1e-6)  # head + embedding


def test_dropout_only_in_training():
    m = make(dropout=0.5)
    x = tokens(2, 8, 37)
    m.train()
    a, b = m(x)[0], m(x)[0]
    assert not torch.allclose(a, b)
    m.eval()
    assert torch.equal(m(x)[0], m(x)[0])


# ---- input checks -----------------------------------------------------------------------------

def test_forward_rejects_bad_input():
    m = make()
    with pytest.raises(ValueError, match=r"T=17.*block_size=16"):
        m(tokens(1, 17, 37))
    with pytest.raises(ValueError, match="idx 37 is out of range for vocab_size=37"):
        m(torch.tensor([[0, 37]]))
    with pytest.raises(ValueError, match="idx -1 is out of range"):
        m(torch.tensor([[-1, 2]]))
    with pytest.raises(TypeError, match="integer"):
        m(torch.zeros(1, 3))
    with pytest.raises(ValueError, match=r"\(B, T\)"):
        m(torch.zeros(3, dtype=torch.long))
    with pytest.raises(ValueError, match="targets"):
        m(tokens(2, 4, 37), tokens(2, 5, 37))


def test_forward_accepts_numpy_ids():
    m = make()
    x = tokens(2, 5, 37)
    assert torch.equal(m(x.numpy())[0], m(x)[0])


# ---- load_state_dict --------------------------------------------------------------------------

def test_numpy_arrays_load_through_to_torch_in_the_model_dtype():
    src = make(seed=1)
    x = tokens(2, 9, 37)
    m32 = make(seed=2, dtype=torch.float32)
    m32.load_state_dict(to_torch({k: v.numpy() for k, v in src.state_dict().items()}))  # float64 into float32
    assert m32.wte.weight.dtype == torch.float32
    assert torch.allclose(m32(x)[0].double(), src(x)[0], atol=1e-5)


# ---- attention and the KV cache ---------------------------------------------------------------

def manual_attention(attn: MultiHeadAttention, x: torch.Tensor) -> torch.Tensor:
    B, T, C = x.shape
    nh, hs = attn.n_head, C // attn.n_head
    q = (x @ attn.c_q.weight.T + attn.c_q.bias).view(B, T, nh, hs).transpose(1, 2)  # (B, nh, T, hs)
    k = (x @ attn.c_k.weight.T + attn.c_k.bias).view(B, T, nh, hs).transpose(1, 2)
    v = (x @ attn.c_v.weight.T + attn.c_v.bias).view(B, T, nh, hs).transpose(1, 2)
    mask = torch.triu(torch.full((T, T), float("-inf"), dtype=x.dtype), diagonal=1)  # (T, T)
    att = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(hs) + mask, dim=-1)  # (B, nh, T, T)
    y = (att @ v).transpose(1, 2).reshape(B, T, C)  # (B, T, C)
    return y @ attn.c_proj.weight.T + attn.c_proj.bias


def test_attention_equals_manual_softmax_qkt():
    torch.manual_seed(0)
    attn = MultiHeadAttention(GPTConfig(vocab_size=8, block_size=16, n_layer=1, n_head=4, n_embd=32)).double()
    for p in attn.parameters():
        torch.nn.init.normal_(p, std=0.3)  # non-zero biases too
    x = torch.randn(2, 10, 32, dtype=torch.float64)
    assert torch.allclose(attn(x), manual_attention(attn, x), rtol=0, atol=1e-12)
    # a cache filled in three chunks (prefill, multi-token chunk with a mask, single token) agrees too
    k_buf = torch.zeros(2, 4, 16, 8, dtype=torch.float64)
    v_buf = torch.zeros_like(k_buf)
    parts = [attn(x[:, :4], (k_buf, v_buf), 0), attn(x[:, 4:9], (k_buf, v_buf), 4), attn(x[:, 9:], (k_buf, v_buf), 9)]
    assert torch.allclose(torch.cat(parts, dim=1), manual_attention(attn, x), rtol=0, atol=1e-12)


def test_kv_cache_chunks_give_the_full_forward_logits():
    m = make()
    x = tokens(2, 16, 37)
    full, _ = m(x)
    cache = m.new_kv_cache(2)
    chunks = [m(x[:, a:b], kv_cache=cache)[0] for a, b in [(0, 5), (5, 6), (6, 11), (11, 16)]]
    assert cache.length == 16
    assert torch.allclose(torch.cat(chunks, dim=1), full, rtol=0, atol=1e-12)
    with pytest.raises(ValueError, match=r"the cache holds 16 tokens.*block_size=16"):
        m(x[:, :1], kv_cache=cache)
    with pytest.raises(ValueError, match="batch size"):
        m(x[:1, :1], kv_cache=m.new_kv_cache(2))


# ---- generation -------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
def test_cached_greedy_generation_matches_uncached_past_block_size(dtype):
    m = make(dtype=dtype)
    prompt = tokens(3, 5, 37)
    a = m.generate(prompt, 30, temperature=0.0, use_cache=True)  # 35 tokens > block_size 16
    b = m.generate(prompt, 30, temperature=0.0, use_cache=False)
    assert a.shape == (3, 35)
    assert torch.equal(a[:, :5], prompt)
    assert torch.equal(a, b)
    # a prompt longer than block_size is cropped: only its last 16 tokens matter
    long = tokens(1, 25, 37, seed=7)
    c = m.generate(long, 10, temperature=0.0)
    d = m.generate(long[:, -16:], 10, temperature=0.0)
    assert torch.equal(c[:, 25:], d[:, 16:])


def test_greedy_generation_follows_forward_argmax():
    m = make()
    out = m.generate(tokens(1, 3, 37), 6, temperature=0.0)
    for t in range(3, 9):
        logits, _ = m(out[:, :t])
        assert out[0, t].item() == logits[0, -1].argmax().item()


@pytest.mark.parametrize("kwargs", [{}, {"top_k": 5}, {"top_p": 0.8, "temperature": 1.5}, {"top_k": 7, "top_p": 0.5}])
def test_cached_sampling_matches_uncached_with_the_same_rng(kwargs):
    m = make()
    prompt = tokens(2, 4, 37)
    a = m.generate(prompt, 25, use_cache=True, rng=np.random.default_rng(3), **kwargs)
    b = m.generate(prompt, 25, use_cache=False, rng=np.random.default_rng(3), **kwargs)
    c = m.generate(prompt, 25, use_cache=True, rng=np.random.default_rng(4), **kwargs)
    assert torch.equal(a, b)
    assert not torch.equal(a, c)


def test_top_k_one_and_tiny_top_p_equal_greedy():
    m = make()
    prompt = tokens(2, 3, 37)
    greedy = m.generate(prompt, 20, temperature=0.0)
    g = np.random.default_rng(0)
    assert torch.equal(m.generate(prompt, 20, top_k=1, rng=g), greedy)
    assert torch.equal(m.generate(prompt, 20, top_p=1e-6, rng=g), greedy)
    # top_p=1 keeps every token: same draws as no filtering
    a = m.generate(prompt, 20, top_p=1.0, rng=np.random.default_rng(1))
    b = m.generate(prompt, 20, rng=np.random.default_rng(1))
    assert torch.equal(a, b)


def test_generate_rejects_bad_arguments():
    m = make()
    prompt = tokens(1, 3, 37)
    for top_p in (0, 0.0, 1.5, -0.1):
        with pytest.raises(ValueError, match=r"top_p must be in \(0, 1\], got"):
            m.generate(prompt, 2, top_p=top_p)
    with pytest.raises(ValueError, match="top_k"):
        m.generate(prompt, 2, top_k=0)
    with pytest.raises(ValueError, match="temperature"):
        m.generate(prompt, 2, temperature=-1.0)
    with pytest.raises(ValueError, match="max_new_tokens"):
        m.generate(prompt, -1)
    with pytest.raises(ValueError, match="stop"):
        m.generate(prompt, 2, stop=37)
    with pytest.raises(ValueError, match="at least one token"):
        m.generate(prompt[:, :0], 2)
    assert torch.equal(m.generate(prompt, 0), prompt)


def first_stop(row, stop_ids, start):
    """Index just after the first stop token in row[start:], or len(row)."""
    for t in range(start, len(row)):
        if row[t] in stop_ids:
            return t + 1
    return len(row)


@pytest.mark.parametrize("use_cache", [True, False])
def test_stop_token_ends_generation(use_cache):
    m = make()
    prompt = tokens(2, 3, 37)

    def run(**kwargs):
        return m.generate(prompt[: kwargs.pop("rows", 2)], 20, use_cache=use_cache,
                          rng=np.random.default_rng(0), **kwargs)

    full = run()
    rows = full.tolist()
    # B=1: stop as soon as the stop token is produced, keeping it
    row = run(rows=1)[0].tolist()
    stop_id = row[6]
    assert run(rows=1, stop=stop_id)[0].tolist() == row[: first_stop(row, {stop_id}, 3)]
    # B=2: run until every row has produced one of the stop ids (not necessarily at the same step)
    for t in range(4, 23):
        stop_ids = {rows[0][3], rows[1][t]}
        end = max(first_stop(r, stop_ids, 3) for r in rows)
        same_step = [i for i in range(3, 23) if rows[0][i] in stop_ids and rows[1][i] in stop_ids]
        if end < 23 and (not same_step or same_step[0] + 1 != end):
            break
    else:
        pytest.fail("no stop ids that end rows at different steps; change the seed")
    out = run(stop=stop_ids)
    assert torch.equal(out, full[:, :end])  # nothing padded: a prefix of the run without stop
    # a stop id that never appears changes nothing
    never = sorted(set(range(37)) - set(full[:, 3:].flatten().tolist()))[0]
    assert torch.equal(run(stop=[never]), full)


def test_generate_uses_eval_mode_and_restores_training():
    m = make(dropout=0.3)
    m.train()
    prompt = tokens(1, 3, 37)
    a = m.generate(prompt, 10, temperature=0.0)
    b = m.generate(prompt, 10, temperature=0.0, use_cache=False)
    assert m.training
    assert torch.equal(a, b)
