"""Checks for the exercises of lesson 6, ``tensor/layers-optim``.

``check_sgd_momentum(cls)`` runs a reader's optimiser class on two parameters for four steps and returns
one report: ``"<name>: every check passed ..."``, or ``"<name>: not yet"`` followed by the first step where
a parameter went elsewhere, what was expected, what the class gave, and, when the numbers match a known
mistake, which one. An error raised by the reader's code is reported as expected vs got (``reader_errors``).
"""

from __future__ import annotations

import numpy as np

from minigpt.checks import show, reader_errors

from minigpt.tensor import Tensor

LR, MOMENTUM, STEPS = 0.1, 0.9, 4


def _start() -> list[np.ndarray]:
    return [np.array([1.0, -2.0, 0.5]), np.array([[0.3, -0.1], [2.0, 1.0]])]


def _grads() -> list[list[np.ndarray]]:
    """The gradient of each parameter at each step: fixed numbers, different at every step."""
    rng = np.random.default_rng(6)
    return [[np.round(rng.standard_normal(p.shape), 2) for p in _start()] for _ in range(STEPS)]


def _trajectory(rule: str) -> list[list[np.ndarray]]:
    """The parameters after each step under one update rule; "torch" is torch.optim.SGD's:
    buf = grad at the first step, then buf = momentum * buf + grad; p = p - lr * buf."""
    params, bufs, out = _start(), [None, None], []
    for grads in _grads():
        for i, g in enumerate(grads):
            if rule == "plain":  # no velocity at all
                step = g
            elif rule == "dampened":  # an average instead of a sum: (1 - momentum) * grad
                bufs[i] = (1 - MOMENTUM) * g if bufs[i] is None else MOMENTUM * bufs[i] + (1 - MOMENTUM) * g
                step = bufs[i]
            else:
                bufs[i] = g.copy() if bufs[i] is None else MOMENTUM * bufs[i] + g
                step = bufs[i]
            params[i] = params[i] - LR * step
        out.append([p.copy() for p in params])
    return out


MISTAKES = {
    "plain": "that is plain SGD, p - lr * grad: the velocity buf must carry over from step to step\n"
             "  (buf = momentum * buf + grad, one buf per parameter, kept in self)",
    "dampened": "that is buf = momentum * buf + (1 - momentum) * grad;\n"
                "  torch.optim.SGD adds the whole gradient: buf = momentum * buf + grad",
}


@reader_errors('cls(params, lr=0.1, momentum=0.9) to step like torch.optim.SGD')
def check_sgd_momentum(cls) -> str:
    """``cls(params, lr=0.1, momentum=0.9)`` must move the parameters as torch.optim.SGD(momentum=0.9) does."""
    name = getattr(cls, "__name__", "your optimiser")
    params = [Tensor(p, requires_grad=True) for p in _start()]
    opt = cls(params, lr=LR, momentum=MOMENTUM)
    want, wrong = _trajectory("torch"), {rule: _trajectory(rule) for rule in MISTAKES}
    for t, grads in enumerate(_grads()):
        before = [p.data.copy() for p in params]
        for p, g in zip(params, grads):
            p.grad = g.copy()
        opt.step()
        for i, p in enumerate(params):
            got = np.asarray(p.data, dtype=np.float64)
            if got.shape == want[t][i].shape and np.allclose(got, want[t][i], rtol=1e-9, atol=1e-12):
                continue
            report = (f"{name}: not yet\n  after step {t + 1}, parameter {i} (shape {want[t][i].shape}), "
                      f"lr={LR}, momentum={MOMENTUM}:\n"
                      f"    expected {show(want[t][i], decimals=4)}\n    got      {show(got, decimals=4)}")
            if got.shape == before[i].shape and np.array_equal(got, before[i]):
                return report + "\n  p did not move: step() must change p.data (p.data -= lr * buf)"
            for rule, hint in MISTAKES.items():
                if got.shape == want[t][i].shape and np.allclose(got, wrong[rule][t][i], rtol=1e-9, atol=1e-12):
                    return report + "\n  " + hint
            return report
    return (f"{name}: every check passed ({len(params)} parameters, {STEPS} steps, "
            f"the same numbers as torch.optim.SGD(lr={LR}, momentum={MOMENTUM}))")
