"""The numpy GPT (minigpt.nn) and the torch GPT (minigpt.model) agree on the same weights."""

import numpy as np
import pytest
import torch

from minigpt import model, nn
from minigpt.config import GPTConfig

CONFIGS = {
    "tiny": GPTConfig.tiny(vocab_size=29),
    "no-bias": GPTConfig(vocab_size=23, block_size=12, n_layer=3, n_head=2, n_embd=16, bias=False),
    "one-head": GPTConfig(vocab_size=11, block_size=8, n_layer=1, n_head=1, n_embd=8),
}
TOL = dict(rtol=1e-9, atol=1e-9)


def batch(cfg: GPTConfig, B=3, seed=0):
    rng = np.random.default_rng(seed)
    T = cfg.block_size
    x = rng.integers(0, cfg.vocab_size, size=(B, T))
    y = rng.integers(0, cfg.vocab_size, size=(B, T))
    y[0, :3] = -1  # some ignored targets
    return x, y


def numpy_gpt(cfg, seed=0):
    return nn.GPT(cfg, seed=seed).to(np.float64)


def torch_gpt(cfg, seed=0):
    torch.manual_seed(seed)
    return model.GPT(cfg).double()


def np_value(t) -> np.ndarray:
    """The array inside a numpy-engine Tensor (or an array already)."""
    return np.asarray(getattr(t, "data", t))


@pytest.mark.parametrize("name", CONFIGS)
def test_same_parameter_names_and_shapes(name):
    cfg = CONFIGS[name]
    a, b = numpy_gpt(cfg).state_dict(), torch_gpt(cfg).state_dict()
    assert list(a) == list(b)
    assert {k: v.shape for k, v in a.items()} == {k: tuple(v.shape) for k, v in b.items()}
    assert torch_gpt(cfg).num_params() == sum(v.size for v in a.values())


@pytest.mark.parametrize("name", CONFIGS)
def test_numpy_weights_in_torch_give_the_same_logits_and_loss(name):
    cfg = CONFIGS[name]
    src, dst = numpy_gpt(cfg, seed=1), torch_gpt(cfg, seed=2)
    dst.load_state_dict(src.state_dict())  # numpy arrays into torch
    x, y = batch(cfg)
    np_logits, np_loss = src(x, y)
    t_logits, t_loss = dst(torch.from_numpy(x), torch.from_numpy(y))
    np.testing.assert_allclose(t_logits.detach().numpy(), np_value(np_logits), **TOL)
    np.testing.assert_allclose(t_loss.item(), float(np_value(np_loss)), **TOL)


@pytest.mark.parametrize("name", CONFIGS)
def test_torch_weights_in_numpy_give_the_same_logits_and_loss(name):
    cfg = CONFIGS[name]
    src, dst = torch_gpt(cfg, seed=3), numpy_gpt(cfg, seed=4)
    dst.load_state_dict(src.state_dict())  # torch tensors into numpy
    x, y = batch(cfg, seed=1)
    np_logits, np_loss = dst(x, y)
    t_logits, t_loss = src(torch.from_numpy(x), torch.from_numpy(y))
    np.testing.assert_allclose(np_value(np_logits), t_logits.detach().numpy(), **TOL)
    np.testing.assert_allclose(float(np_value(np_loss)), t_loss.item(), **TOL)
    back = dst.state_dict()  # the round trip keeps every weight exactly
    assert all(np.array_equal(back[k], v.numpy()) for k, v in src.state_dict().items())


@pytest.mark.parametrize("name", ["tiny", "no-bias"])
def test_same_gradients(name):
    cfg = CONFIGS[name]
    src, dst = numpy_gpt(cfg, seed=5), torch_gpt(cfg)
    dst.load_state_dict(src.state_dict())
    x, y = batch(cfg, seed=2)
    _, np_loss = src(x, y)
    np_loss.backward()
    _, t_loss = dst(torch.from_numpy(x), torch.from_numpy(y))
    t_loss.backward()
    t_grads = {k: p.grad.numpy() for k, p in dst.named_parameters()}
    for k, p in src.named_parameters():
        np.testing.assert_allclose(p.grad, t_grads[k], rtol=1e-7, atol=1e-12, err_msg=k)


@pytest.mark.parametrize("use_cache", [True, False])
def test_same_greedy_generation_past_block_size(use_cache):
    cfg = CONFIGS["no-bias"]
    src, dst = numpy_gpt(cfg, seed=6), torch_gpt(cfg)
    dst.load_state_dict(src.state_dict())
    prompt = batch(cfg, B=2, seed=3)[0][:, :4]
    a = src.generate(prompt, 20, temperature=0.0, use_cache=use_cache)  # 24 tokens > block_size 12
    b = dst.generate(torch.from_numpy(prompt), 20, temperature=0.0, use_cache=use_cache)
    np.testing.assert_array_equal(np.asarray(a), b.numpy())
