"""The numpy GPT (minigpt.gpt) and the torch GPT (minigpt.gpt_torch) are twins: the same API, the same
initial weights for a seed, and the same logits, losses, gradients and samples on the same weights."""

import inspect

import numpy as np
import pytest
import torch

from minigpt import gpt, gpt_torch
from minigpt.config import GPTConfig
from minigpt.convert import to_numpy, to_torch
from minigpt.functional import cross_entropy
from minigpt.tensor import Tensor

CONFIGS = {
    "default": GPTConfig(vocab_size=29),
    "no-bias": GPTConfig(vocab_size=23, block_size=12, n_layer=3, n_head=2, n_embd=16, bias=False),
    "one-head": GPTConfig(vocab_size=11, block_size=8, n_layer=1, n_head=1, n_embd=8),
}
TOL = dict(rtol=1e-9, atol=1e-9)

# The classes a reader moves between by changing an import.
TWINS = {"MultiHeadAttention": gpt.MultiHeadAttention, "MLP": gpt.MLP, "Block": gpt.Block, "GPT": gpt.GPT,
         "KVCache": gpt.KVCache}
# What only one engine has: numpy layers take their initial-weight generator (torch's draw from GPT(seed));
# a torch KV cache lives on a device.
ENGINE_ONLY = {"rng", "device"}


def params(fn) -> list[str]:
    return [p for p in inspect.signature(fn).parameters if p != "self"]


def own_methods(cls) -> set[str]:
    return {name for name, value in vars(cls).items() if callable(value) and not name.startswith("_")}


@pytest.mark.parametrize("name", TWINS)
def test_the_twin_classes_have_the_same_api(name):
    ours, theirs = TWINS[name], getattr(gpt_torch, name)
    for method in ("__init__", "forward"):
        if hasattr(ours, method) or hasattr(theirs, method):
            a = [p for p in params(getattr(ours, method)) if p not in ENGINE_ONLY]
            b = [p for p in params(getattr(theirs, method)) if p not in ENGINE_ONLY]
            assert a == b, f"{name}.{method}: numpy takes {a}, torch takes {b}"
    assert own_methods(ours) == own_methods(theirs), name


def test_generate_has_the_same_signature_and_defaults():
    a = inspect.signature(gpt.GPT.generate).parameters
    b = inspect.signature(gpt_torch.GPT.generate).parameters
    assert [(k, v.default) for k, v in a.items()] == [(k, v.default) for k, v in b.items()]


def numpy_gpt(cfg, seed=0):
    return gpt.GPT(cfg, seed=seed).to(np.float64)


def torch_gpt(cfg, seed=0):
    return gpt_torch.GPT(cfg, seed=seed).double()


def batch(cfg: GPTConfig, B=3, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, cfg.vocab_size, size=(B, cfg.block_size))
    y = rng.integers(0, cfg.vocab_size, size=(B, cfg.block_size))
    y[0, :3] = -1  # some ignored targets
    return x, y


@pytest.mark.parametrize("name", CONFIGS)
def test_the_same_seed_gives_the_same_initial_weights(name):
    cfg = CONFIGS[name]
    a, b = gpt.GPT(cfg, seed=7).state_dict(), to_numpy(gpt_torch.GPT(cfg, seed=7).state_dict())
    assert list(a) == list(b)
    assert all(np.array_equal(a[k], b[k]) for k in a)
    assert gpt.GPT(cfg, seed=7).num_params() == gpt_torch.GPT(cfg, seed=7).num_params()
    other = gpt_torch.GPT(cfg, seed=8).state_dict()["wte.weight"].numpy()
    assert not np.array_equal(a["wte.weight"], other)


@pytest.mark.parametrize("name", CONFIGS)
def test_numpy_weights_in_torch_give_the_same_logits_and_loss(name):
    cfg = CONFIGS[name]
    src, dst = numpy_gpt(cfg, seed=1), torch_gpt(cfg, seed=2)
    dst.load_state_dict(to_torch(src.state_dict()))
    x, y = batch(cfg)
    np_logits, np_loss = src(x, y)
    t_logits, t_loss = dst(torch.from_numpy(x), torch.from_numpy(y))
    np.testing.assert_allclose(t_logits.detach().numpy(), np_logits.data, **TOL)
    np.testing.assert_allclose(t_loss.item(), np_loss.item(), **TOL)


