"""The inspect lesson's exercise (``train/inspect``): the reader's ``perplexity(logits, targets)``.

``check_perplexity(fn)`` calls ``fn(logits, targets)`` with logits (N, T, V) and target ids (N, T), as a model's
forward pass gives them on N windows of a validation split, and compares the result with exp(mean cross-entropy
in nats over all N*T tokens), the page's definition (``validation_loss`` scores every token: nothing to mask).
Three cases: three random windows of 4 tokens (one far more certain than the others), two of 9 tokens with V = 50
(a size written into the code shows), and uniform logits (perplexity V). A wrong answer is matched against the
usual mistakes and named: the mean of each window's perplexity, 2 ** loss, e ** (the loss in bits), the mean loss
without the exp, the sign of the loss flipped, the summed loss instead of the mean (or divided by the windows,
not the tokens), the raw logits taken as log-probabilities, the log-softmax over the positions, not the V scores.
"""

from __future__ import annotations

import math

import numpy as np

from minigpt_course.checks import Check, Lesson, Result, not_yet, passed, reader_errors, show, speaker

MESSAGES = {
    "expected": ("{name}(logits, targets) -> exp(mean cross-entropy over every token), one number",
                 "{name}(logits, targets) -> exp(所有词元上的平均交叉熵)，一个数"),
    "three_windows": ("three windows of 4 tokens, V = 6", "3 个窗口，每个 4 个词元，V = 6"),
    "two_windows": ("two windows of 9 tokens, V = 50", "2 个窗口，每个 9 个词元，V = 50"),
    "uniform": ("one window, uniform logits over V = 6 (perplexity V)", "一个窗口，V = 6 上的均匀 logits（困惑度就是 V）"),
    "not_number": ("  {what}\n    expected one number, {want}\n    got      {got}",
                   "  {what}\n    期望     一个数：{want}\n    得到     {got}"),
    "wrong": ("  {what}\n    expected {want}\n    got      {got}", "  {what}\n    期望     {want}\n    得到     {got}"),
    "windows": ("  the mean of each window's perplexity: average the losses first, then take exp once",
                "  这是各个窗口困惑度的平均：要先把损失平均，再只取一次 exp"),
    "base_two": ("  2 ** loss: the loss is in nats (natural log), so its perplexity is e ** loss",
                 "  这是 2 ** loss：损失的单位是奈特（自然对数），所以困惑度是 e ** loss"),
    "bits_e": ("  e ** (the loss in bits): a loss in bits (log2) goes with 2 **, a loss in nats with e **",
               "  这是 e ** (以比特为单位的损失)：比特（log2）配 2 **，奈特（自然对数）配 e **"),
    "mean_loss": ("  the mean loss itself: perplexity is exp of it", "  这是平均损失本身：困惑度是它的 exp"),
    "sign": ("  1 / perplexity: exp of the mean log p; the loss is -log p, so exp(-mean log p)",
             "  这是 1 / 困惑度，即 mean log p 的 exp；损失是 -log p，应该是 exp(-mean log p)"),
    "sum": ("  exp of the summed loss: divide by the number of tokens, N * T, before the exp",
            "  这是总损失的 exp：取 exp 之前要除以词元数 N * T"),
    "per_window": ("  the summed loss divided by the N windows: divide by the N * T tokens",
                   "  这是总损失除以窗口数 N：应该除以词元数 N * T"),
    "raw_logits": ("  the logits were used as log-probabilities: take log_softmax first",
                   "  把 logits 直接当成了对数概率：要先做 log_softmax"),
    "axis": ("  log_softmax over axis 1, the positions: take it over the V scores, axis -1",
             "  log_softmax 做在了 axis 1（位置）上：要在 V 个分数上做，axis -1"),
    "passed": ("{name}: passed (exp of the mean loss over every token, {ppl} for V = 6 uniform)",
               "{name}：通过（所有词元平均损失的 exp；V = 6 的均匀分布上是 {ppl}）"),
}
say = speaker(__name__)


def _log_softmax(logits: np.ndarray, axis: int = -1) -> np.ndarray:
    z = logits - logits.max(axis=axis, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=axis, keepdims=True))


def _pick(log_probs: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """(N, T): log_probs[n, t, targets[n, t]]."""
    return np.take_along_axis(log_probs, targets[..., None], axis=-1)[..., 0]


def _nll(logits: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """(N, T): -log p(target) of every token, in nats."""
    return -_pick(_log_softmax(logits), targets)


def _cases():
    rng = np.random.default_rng(0)
    logits = rng.normal(0, 2, (3, 4, 6))
    logits[2] *= 3  # one window far more certain than the others, so that means of windows differ
    targets = rng.integers(0, 6, (3, 4))
    yield say("three_windows"), logits, targets
    yield say("two_windows"), rng.normal(0, 2, (2, 9, 50)), rng.integers(0, 50, (2, 9))
    yield say("uniform"), np.zeros((1, 5, 6)), np.zeros((1, 5), dtype=int)


def _mistakes(logits, targets) -> dict[str, float]:
    """What the usual mistakes give (the key of the message that names each)."""
    nll = _nll(logits, targets)
    return {
        "windows": float(np.exp(nll.mean(axis=1)).mean()),
        "base_two": float(2 ** nll.mean()),
        "bits_e": float(np.exp(nll.mean() / math.log(2))),
        "mean_loss": float(nll.mean()),
        "sign": float(np.exp(-nll.mean())),
        "sum": float(np.exp(nll.sum())),
        "per_window": float(np.exp(nll.sum(axis=1).mean())),
        "raw_logits": float(np.exp(-_pick(logits, targets).mean())),
        "axis": float(np.exp(-_pick(_log_softmax(logits, axis=1), targets).mean())),
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


LESSON = Lesson("inspect", introduces=(("train.py", "perplexity"),), checks=(
    Check("perplexity", "perplexity", lambda wb: check_perplexity(wb.get("train.py", "perplexity"))),))
