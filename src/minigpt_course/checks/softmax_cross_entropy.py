"""Checks for the exercises of the lesson ``tensor/softmax-cross-entropy``.

``check_cross_entropy_grad(fn)``: ``fn(logits, targets)`` is d(mean cross-entropy)/d logits, (N, V).

Each returns a ``Result``, ``"<name>: passed ..."`` or ``"<name>: not yet"`` followed by the first case that
differs, what was expected and what the function gave, and a hint when the difference has a known cause.
An error raised by the reader's code is reported as expected vs got (``reader_errors``).
"""

from __future__ import annotations

import numpy as np

from minigpt_course.checks import Check, Lesson, Message, Result, name_of, not_yet, passed, reader_errors, show, speaker
from minigpt.functional import cross_entropy
from minigpt.tensor import Tensor

MESSAGES = {
    "hint": ("  hint: {hint}", "  提示：{hint}"),
    "large": ("large logits", "很大的 logits"),
    # the gradient of cross_entropy
    "ce_expected": ("{name}(logits, targets) -> d loss / d logits = (softmax - one_hot) / N",
                    "{name}(logits, targets) -> 损失对 logits 的梯度 d loss / d logits = (softmax - one_hot) / N"),
    "ce_name": ("cross_entropy (its gradient)", "cross_entropy 的梯度"),
    "rows_classes": ("4 rows, 5 classes", "4 行，5 个类别"),
    "ce_case": ("  {case}: logits (N, V) = {shape}, targets {targets}", "  {case}：logits (N, V) = {shape}，targets {targets}"),
    "ce_shape": ("  expected a gradient of shape (N, V) = {want}, got {got}",
                 "  期望     形状为 (N, V) = {want} 的梯度，得到的是 {got}"),
    "ce_row": ("  row {row} (target {target}), logits {logits}:\n    expected {want}   ((softmax - one_hot) / {N})\n"
               "    got      {got}",
               "  第 {row} 行（目标 {target}），logits {logits}：\n    期望     {want}   ((softmax - one_hot) / {N})\n"
               "    得到     {got}"),
    "ce_overflow": ("exp of a large logit overflowed: subtract each row's largest logit before exp (the max trick)",
                    "大 logit 的 exp 上溢了：exp 之前先减去每行最大的 logit（减最大值）"),
    "ce_flipped": ("the sign is flipped: the gradient is softmax - one_hot, not one_hot - softmax",
                   "符号反了：梯度是 softmax - one_hot，不是 one_hot - softmax"),
    "ce_sum": ("{n} times too large: the loss is the mean over N = {n} rows, so divide by N",
               "大了 {n} 倍：损失是 N = {n} 行的平均，所以要除以 N"),
    "ce_row_sum": ("each row of the gradient sums to 0 (softmax sums to 1, the one-hot too); row 0 of yours sums to {sum}",
                   "梯度的每一行加起来都是 0（softmax 加起来是 1，独热向量也是）；你的第 0 行加起来是 {sum}"),
    "ce_passed": ("{name}: passed ({n} cases, logits of 1000 included)", "{name}：通过（{n} 种情形，包括 1000 这样的 logits）"),
}
say = speaker(__name__)


def _reference_grad(logits: np.ndarray, targets: np.ndarray) -> np.ndarray:
    x = Tensor(logits, requires_grad=True)
    cross_entropy(x, targets).backward()
    return x.grad


_CE_CASES = [
    (say("rows_classes"), np.random.default_rng(2).standard_normal((4, 5)) * 2, np.array([1, 0, 4, 1])),
    (say("large"), np.array([[1000.0, 0.0, -1000.0], [0.0, -800.0, 5.0]]), np.array([0, 1])),
]


def _ce_hint(logits: np.ndarray, targets: np.ndarray, want: np.ndarray, got: np.ndarray) -> list[Message]:
    N = len(targets)
    if not np.isfinite(got).all():
        return [say("hint", hint=say("ce_overflow"))]
    if np.allclose(got, -want, atol=1e-9):
        return [say("hint", hint=say("ce_flipped"))]
    if np.allclose(got, want * N, atol=1e-9):
        return [say("hint", hint=say("ce_sum", n=N))]
    sums = got.sum(axis=1)
    if not np.allclose(sums, 0.0, atol=1e-9):
        return [say("hint", hint=say("ce_row_sum", sum=show(sums[0], decimals=4)))]
    return []


@reader_errors("ce_expected")
def check_cross_entropy_grad(fn, name: str | Message | None = None) -> Result:
    """``fn(logits, targets)`` (logits (N, V) floats, targets N integers) must return d loss / d logits for
    loss = mean over rows of -log softmax(logits)[target]: (softmax - one_hot) / N, finite for logits of 1000.
    ``name`` is what the report calls ``fn`` (its ``__name__`` when not given)."""
    name = name or name_of(fn)
    for case, logits, targets in _CE_CASES:
        N, V = logits.shape
        want = _reference_grad(logits, targets)
        with np.errstate(all="ignore"):
            got = np.asarray(fn(logits.copy(), targets.copy()), dtype=np.float64)
        head = say("ce_case", case=case, shape=logits.shape, targets=targets.tolist())
        if got.shape != want.shape:
            return not_yet(name, head, say("ce_shape", want=want.shape, got=got.shape))
        if not np.allclose(got, want, rtol=1e-8, atol=1e-12):
            row = int(np.argmax(~np.isclose(got, want, rtol=1e-8, atol=1e-12).all(axis=1)))
            return not_yet(name, head, say("ce_row", row=row, target=targets[row], logits=show(logits[row], decimals=4),
                                           want=show(want[row], decimals=4), N=N, got=show(got[row], decimals=4)),
                           *_ce_hint(logits, targets, want, got))
    return passed(name, say("ce_passed", n=len(_CE_CASES)))


def _cross_entropy_grad(wb) -> Result:
    Tensor = wb.get("tensor.py", "Tensor")
    cross_entropy = wb.get("functional.py", "cross_entropy")

    def cross_entropy_grad(logits, targets):
        x = Tensor(logits, requires_grad=True)
        cross_entropy(x, targets).backward()
        return x.grad

    return check_cross_entropy_grad(cross_entropy_grad, name=say("ce_name"))


LESSON = Lesson("softmax-cross-entropy", starts={"functional.py": (
    "cross_entropy and the other functions on Tensors", "cross_entropy 等作用在 Tensor 上的函数")},
    introduces=(("functional.py", "cross_entropy"),),
    checks=(Check("cross_entropy", "gradient", _cross_entropy_grad),))