@pytest.mark.parametrize("name", CONFIGS)
def test_torch_weights_in_numpy_give_the_same_logits_and_loss(name):
    cfg = CONFIGS[name]
    src, dst = torch_gpt(cfg, seed=3), numpy_gpt(cfg, seed=4)
    with torch.no_grad():  # move the torch weights away from the shared initialisation
        for p in src.parameters():
            p.add_(0.01 * torch.randn(p.shape, dtype=p.dtype, generator=torch.Generator().manual_seed(0)))
    dst.load_state_dict(to_numpy(src.state_dict()))
    x, y = batch(cfg, seed=1)
    np_logits, np_loss = dst(x, y)
    t_logits, t_loss = src(torch.from_numpy(x), torch.from_numpy(y))
    np.testing.assert_allclose(np_logits.data, t_logits.detach().numpy(), **TOL)
    np.testing.assert_allclose(np_loss.item(), t_loss.item(), **TOL)
    back = dst.state_dict()  # the round trip keeps every weight exactly
    assert all(np.array_equal(back[k], v.numpy()) for k, v in src.state_dict().items())


@pytest.mark.parametrize("name", ["default", "no-bias"])
def test_same_gradients(name):
    cfg = CONFIGS[name]
    src, dst = numpy_gpt(cfg, seed=5), torch_gpt(cfg, seed=5)
    x, y = batch(cfg, seed=2)
    _, np_loss = src(x, y)
    np_loss.backward()
    _, t_loss = dst(torch.from_numpy(x), torch.from_numpy(y))
    t_loss.backward()
    t_grads = {k: p.grad.numpy() for k, p in dst.named_parameters()}
    for k, p in src.named_parameters():
        np.testing.assert_allclose(p.grad, t_grads[k], rtol=1e-7, atol=1e-12, err_msg=k)


@pytest.mark.parametrize("use_cache", [True, False])
@pytest.mark.parametrize("kwargs", [{"temperature": 0.0}, {"temperature": 0.9, "top_k": 5}, {"top_p": 0.8}])
def test_same_tokens_from_the_same_rng_past_block_size(use_cache, kwargs):
    cfg = CONFIGS["no-bias"]
    src, dst = numpy_gpt(cfg, seed=6), torch_gpt(cfg, seed=6)
    prompt = batch(cfg, B=2, seed=3)[0][:, :4]
    a = src.generate(prompt, 20, rng=np.random.default_rng(1), **kwargs)  # 24 tokens > block_size 12
    b = dst.generate(torch.from_numpy(prompt), 20, rng=np.random.default_rng(1), use_cache=use_cache, **kwargs)
    np.testing.assert_array_equal(a, b.numpy())


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_numpy_kv_cache_gives_the_same_tokens_and_logits(dtype):
    cfg = CONFIGS["no-bias"]
    m = gpt.GPT(cfg, seed=8).to(dtype)
    prompt = batch(cfg, B=2, seed=4)[0][:, :5]
    for kwargs in ({"temperature": 0.0}, {"temperature": 0.9, "top_k": 5}, {"top_p": 0.8}):
        a = m.generate(prompt, 20, use_cache=True, rng=np.random.default_rng(2), **kwargs)  # 25 > block_size 12
        b = m.generate(prompt, 20, use_cache=False, rng=np.random.default_rng(2), **kwargs)
        np.testing.assert_array_equal(a, b)
    x, y = batch(cfg, B=2, seed=5)
    full, _ = m(x, y)
    cache = m.new_kv_cache(2)
    chunks = [m(x[:, a:b], y[:, a:b], kv_cache=cache) for a, b in [(0, 5), (5, 6), (6, 9), (9, 12)]]
    tol = dict(rtol=1e-5, atol=1e-6) if dtype == np.float32 else dict(rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(np.concatenate([c[0].data for c in chunks], axis=1), full.data, **tol)
    for (a, b), (_, loss) in zip([(0, 5), (5, 6), (6, 9), (9, 12)], chunks):  # each chunk's loss: its positions'
        np.testing.assert_allclose(loss.item(), cross_entropy(Tensor(full.data[:, a:b]), y[:, a:b]).item(), **tol)
    assert cache.length == 12 and cache.k[0].dtype == dtype
    with pytest.raises(ValueError, match="the cache holds 12 tokens; adding T=1 is longer than block_size=12"):
        m(x[:, :1], kv_cache=cache)
    with pytest.raises(ValueError, match="kv_cache holds batch size 2, idx has B=1"):
        m(x[:1, :1], kv_cache=m.new_kv_cache(2))
