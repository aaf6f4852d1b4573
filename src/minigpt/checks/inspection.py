"""Checks for lesson 21 (``train/inspect``; named ``inspection`` because ``minigpt.checks`` uses the standard
library's ``inspect``): the reader's ``perplexity``.

``check_perplexity(fn)`` calls ``fn(logits, targets)`` with logits (N, T, V) and target ids (N, T), as a
model's forward pass gives them on N windows of a validation split, and compares the result with
exp(mean cross-entropy in nats over all N*T tokens). A wrong answer is matched against the usual mistakes
(the mean of each window's perplexity, base 2, raw logits instead of log-probabilities) and named.
"""

from __future__ import annotations

import numpy as np

from minigpt.checks import reader_errors, show


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
    yield "three windows of 4 tokens, V = 6", logits, targets
    yield "one window, uniform logits over V = 6 (perplexity V)", np.zeros((1, 5, 6)), np.zeros((1, 5), dtype=int)


def _mistakes(logits, targets) -> dict[str, float]:
    nll = _nll(logits, targets)
    return {
        "the mean of each window's perplexity: average the losses first, then take exp once":
            float(np.exp(nll.mean(axis=1)).mean()),
        "2 ** loss: the loss is in nats (natural log), so its perplexity is e ** loss":
            float(2 ** nll.mean()),
        "the mean loss itself: perplexity is exp of it": float(nll.mean()),
        "the logits were used as log-probabilities: take log_softmax first":
            float(np.exp(-np.take_along_axis(logits, targets[..., None], axis=-1).mean())),
    }


@reader_errors("fn(logits, targets) -> exp(mean cross-entropy over every token), one number")
def check_perplexity(fn, name: str | None = None) -> str:
    """``fn(logits (N, T, V), targets (N, T))`` must return exp of the mean cross-entropy (nats) over all
    N*T tokens."""
    name = name or getattr(fn, "__name__", "perplexity")
    for what, logits, targets in _cases():
        expected = float(np.exp(_nll(logits, targets).mean()))
        got = fn(logits.copy(), targets.copy())
        try:
            value = float(got)
        except (TypeError, ValueError):
            return f"{name}: not yet\n  {what}\n    expected one number, {show(expected)}\n    got      {got!r}"
        if np.isclose(value, expected, rtol=1e-6):
            continue
        why = next((m for m, v in _mistakes(logits, targets).items() if np.isclose(value, v, rtol=1e-6)), "")
        lines = [f"{name}: not yet", f"  {what}", f"    expected {show(expected)}", f"    got      {show(value)}"]
        return "\n".join(lines + ([f"  {why}"] if why else []))
    return f"{name}: passed (exp of the mean loss over every token, {show(expected)} for V = 6 uniform)"
