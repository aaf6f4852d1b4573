"""Lesson 7's model: the k tokens before a position -> logits for the next one (Bengio et al. 2003).

A fixed window of k token embeddings, laid side by side into one vector, then an MLP. Built on the
library's engine (minigpt.tensor, nn, functional, optim); the GPT of lesson 12 replaces the window
with attention.
"""

from __future__ import annotations

import numpy as np

from minigpt import functional as F
from minigpt.nn import Embedding, LayerNorm, Linear, Module
from minigpt.optim import AdamW
from minigpt.sampling import sample
from minigpt.tensor import no_grad


# --8<-- [start:model]
class WindowMLP(Module):
    """Next-token logits from a window of the k tokens before it: idx (B, k) -> (B, V)."""

    def __init__(self, vocab_size: int, window: int, n_embd: int = 16, n_hidden: int = 64, rng=None):
        super().__init__()
        self.window = window
        self.wte = Embedding(vocab_size, n_embd, rng=rng)  # (V, d)
        self.fc = Linear(window * n_embd, n_hidden, rng=rng)  # (H, k*d), (H,)
        self.ln = LayerNorm(n_hidden)  # (H,), (H,)
        self.lm_head = Linear(n_hidden, vocab_size, rng=rng)  # (V, H), (V,)

    def forward(self, idx):
        B, k = idx.shape
        if k != self.window:
            raise ValueError(f"WindowMLP: got windows of {k} tokens, this model reads window={self.window}")
        e = self.wte(idx)  # (B, k, d)
        x = e.reshape(B, k * e.shape[-1])  # (B, k*d): the k vectors side by side, in order
        h = self.ln(self.fc(x)).tanh()  # (B, H)
        return self.lm_head(h)  # (B, V)
# --8<-- [end:model]


# --8<-- [start:windows]
def windows(data: np.ndarray, k: int, first: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Every window of ``data``: x (N, k), the k tokens before position t, and y (N,), the token at t.

    Targets start at position ``first`` (default k), so that models with different windows, all
    k <= first, are scored on the same targets.
    """
    first = k if first is None else first
    if not 1 <= k <= first < len(data):
        raise ValueError(f"need 1 <= k <= first < len(data), got k={k}, first={first}, len(data)={len(data)}")
    x = np.lib.stride_tricks.sliding_window_view(data, k)[first - k : len(data) - k]  # (N, k)
    return x.astype(np.int64), data[first:].astype(np.int64)
# --8<-- [end:windows]


# --8<-- [start:train]
def train(model: WindowMLP, corpus, steps: int, batch_size: int = 64, lr: float = 1e-2,
          rng: np.random.Generator | None = None) -> list[float]:
    """AdamW on random training windows; the loss before each step."""
    opt = AdamW(model.parameters(), lr=lr, weight_decay=0.0)
    losses = []
    for _ in range(steps):
        x, y = corpus.get_batch("train", batch_size, model.window, rng)  # (B, k), (B, k)
        loss = F.cross_entropy(model(x), y[:, -1])  # the token right after the window: (B,)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(float(loss.data))
    return losses
# --8<-- [end:train]


def evaluate(model: WindowMLP, x: np.ndarray, y: np.ndarray, chunk: int = 1024) -> float:
    """Mean cross-entropy (nats) over all rows of x (N, k), y (N,), without building a graph, ``chunk`` rows at a
    time: a (1024, V) block of logits is 16 times faster here than one of (8192, V), which no cache holds."""
    total = 0.0
    with no_grad():
        for i in range(0, len(y), chunk):
            total += float(F.cross_entropy(model(x[i : i + chunk]), y[i : i + chunk]).data) * len(y[i : i + chunk])
    return total / len(y)


# --8<-- [start:generate]
def generate(model: WindowMLP, prompt: list[int], n: int, rng: np.random.Generator,
             temperature: float = 1.0) -> list[int]:
    """``prompt`` continued by ``n`` sampled tokens; the model sees only the last ``window`` of them."""
    if len(prompt) < model.window:
        raise ValueError(f"generate: the prompt has {len(prompt)} tokens, the window needs {model.window}")
    ids = list(prompt)
    with no_grad():
        for _ in range(n):
            x = np.array([ids[-model.window :]])  # (1, k): older tokens fall out of the window
            ids.append(int(sample(model(x).data, temperature, rng=rng)[0]))
    return ids
# --8<-- [end:generate]
