"""Checks for the lesson (``train/inspect``; named ``inspection`` because ``minigpt_course.checks`` uses the standard
library's ``inspect``): the reader's ``perplexity``.

``check_perplexity(fn)`` calls ``fn(logits, targets)`` with logits (N, T, V) and target ids (N, T), as a
model's forward pass gives them on N windows of a validation split, and compares the result with
exp(mean cross-entropy in nats over all N*T tokens). A wrong answer is matched against the usual mistakes
(the mean of each window's perplexity, base 2, raw logits instead of log-probabilities) and named.
"""

from __future__ import annotations

import numpy as np

from minigpt_course.checks import Result, not_yet, passed, reader_errors, show, speaker

MESSAGES = {
    "expected": ("{name}(logits, targets) -> exp(mean cross-entropy over every token), one number",
                 "{name}(logits, targets) -> exp(所有词元上的平均交叉熵)，一个数"),
    "three_windows": ("three windows of 4 tokens, V = 6", "3 个窗口，每个 4 个词元，V = 6"),
    "uniform": ("one window, uniform logits over V = 6 (perplexity V)", "一个窗口，V = 6 上的均匀 logits（困惑度就是 V）"),
    "not_number": ("  {what}\n    expected one number, {want}\n    got      {got}",
                   "  {what}\n    期望     一个数：{want}\n    得到     {got}"),
    "wrong": ("  {what}\n    expected {want}\n    got      {got}", "  {what}\n    期望     {want}\n    得到     {got}"),
    "windows": ("  the mean of each window's perplexity: average the losses first, then take exp once",
                "  这是各个窗口困惑度的平均：要先把损失平均，再只取一次 exp"),
    "base_two": ("  2 ** loss: the loss is in nats (natural log), so its perplexity is e ** loss",
                 "  这是 2 ** loss：损失的单位是奈特（自然对数），所以困惑度是 e ** loss"),
    "mean_loss": ("  the mean loss itself: perplexity is exp of it", "  这是平均损失本身：困惑度是它的 exp"),
    "raw_logits": ("  the logits were used as log-probabilities: take log_softmax first",
                   "  把 logits 直接当成了对数概率：要先做 log_softmax"),
    "passed": ("{name}: passed (exp of the mean loss over every token, {ppl} for V = 6 uniform)",
               "{name}：通过（所有词元平均损失的 exp；V = 6 的均匀分布上是 {ppl}）"),
}
say = speaker(__name__)


def _log_softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def _nll(logits: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """(N, T): -log p(target) of every token, in nats."""
    return -np.take_along_axis(_log_softmax(logits), targets[..., None], axis=-1)[..., 0]


def _cases():
    rng = np.random.default_rng(0)
    logits = rng.normal(0, 2, (3, 4, 6))
    logits[2] *= 3  # one window far more certain than the others, so that means of windows differ
    targets = rng.integers(0, 6, (3, 4))
    yield say("three_windows"), logits, targets
    yield say("uniform"), np.zeros((1, 5, 6)), np.zeros((1, 5), dtype=int)


def _mistakes(logits, targets) -> dict[str, float]:
    """What the usual mistakes give (the key of the message that names each)."""
    nll = _nll(logits, targets)
    return {
        "windows": float(np.exp(nll.mean(axis=1)).mean()),
        "base_two": float(2 ** nll.mean()),
        "mean_loss": float(nll.mean()),
        "raw_logits": float(np.exp(-np.take_along_axis(logits, targets[..., None], axis=-1).mean())),
    }


@reader_errors("expected")
def check_perplexity(fn, name: str | None = None) -> Result:
    """``fn(logits (N, T, V), targets (N, T))`` must return exp of the mean cross-entropy (nats) over all
    N*T tokens."""
    name = name or getattr(fn, "__name__", None) or "perplexity"
    for what, logits, targets in _cases():
        expected = float(np.exp(_nll(logits, targets).mean()))
        got = fn(logits.copy(), targets.copy())
        try:
            value = float(got)
        except (TypeError, ValueError):
            return not_yet(name, say("not_number", what=what, want=show(expected), got=repr(got)))
        if np.isclose(value, expected, rtol=1e-6):
            continue
        why = [say(m) for m, v in _mistakes(logits, targets).items() if np.isclose(value, v, rtol=1e-6)][:1]
        return not_yet(name, say("wrong", what=what, want=show(expected), got=show(value)), *why)
    return passed(name, say("passed", ppl=show(expected)))
