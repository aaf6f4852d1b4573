"""Checks for the exercises of the lesson ``tensor/layers-optim``.

``check_sgd_momentum(cls)`` runs a reader's optimiser class on two parameters for four steps and returns
one report: ``"<name>: every check passed ..."``, or ``"<name>: not yet"`` followed by the first step where
a parameter went elsewhere, what was expected, what the class gave, and, when the numbers match a known
mistake, which one. An error raised by the reader's code is reported as expected vs got (``reader_errors``).
"""

from __future__ import annotations

import numpy as np

from minigpt_course.checks import Check, Lesson, Result, name_of, not_yet, passed, reader_errors, show, speaker

from minigpt.tensor import Tensor as LibraryTensor

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


MESSAGES = {
    "expected": ("{name}(params, lr=0.1, momentum=0.9) to step like torch.optim.SGD",
                 "{name}(params, lr=0.1, momentum=0.9) 每一步都和 torch.optim.SGD 走得一样"),
    "plain": ("  that is plain SGD, p - lr * grad: the velocity buf must carry over from step to step\n"
              "  (buf = momentum * buf + grad, one buf per parameter, kept in self)",
              "  这是普通的 SGD，p - lr * grad：速度 buf 要从这一步带到下一步\n"
              "  （buf = momentum * buf + grad，每个参数一个 buf，存在 self 里）"),
    "dampened": ("  that is buf = momentum * buf + (1 - momentum) * grad;\n"
                 "  torch.optim.SGD adds the whole gradient: buf = momentum * buf + grad",
                 "  这是 buf = momentum * buf + (1 - momentum) * grad；\n"
                 "  torch.optim.SGD 加的是整个梯度：buf = momentum * buf + grad"),
    "step": ("  after step {step}, parameter {i} (shape {shape}), lr={lr}, momentum={momentum}:\n"
             "    expected {want}\n    got      {got}",
             "  第 {step} 步之后，参数 {i}（形状 {shape}），lr={lr}，momentum={momentum}：\n"
             "    期望     {want}\n    得到     {got}"),
    "still": ("  p did not move: step() must change p.data (p.data -= lr * buf)",
              "  p 没有动：step() 要改 p.data（p.data -= lr * buf）"),
    "passed": ("{name}: every check passed ({n} parameters, {steps} steps, the same numbers as "
               "torch.optim.SGD(lr={lr}, momentum={momentum}))",
               "{name}：全部通过（{n} 个参数、{steps} 步，数值和 torch.optim.SGD(lr={lr}, momentum={momentum}) 一样）"),
}
say = speaker(__name__)
MISTAKES = ("plain", "dampened")


@reader_errors("expected")
def check_sgd_momentum(cls, Tensor=LibraryTensor) -> Result:
    """``cls(params, lr=0.1, momentum=0.9)`` must move the parameters as torch.optim.SGD(momentum=0.9) does;
    ``Tensor`` is the class of the parameters (the reader's, in their workbook)."""
    name = name_of(cls, "your_optimiser")
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
            line = say("step", step=t + 1, i=i, shape=want[t][i].shape, lr=LR, momentum=MOMENTUM,
                       want=show(want[t][i], decimals=4), got=show(got, decimals=4))
            if got.shape == before[i].shape and np.array_equal(got, before[i]):
                return not_yet(name, line, say("still"))
            hints = [say(rule) for rule in MISTAKES
                     if got.shape == want[t][i].shape and np.allclose(got, wrong[rule][t][i], rtol=1e-9, atol=1e-12)]
            return not_yet(name, line, *hints[:1])
    return passed(name, say("passed", n=len(params), steps=STEPS, lr=LR, momentum=MOMENTUM))


LESSON = Lesson("layers-optim", starts={
    "nn.py": ("Module, Linear and the layers", "Module、Linear 等层"),
    "optim.py": ("SGD (with momentum) and AdamW", "SGD（带动量）和 AdamW")},
    introduces=(("nn.py", "Parameter"), ("nn.py", "Module"), ("nn.py", "Linear"), ("nn.py", "Embedding"),
                ("optim.py", "SGD"), ("optim.py", "AdamW")),
    checks=(Check("SGD(momentum)", "sgd", lambda wb: check_sgd_momentum(wb.get("optim.py", "SGD"),
                                                                        wb.get("tensor.py", "Tensor"))),))
