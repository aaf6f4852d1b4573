"""The bigram model of lesson 6, ``lm/bigram``: the next token from the current one.

Two forms of the same model. ``CountBigram`` counts every (current, next) pair of
the training stream into a (V, V) table and turns each row into probabilities;
``LearnedBigram`` learns a (V, V) table of logits with the Part 1 engine
(``minigpt.nn``), the model lesson 4's toy grew from. ``draw`` and ``generate`` sample
from either, one token at a time. The library's GPT (lesson 12) replaces the single row
lookup with attention over the whole context.
"""

from __future__ import annotations

import numpy as np

from minigpt.functional import cross_entropy
from minigpt.nn import Embedding, Module
from minigpt.optim import AdamW


# --8<-- [start:counts]
def count_pairs(ids: np.ndarray, V: int) -> np.ndarray:
    """N[a, b] = how many times b follows a in ``ids``: (T,) -> (V, V) int32."""
    a, b = ids[:-1], ids[1:]  # (T-1,), (T-1,): each token and the one after it
    flat = np.bincount(a * V + b, minlength=V * V)  # pair (a, b) -> cell a*V + b
    return flat.astype(np.int32).reshape(V, V)
# --8<-- [end:counts]


# --8<-- [start:count_bigram]
class CountBigram:
    """P(b | a) = (N[a, b] + alpha) / (N[a].sum() + alpha * V), N counted on train."""

    def __init__(self, train_ids: np.ndarray, V: int, alpha: float = 0.0):
        self.V, self.alpha = V, alpha
        self.counts = count_pairs(train_ids, V)  # (V, V)
        self.row_sums = self.counts.sum(axis=1)  # (V,): how often a is followed at all

    def probs(self, a) -> np.ndarray:
        """Rows P(. | a) for ids a (N,): (N, V), each summing to 1 (nan: a unseen)."""
        rows = self.counts[a] + self.alpha  # (N, V)
        return rows / (self.row_sums[a] + self.alpha * self.V)[:, None]

    def nll(self, ids: np.ndarray) -> float:
        """The loss on a stream: mean of -ln P(b | a) over its pairs, in nats."""
        a, b = ids[:-1], ids[1:]
        n = self.counts[a, b] + self.alpha  # (T-1,)
        total = self.row_sums[a] + self.alpha * self.V  # (T-1,)
        with np.errstate(divide="ignore", invalid="ignore"):  # -ln 0 = inf, 0/0 = nan
            return float(-np.log(n / total).mean())
# --8<-- [end:count_bigram]


# --8<-- [start:learned_bigram]
class LearnedBigram(Module):
    """logits[a] = row a of a learned (V, V) table: (B, T) ids -> (B, T, V) logits."""

    def __init__(self, V: int, rng=None):
        super().__init__()
        self.table = Embedding(V, V, rng=rng)  # (V, V), std 0.02: rows near uniform

    def forward(self, idx, targets=None):
        logits = self.table(idx)  # (B, T) -> (B, T, V)
        if targets is None:
            return logits
        return logits, cross_entropy(logits, targets)  # mean -ln softmax(logits)[y]

    def probs(self, a) -> np.ndarray:
        """softmax of rows ``a``: (N,) -> (N, V)."""
        z = self.table.weight.data[a].astype(np.float64)  # (N, V)
        e = np.exp(z - z.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    def nll(self, ids: np.ndarray) -> float:
        """The loss on a whole stream: log_softmax of all V rows once, then gathered."""
        z = self.table.weight.data.astype(np.float64)  # (V, V)
        z = z - z.max(axis=1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))  # (V, V)
        return float(-logp[ids[:-1], ids[1:]].mean())
# --8<-- [end:learned_bigram]


# --8<-- [start:fit]
def fit(model: LearnedBigram, corpus, steps: int = 300, lr: float = 0.3,
        batch_size: int = 32, block_size: int = 128, seed: int = 0,
        every: int = 10) -> list[tuple[int, float]]:
    """AdamW on (B, T) batches of corpus.train, lr falling linearly to 0.

    Returns (step, loss on the whole training split) every ``every`` steps.
    """
    rng = np.random.default_rng(seed)  # which windows each batch takes
    opt = AdamW(model.parameters(), lr=lr, weight_decay=0.0)
    curve = [(0, model.nll(corpus.train))]
    for step in range(steps):
        opt.lr = lr * (1 - step / steps)  # linear decay: the last steps are small
        x, y = corpus.get_batch("train", batch_size, block_size, rng)  # (B, T) each
        _, loss = model(x, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if (step + 1) % every == 0:
            curve.append((step + 1, model.nll(corpus.train)))
    return curve
# --8<-- [end:fit]


# --8<-- [start:sampling]
def draw(p: np.ndarray, rng: np.random.Generator) -> int:
    """One id drawn with probability p[i]: the first i whose running sum passes u."""
    cdf = np.cumsum(p)  # (V,) non-decreasing, cdf[-1] = 1 up to rounding
    u = rng.random() * cdf[-1]  # uniform in [0, total)
    return int(np.searchsorted(cdf, u, side="right"))  # first i with cdf[i] > u


def generate(model, start: int, n: int, rng: np.random.Generator,
             stop: int | None = None) -> list[int]:
    """``start`` and up to ``n`` ids, each drawn from the row of the one before."""
    ids = [start]
    for _ in range(n):
        nxt = draw(model.probs(np.array([ids[-1]]))[0], rng)  # (V,) -> one id
        ids.append(nxt)
        if nxt == stop:
            break
    return ids
# --8<-- [end:sampling]
