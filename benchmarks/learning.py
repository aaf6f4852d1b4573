"""Does a small fixed run still learn as well as it did? A guard against changes that cost loss, not speed.

The run: a tiny Shakespeare model (2 layers, 64 wide, context 32, batch 16), 300 steps, float32 on one thread,
seeds 0, 1 and 2, each scored on 20 fixed validation batches. Their mean validation loss was 2.388 at the end
of the first landing (6b7bb51) and 2.370 when the bound was set; BOUND = 2.40 leaves room for seed and thread
noise (seeds spread about 0.02) and is broken by a learning rate 0.6x too small (2.425) or by training on half
the data (2.405), both measured while choosing it. ``tests/test_learning_guard.py`` asserts it in the suite;
``minigpt bench learning`` prints it with the too-small learning rate as a control that must miss and, with
``--full``, the same run under bfloat16 autocast.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

BOUND = 2.40
SEEDS = (0, 1, 2)
SETTINGS = dict(corpus="shakespeare", n_layer=2, n_head=4, n_embd=64, block_size=32, batch_size=16, max_steps=300,
                lr=3e-3, min_lr=3e-4, warmup_steps=20, weight_decay=0.1, beta2=0.99, grad_clip=1.0,
                eval_interval=300, eval_iters=20, threads=1, dtype="float32")


def small_runs(out_dir: str | Path | None = None, **overrides) -> list[float]:
    """Validation loss of the fixed run for each of SEEDS (``overrides`` change single fields, for controls)."""
    from minigpt.config import TrainConfig
    from minigpt.train import train

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(out_dir or tmp)
        return [train(TrainConfig(**{**SETTINGS, **overrides, "seed": seed, "out_dir": str(root / f"seed-{seed}")}),
                      progress=False, plot=False).val_loss for seed in SEEDS]


def report(say, options) -> None:
    say(f"learning: tiny Shakespeare, 300 steps, float32, 1 thread, seeds {SEEDS}: mean validation loss <= {BOUND} "
        f"(2.388 at 6b7bb51)")
    rows = [("this commit", {}, True), ("control, lr x 0.6", {"lr": 1.8e-3, "min_lr": 1.8e-4}, False)]
    if getattr(options, "full", False):
        rows.append(("bfloat16 autocast", {"dtype": "bfloat16"}, True))
    for name, overrides, should_pass in rows:
        losses = small_runs(**overrides)
        mean = sum(losses) / len(losses)
        verdict = say.mark((mean <= BOUND) == should_pass) + ("" if should_pass else " (must miss)")
        say(f"  {name:18s} mean {mean:.4f} ({', '.join(f'{x:.4f}' for x in losses)})  {verdict}")
