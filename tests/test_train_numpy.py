"""The numpy GPT learns: AdamW on Tang poems drives the loss well below ln(vocab)."""

import json
import math
import os
import time
from pathlib import Path

import numpy as np
import pytest

from minigpt.config import GPTConfig
from minigpt.gpt import GPT
from minigpt.optim import AdamW

FILES = ["poet.tang.0.json", "poet.tang.1000.json"]  # 2,000 poems, about 4,300 distinct characters


@pytest.fixture(scope="module")
def poems() -> np.ndarray:
    root = os.environ.get("MINIGPT_DATA")
    if not root:
        pytest.fail("MINIGPT_DATA is not set: point it at the data folder (e.g. MINIGPT_DATA=../shared/data)")
    folder = Path(root) / "chinese-poetry" / "全唐诗"
    missing = [f for f in FILES if not (folder / f).is_file()]
    if missing:
        pytest.fail(f"MINIGPT_DATA={root} lacks {missing} under chinese-poetry/全唐诗")
    text = "\n".join(
        "".join(poem["paragraphs"]) for f in FILES for poem in json.loads((folder / f).read_text(encoding="utf-8"))
    )
    stoi = {c: i for i, c in enumerate(sorted(set(text)))}
    return np.array([stoi[c] for c in text], dtype=np.int64)


def train(data: np.ndarray, steps: int, seed: int = 0, lr: float = 3e-3, batch: int = 8) -> list[float]:
    vocab = int(data.max()) + 1
    config = GPTConfig(vocab_size=vocab)
    model = GPT(config, seed=seed)
    opt = AdamW(model.parameters(), lr=lr)
    rng = np.random.default_rng(seed)
    T = config.block_size
    losses = []
    for _ in range(steps):
        ix = rng.integers(0, len(data) - T - 1, batch)
        x = np.stack([data[i:i + T] for i in ix])  # (B, T)
        y = np.stack([data[i + 1:i + T + 1] for i in ix])  # (B, T), the next characters
        _, loss = model(x, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        assert loss.dtype == np.float32
        losses.append(loss.item())
    return losses


STEPS = 120  # at lr 1e-2; 300 steps at 3e-3 end at the same loss, in two and a half times as long


def test_loss_falls_well_below_ln_vocab(poems):
    vocab = int(poems.max()) + 1
    start = time.perf_counter()
    losses = train(poems, steps=STEPS, lr=1e-2)
    seconds = time.perf_counter() - start
    assert abs(losses[0] - math.log(vocab)) < 0.1  # untrained: uniform over the vocabulary
    final = float(np.mean(losses[-20:]))
    # measured: ln(4299) = 8.37 -> about 6.6 (mean of the last 20 steps); require a drop of 1.3 nats
    assert final < math.log(vocab) - 1.3, f"loss only fell from {losses[0]:.2f} to {final:.2f}"
    print(f"vocab {vocab}: loss {losses[0]:.2f} -> {final:.2f} in {STEPS} steps, {seconds / STEPS * 1000:.1f} ms/step")


def test_fixed_seed_gives_bit_identical_losses(poems):
    a = train(poems, steps=4, seed=5)
    b = train(poems, steps=4, seed=5)
    assert a == b
    assert train(poems, steps=4, seed=6) != a
