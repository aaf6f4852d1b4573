"""SGD, AdamW and gradient clipping against torch.optim, and exact resume from state_dict."""

import numpy as np
import pytest
import torch

from minigpt.optim import SGD, AdamW, clip_grad_norm_
from minigpt.tensor import Tensor

SHAPES = [(3, 4), (5,), (2, 1, 3)]


def run_both(make_ours, make_theirs, steps=6, seed=0):
    """Apply the same random gradients for a few steps; return both sets of parameters."""
    rng = np.random.default_rng(seed)
    init = [rng.standard_normal(s) for s in SHAPES]
    ours = [Tensor(a.copy(), requires_grad=True) for a in init]
    theirs = [torch.tensor(a.copy(), requires_grad=True) for a in init]
    opt, ref = make_ours(ours), make_theirs(theirs)
    for _ in range(steps):
        for p, t in zip(ours, theirs):
            g = rng.standard_normal(p.shape)
            p.grad, t.grad = g.copy(), torch.tensor(g)
        opt.step()
        ref.step()
    return ours, theirs


@pytest.mark.parametrize("momentum,wd", [(0.0, 0.0), (0.9, 0.0), (0.9, 0.1)])
def test_sgd_like_torch(momentum, wd):
    ours, theirs = run_both(lambda ps: SGD(ps, lr=0.1, momentum=momentum, weight_decay=wd),
                            lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=momentum, weight_decay=wd))
    for p, t in zip(ours, theirs):
        np.testing.assert_allclose(p.data, t.detach().numpy(), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("wd,betas", [(0.0, (0.9, 0.999)), (0.1, (0.8, 0.95))])
def test_adamw_like_torch(wd, betas):
    ours, theirs = run_both(lambda ps: AdamW(ps, lr=0.01, betas=betas, weight_decay=wd),
                            lambda ps: torch.optim.AdamW(ps, lr=0.01, betas=betas, weight_decay=wd))
    for p, t in zip(ours, theirs):
        np.testing.assert_allclose(p.data, t.detach().numpy(), rtol=1e-10, atol=1e-12)


def test_optimizers_keep_float32_and_skip_missing_grads():
    p = Tensor(np.ones(3, dtype=np.float32), requires_grad=True)
    q = Tensor(np.ones(2, dtype=np.float32), requires_grad=True)
    for opt in (AdamW([p, q], lr=0.1), SGD([p, q], lr=0.1, momentum=0.9)):
        p.grad = np.ones(3, dtype=np.float32)
        q.grad = None
        opt.step()
        assert p.dtype == np.float32 and (q.data == 1).all()
    opt.zero_grad()
    assert p.grad is None


@pytest.mark.parametrize("make", [lambda ps: SGD(ps, lr=0.05, momentum=0.9), lambda ps: AdamW(ps, lr=0.01)])
def test_state_dict_resumes_exactly(make):
    rng = np.random.default_rng(0)
    grads = [[rng.standard_normal(s) for s in SHAPES] for _ in range(6)]
    init = [rng.standard_normal(s) for s in SHAPES]

    def steps(opt, params, gs):
        for g in gs:
            for p, gi in zip(params, g):
                p.grad = gi.copy()
            opt.step()

    straight = [Tensor(a.copy(), requires_grad=True) for a in init]
    steps(make(straight), straight, grads)

    first = [Tensor(a.copy(), requires_grad=True) for a in init]
    opt = make(first)
    steps(opt, first, grads[:3])
    saved = opt.state_dict()
    saved_params = [p.data.copy() for p in first]
    steps(opt, first, grads[3:4])  # the saved state must not change when training continues
    resumed = [Tensor(a, requires_grad=True) for a in saved_params]
    opt2 = make(resumed)
    opt2.load_state_dict(saved)
    steps(opt2, resumed, grads[3:])
    for a, b in zip(straight, resumed):
        np.testing.assert_array_equal(a.data, b.data)


def test_load_state_dict_rejects_wrong_shapes():
    p = Tensor(np.zeros(3), requires_grad=True)
    state = AdamW([p]).state_dict()
    state["exp_avg"] = [np.zeros(4)]
    with pytest.raises(ValueError, match=r"exp_avg\[0\].*\(4,\)"):
        AdamW([p]).load_state_dict(state)


@pytest.mark.parametrize("max_norm", [0.5, 100.0])
def test_clip_grad_norm_like_torch(max_norm):
    rng = np.random.default_rng(0)
    grads = [rng.standard_normal(s) for s in SHAPES]
    ours = [Tensor(np.zeros(s), requires_grad=True) for s in SHAPES]
    theirs = [torch.zeros(s, dtype=torch.float64, requires_grad=True) for s in SHAPES]
    for p, t, g in zip(ours, theirs, grads):
        p.grad, t.grad = g.copy(), torch.tensor(g)
    total = clip_grad_norm_(ours, max_norm)
    ref = torch.nn.utils.clip_grad_norm_(theirs, max_norm)
    assert isinstance(total, float)
    np.testing.assert_allclose(total, ref.item(), rtol=1e-12)
    for p, t in zip(ours, theirs):
        np.testing.assert_allclose(p.grad, t.grad.numpy(), rtol=1e-12)


def test_bad_arguments():
    with pytest.raises(ValueError, match="empty"):
        AdamW([])
    with pytest.raises(ValueError, match="lr"):
        SGD([Tensor(np.zeros(1), requires_grad=True)], lr=-1)
    with pytest.raises(TypeError, match="Tensors"):
        SGD([np.zeros(1)], lr=0.1)
