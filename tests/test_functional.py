"""Fused functions of minigpt.functional against torch.nn.functional, and finite differences."""

import numpy as np
import pytest
import torch
import torch.nn.functional as TF
from hypothesis import given, settings
from hypothesis import strategies as st

from minigpt import functional as F
from minigpt.tensor import Tensor

SETTINGS = settings(max_examples=25, deadline=None)
seeds = st.integers(0, 2**31 - 1)


def numeric_grad(f, x, eps=1e-6):
    """Central differences of the scalar function f at every element of x."""
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        g[i] = (f(x + d) - f(x - d)) / (2 * eps)
    return g


@st.composite
def ce_case(draw):
    lead = draw(st.sampled_from([(5,), (2, 3), (1, 1), (3, 4)]))
    V = draw(st.integers(1, 7))
    seed = draw(seeds)
    rng = np.random.default_rng(seed)
    targets = rng.integers(0, V, lead)
    targets[rng.random(lead) < 0.3] = -1
    targets.flat[0] = 0  # at least one position counts
    return rng.standard_normal(lead + (V,)) * 3, targets


@SETTINGS
@given(case=ce_case())
def test_cross_entropy_like_torch(case):
    logits, targets = case
    x = Tensor(logits, requires_grad=True)
    loss = F.cross_entropy(x, targets)
    loss.backward()
    xt = torch.tensor(logits, requires_grad=True)
    V = logits.shape[-1]
    ref = TF.cross_entropy(xt.reshape(-1, V), torch.from_numpy(targets).reshape(-1), ignore_index=-1)
    ref.backward()
    assert loss.shape == () and loss.dtype == np.float64
    np.testing.assert_allclose(loss.item(), ref.item(), rtol=1e-10)
    np.testing.assert_allclose(x.grad, xt.grad.numpy(), rtol=1e-10, atol=1e-12)


@st.composite
def ln_case(draw):
    lead = draw(st.sampled_from([(), (3,), (2, 3), (2, 1, 4)]))
    C = draw(st.integers(1, 6))
    return lead + (C,), draw(seeds), draw(st.booleans()), draw(st.booleans())


@SETTINGS
@given(case=ln_case())
def test_layer_norm_like_torch(case):
    shape, seed, has_weight, has_bias = case
    rng = np.random.default_rng(seed)
    C = shape[-1]
    arrays = {"x": rng.standard_normal(shape) * 2 + 1, "w": rng.standard_normal(C), "b": rng.standard_normal(C)}
    ours = {k: Tensor(v, requires_grad=True) for k, v in arrays.items()}
    theirs = {k: torch.tensor(v, requires_grad=True) for k, v in arrays.items()}
    w, b = (ours["w"] if has_weight else None), (ours["b"] if has_bias else None)
    tw, tb = (theirs["w"] if has_weight else None), (theirs["b"] if has_bias else None)
    out = F.layer_norm(ours["x"], w, b)
    ref = TF.layer_norm(theirs["x"], (C,), tw, tb, eps=1e-5)
    np.testing.assert_allclose(out.data, ref.detach().numpy(), rtol=1e-10, atol=1e-12)
    g = rng.standard_normal(shape)
    out.backward(g)
    ref.backward(torch.tensor(g))
    used = ["x"] + (["w"] if has_weight else []) + (["b"] if has_bias else [])
    for k in used:
        np.testing.assert_allclose(ours[k].grad, theirs[k].grad.numpy(), rtol=1e-9, atol=1e-11, err_msg=k)


def test_softmax_then_cross_entropy_matches_finite_differences():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 5))
    targets = np.array([[0, 4, -1], [2, 2, 1]])
    mix = rng.standard_normal((5, 5))

    def f(a):  # softmax, a matmul, then cross-entropy: several ops chained
        return F.cross_entropy(Tensor(a).softmax(-1) @ Tensor(mix), targets)

    xo = Tensor(x, requires_grad=True)
    F.cross_entropy(xo.softmax(-1) @ Tensor(mix), targets).backward()
    np.testing.assert_allclose(xo.grad, numeric_grad(lambda a: f(a).item(), x), rtol=1e-6, atol=1e-9)


