"""Choosing the next token from the model's logits: greedy, temperature, top-k, top-p.

One function, ``sample``, used by both GPTs (``minigpt.gpt`` and ``minigpt.gpt_torch``) on the
logits of the last position, so the two engines sample the same way from the same ``rng``.
"""

from __future__ import annotations

import numpy as np


def check_sampling(temperature: float = 1.0, top_k: int | None = None, top_p: float | None = None) -> None:
    """Raise ValueError, naming the argument, unless temperature >= 0, top_k >= 1 and 0 < top_p <= 1."""
    if isinstance(temperature, bool) or not isinstance(temperature, (int, float)) or not temperature >= 0:
        raise ValueError(f"temperature must be a number >= 0 (0 is greedy), got {temperature!r}")
    if top_k is not None and (isinstance(top_k, bool) or not isinstance(top_k, (int, np.integer)) or top_k < 1):
        raise ValueError(f"top_k must be a positive integer or None, got {top_k!r}")
    if top_p is not None and (isinstance(top_p, bool) or not isinstance(top_p, (int, float)) or not 0 < top_p <= 1):
        raise ValueError(f"top_p must be in (0, 1], got {top_p!r}")


# --8<-- [start:sample]
def sample(logits, temperature: float = 1.0, top_k: int | None = None, top_p: float | None = None,
           rng: np.random.Generator | None = None) -> np.ndarray:
    """One token id per row of ``logits`` (B, V) -> (B,).

    temperature 0: the most likely token (greedy). Otherwise probabilities softmax(logits / temperature),
    cut to the ``top_k`` most likely tokens and then to the smallest set of most likely tokens whose
    probability reaches ``top_p``, renormalised, and one token drawn per row with ``rng``.
    """
    check_sampling(temperature, top_k, top_p)
    logits = np.asarray(logits, dtype=np.float64)  # (B, V)
    if temperature == 0:
        return logits.argmax(axis=-1)
    logits = logits / temperature
    if top_k is not None and top_k < logits.shape[-1]:
        kth = np.sort(logits, axis=-1)[:, -top_k, None]  # (B, 1) the k-th largest logit of each row
        logits = np.where(logits < kth, -np.inf, logits)
    probs = np.exp(logits - logits.max(axis=-1, keepdims=True))
    probs /= probs.sum(axis=-1, keepdims=True)  # (B, V) softmax
    if top_p is not None and top_p < 1:
        order = np.argsort(-probs, axis=-1, kind="stable")  # (B, V) most likely first
        ranked = np.take_along_axis(probs, order, axis=-1)
        mass_before = np.cumsum(ranked, axis=-1) - ranked  # probability of the tokens ranked above
        drop = np.zeros_like(probs, dtype=bool)
        np.put_along_axis(drop, order, mass_before >= top_p, axis=-1)  # the top token is always kept
        probs = np.where(drop, 0.0, probs)
        probs /= probs.sum(axis=-1, keepdims=True)
    rng = rng if rng is not None else np.random.default_rng()
    u = rng.random((probs.shape[0], 1))  # (B, 1) uniform in [0, 1)
    picked = (np.cumsum(probs, axis=-1) <= u).sum(axis=-1)  # inverse CDF: first token whose cumsum passes u
    return np.minimum(picked, probs.shape[-1] - 1)
# --8<-- [end:sample]


def check_stop(stop, vocab_size: int) -> set[int]:
    """``stop`` (None, one id, or a collection of ids) as a set of ids in [0, vocab_size)."""
    if stop is None:
        return set()
    ids = [stop] if isinstance(stop, (int, np.integer)) and not isinstance(stop, bool) else stop
    if hasattr(ids, "tolist"):  # a numpy array or a torch tensor
        ids = ids.tolist()
        ids = ids if isinstance(ids, list) else [ids]
    if isinstance(ids, (str, bytes)) or not hasattr(ids, "__iter__"):
        raise TypeError(f"stop must be a token id or a collection of ids, got {type(stop).__name__}")
    ids = list(ids)
    for t in ids:
        if isinstance(t, bool) or not isinstance(t, (int, np.integer)) or not 0 <= t < vocab_size:
            raise ValueError(f"stop ids must be integers in [0, {vocab_size}), got {t!r}")
    return {int(t) for t in ids}


def check_generate(shape: tuple[int, ...], max_new_tokens: int, temperature: float, top_k, top_p) -> None:
    """The argument checks both GPTs' ``generate`` share: a non-empty (B, T) prompt and sane settings."""
    if shape[1] == 0:
        raise ValueError("idx must hold at least one token per row to generate from")
    if isinstance(max_new_tokens, bool) or not isinstance(max_new_tokens, (int, np.integer)) or max_new_tokens < 0:
        raise ValueError(f"max_new_tokens must be a non-negative integer, got {max_new_tokens!r}")
    check_sampling(temperature, top_k, top_p)
