"""The check of lesson 4's exercise passes a right SGD with momentum and names the usual wrong ones."""

import numpy as np
import torch

from minigpt import optim
from minigpt_course.checks import layers_optim as checks
from minigpt_course.checks.layers_optim import check_sgd_momentum


class LibrarySGD(optim.SGD):
    """The library's SGD (checked against torch in test_optim.py), under the exercise's signature."""

    def __init__(self, params, lr, momentum=0.9):
        super().__init__(params, lr, momentum=momentum)


class Plain(optim.SGD):
    def __init__(self, params, lr, momentum=0.9):
        super().__init__(params, lr)


class Dampened(Plain):
    def step(self):
        if not hasattr(self, "bufs"):
            self.bufs = [np.zeros_like(p.data) for p in self.params]
        for p, buf in zip(self.params, self.bufs):
            buf[:] = 0.9 * buf + 0.1 * p.grad
            p.data -= self.lr * buf


class Frozen(Plain):
    def step(self):
        pass


def test_the_expected_numbers_are_torchs():
    params = [torch.tensor(p, requires_grad=True) for p in checks._start()]
    opt = torch.optim.SGD(params, lr=checks.LR, momentum=checks.MOMENTUM)
    for grads, want in zip(checks._grads(), checks._trajectory("torch")):
        for p, g in zip(params, grads):
            p.grad = torch.tensor(g)
        opt.step()
        for p, w in zip(params, want):
            np.testing.assert_allclose(p.detach().numpy(), w, rtol=1e-12)


def test_a_right_sgd_with_momentum_passes():
    assert str(check_sgd_momentum(LibrarySGD)).startswith("LibrarySGD: every check passed")


def test_plain_sgd_fails_at_step_2_and_is_named():
    report = str(check_sgd_momentum(Plain))
    assert report.startswith("Plain: not yet\n  after step 2, parameter 0")
    assert "expected" in report and "got" in report and "that is plain SGD" in report


def test_a_dampened_buffer_fails_at_step_1_and_is_named():
    report = str(check_sgd_momentum(Dampened))
    assert "after step 1" in report and "(1 - momentum) * grad" in report


def test_a_step_that_does_nothing_is_told_so():
    assert "p did not move" in str(check_sgd_momentum(Frozen))