def test_layer_norm_matches_finite_differences():
    rng = np.random.default_rng(1)
    x, w, b = rng.standard_normal((2, 3, 4)), rng.standard_normal(4), rng.standard_normal(4)
    proj = rng.standard_normal((2, 3, 4))
    tensors = [Tensor(a, requires_grad=True) for a in (x, w, b)]
    (F.layer_norm(*tensors) * proj).sum().backward()
    for i, a in enumerate((x, w, b)):
        def f(v, i=i):
            args = [x, w, b]
            args[i] = v
            return float((F.layer_norm(*[Tensor(t) for t in args]).data * proj).sum())

        np.testing.assert_allclose(tensors[i].grad, numeric_grad(f, a), rtol=1e-6, atol=1e-9)


def test_gelu_matches_finite_differences():
    x = np.linspace(-4, 4, 17)
    xo = Tensor(x, requires_grad=True)
    xo.gelu().sum().backward()
    np.testing.assert_allclose(xo.grad, numeric_grad(lambda a: Tensor(a).gelu().data.sum(), x), rtol=1e-6, atol=1e-9)


def test_cross_entropy_is_stable_for_huge_logits():
    logits = np.array([[1e4, -1e4, 0.0], [-1e4, 1e4, 1e4]], dtype=np.float32)
    x = Tensor(logits, requires_grad=True)
    loss = F.cross_entropy(x, np.array([1, 2]))
    loss.backward()
    assert np.isfinite(loss.item()) and np.isfinite(x.grad).all()
    ref = TF.cross_entropy(torch.from_numpy(logits), torch.tensor([1, 2]))
    np.testing.assert_allclose(loss.item(), ref.item(), rtol=1e-6)
    assert loss.dtype == np.float32 and x.grad.dtype == np.float32


def test_cross_entropy_rejects_bad_targets():
    x = Tensor(np.zeros((2, 3, 5)))
    with pytest.raises(ValueError, match=r"\(2, 4\).*\(2, 3, 5\)"):
        F.cross_entropy(x, np.zeros((2, 4), dtype=np.int64))
    with pytest.raises(ValueError, match="out of range for 5 classes"):
        F.cross_entropy(x, np.full((2, 3), 5))
    with pytest.raises(TypeError, match="integers"):
        F.cross_entropy(x, np.zeros((2, 3)))


def test_dropout_scales_kept_values_and_is_identity_in_eval():
    x = Tensor(np.ones((200, 50), dtype=np.float32), requires_grad=True)
    assert F.dropout(x, 0.3, training=False) is x
    y = F.dropout(x, 0.3, training=True, rng=np.random.default_rng(0))
    kept = y.data != 0
    assert abs(kept.mean() - 0.7) < 0.02
    np.testing.assert_allclose(y.data[kept], 1 / 0.7, rtol=1e-6)
    assert y.dtype == np.float32
    y.sum().backward()
    np.testing.assert_array_equal(x.grad, y.data)  # gradient goes through the same mask
    same = F.dropout(x, 0.3, training=True, rng=np.random.default_rng(0))
    np.testing.assert_array_equal(same.data, y.data)
    with pytest.raises(ValueError, match="p must be"):
        F.dropout(x, 1.0, training=True)


def test_functional_aliases():
    a = np.random.default_rng(0).standard_normal((2, 3))
    x = Tensor(a)
    np.testing.assert_allclose(F.softmax(x).data, TF.softmax(torch.tensor(a), -1).numpy(), rtol=1e-12)
    np.testing.assert_allclose(F.log_softmax(x, 0).data, TF.log_softmax(torch.tensor(a), 0).numpy(), rtol=1e-12)
    np.testing.assert_allclose(F.relu(x).data, np.maximum(a, 0))
    np.testing.assert_allclose(F.gelu(x).data, TF.gelu(torch.tensor(a), approximate="tanh").numpy(), rtol=1e-12)
